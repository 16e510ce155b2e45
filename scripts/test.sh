#!/usr/bin/env bash
# The whole babelftp test suite, runnable on a fresh machine.
#
# It installs what the tests need (Debian packages: curl, lftp; Python's
# ftplib ships with python3), then checks formatting and lints and runs every
# test of the workspace. `.ci/run` calls exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for tool in curl lftp python3; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
if [ "${#need[@]}" -gt 0 ]; then
  echo "== installing: ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
bash scripts/peers.sh # vsftpd, ProFTPD, Pure-FTPd for crates/cli/tests/peers.rs
echo "== cargo test"
cargo test --workspace --locked
