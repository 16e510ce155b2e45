#!/usr/bin/env bash
# axe-core (npm, MPL-2.0), the accessibility checker the web view's
# browser tests inject into Chromium (crates/cli/tests/web/browser.py, op
# `axe`; crates/cli/tests/cli/web_a11y.rs), installed into target/axe with
# npm --prefix, npm's cache and logs in target/npm-cache (not ~/.npm):
# nothing outside target/ is touched. Run by scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
version=4.10.3
dest=target/axe
pkg="$dest/node_modules/axe-core/package.json"
if [ -f "$pkg" ] && grep -q "\"version\": \"$version\"" "$pkg"; then
  exit 0
fi
echo "== axe-core $version (accessibility checks of the web view) into $dest"
rm -rf "$dest"
mkdir -p "$dest"
npm install --silent --no-audit --no-fund --update-notifier=false \
  --cache "$PWD/target/npm-cache" --prefix "$dest" "axe-core@$version"
test -f "$dest/node_modules/axe-core/axe.min.js"
