#!/usr/bin/env bash
# moto's S3 server (PyPI, Apache-2.0) for the object-storage tests
# (crates/cli/tests/cli/s3.rs), installed into target/moto with pip --target:
# nothing outside target/ is touched. Run by scripts/test.sh. It brings
# openapi-spec-validator, which checks the admin API's OpenAPI document
# (crates/cli/tests/cli/admin_api.rs); pinned here with it.
set -euo pipefail
cd "$(dirname "$0")/.."
version=5.2.5
dest=target/moto
if [ -d "$dest/moto-$version.dist-info" ]; then
  exit 0
fi
echo "== moto $version (S3 server for the storage tests) into $dest"
rm -rf "$dest"
mkdir -p target
args=(install --quiet --disable-pip-version-check --no-warn-conflicts --target "$dest" "moto[server]==$version" "openapi-spec-validator==0.9.0")
# A distribution's python3 may refuse pip outside a venv (PEP 668); the
# packages go to target/ only, so saying so is safe there.
python3 -m pip "${args[@]}" 2>/dev/null || python3 -m pip "${args[@]}" --break-system-packages
test -d "$dest/moto-$version.dist-info"
