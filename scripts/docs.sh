#!/usr/bin/env bash
# Builds the user guide (docs/guide, an mdBook) into target/book and checks
# every relative link: those of the built HTML (files and #anchors), and
# those of README.md and docs/**/*.md. External http(s) links are not
# fetched. scripts/test.sh runs it after clippy.
#
# mdbook is installed once into target/tools (from crates.io, pinned, without
# its default features: no server, no file watcher, no search index, so it
# builds quickly); nothing is installed outside target/.
set -euo pipefail
cd "$(dirname "$0")/.."

MDBOOK_VERSION=0.5.4
mdbook=target/tools/bin/mdbook

if [ ! -x "$mdbook" ] || ! "$mdbook" --version 2>/dev/null | grep -qF "v$MDBOOK_VERSION"; then
  echo "== cargo install mdbook $MDBOOK_VERSION (into target/tools)"
  cargo install mdbook --locked --version "$MDBOOK_VERSION" \
    --no-default-features --root target/tools
fi

echo "== mdbook build docs/guide -> target/book"
rm -rf target/book
"$mdbook" build docs/guide --dest-dir "$PWD/target/book"

echo "== link check"
python3 scripts/linkcheck.py --html target/book --markdown README.md docs
