#!/usr/bin/env bash
# The whole babelftp test suite, runnable on a fresh machine.
#
# It installs what the tests need and the machine lacks (Debian packages:
# curl, lftp, python3 for ftplib (and python3-pip when it has no pip),
# valgrind for the instruction counts, tmux for the interactive shell
# tests, rclone and a Go client (golang-go and Debian's
# golang-github-jlaffaye-ftp-dev, built offline in GOPATH mode) for the
# FTPS session-reuse tests; chromium, chromium-driver and python3-selenium
# for the web view's browser tests (crates/cli/tests/web/browser.py); npm
# for axe-core, the accessibility checker those tests inject, into
# target/axe; moto, an S3 server from PyPI, into target/moto), and
# nothing else: it never removes, upgrades or reconfigures a package already
# there (apt's plan is checked first). Then it checks formatting and lints,
# unpacks the peer servers into target/peers (scripts/peers.sh, which
# installs nothing) and PostgreSQL into target/postgres (scripts/postgres.sh,
# which installs nothing either), runs every test of the workspace, and checks the
# instruction counts of the hot paths against bench/icount-baseline.json.
# `.ci/run` calls exactly this script.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
for tool in curl lftp python3 valgrind tmux; do
  command -v "$tool" >/dev/null 2>&1 || need+=("$tool")
done
command -v rclone >/dev/null 2>&1 || need+=(rclone)
command -v go >/dev/null 2>&1 || need+=(golang-go)
[ -d /usr/share/gocode/src/github.com/jlaffaye/ftp ] || need+=(golang-github-jlaffaye-ftp-dev)
# A headless Chromium driven by Selenium for the web view's browser tests
# (crates/cli/tests/web/browser.py). Debian's python3-selenium goes into
# Debian's own Python, /usr/bin/python3, which may not be the python3 of
# PATH (pyenv): it is looked for there, and browser.py runs there.
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
/usr/bin/python3 -c 'import selenium' >/dev/null 2>&1 || need+=(python3-selenium)
# npm, for axe-core (scripts/axe.sh), only when there is none.
command -v npm >/dev/null 2>&1 || need+=(npm)
# pip, for moto (scripts/moto.sh); Debian's python3 comes without it.
if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
  need+=(python3-pip)
fi
if [ "${#need[@]}" -gt 0 ]; then
  echo "== installing: ${need[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # Only new packages: refuse a plan that removes or upgrades anything.
  plan="$($sudo apt-get install -s --no-install-recommends "${need[@]}")"
  if grep -E '^(Remv|Purg) |^Inst [^ ]+ \[' <<<"$plan" >&2; then
    echo "test.sh: installing ${need[*]} would change the packages above; install them by hand" >&2
    exit 1
  fi
  $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

# What the programs the tests run keep in a home (Chromium's profile and
# cache, dconf, lftp's history, rclone's settings, pip's and Go's caches)
# goes under target/home, not into the user's: nothing outside target/ is
# written (npm's cache: scripts/axe.sh).
home="$PWD/target/home"
mkdir -p "$home/config" "$home/cache" "$home/data" "$home/state"
export XDG_CONFIG_HOME="$home/config" XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data" XDG_STATE_HOME="$home/state"

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo check -p babelftp --no-default-features --locked
bash scripts/docs.sh  # the user guide (mdBook into target/book) and a check of every relative link
bash scripts/peers.sh # vsftpd, ProFTPD, Pure-FTPd (unpacked) for crates/cli/tests/cli/peers.rs
bash scripts/axe.sh   # axe-core (npm --prefix target/axe) for crates/cli/tests/cli/web_a11y.rs
bash scripts/moto.sh  # moto's S3 server (pip --target target/moto) for crates/cli/tests/cli/s3.rs
bash scripts/slapd.sh # OpenLDAP's slapd and ldap-utils (unpacked) for babelftp_test_support::slapd
bash scripts/postgres.sh # PostgreSQL 15 (unpacked) for crates/accounts/tests/store/postgres.rs
echo "== cargo test"
cargo test --workspace --locked
echo "== instruction counts of the hot paths against bench/icount-baseline.json"
python3 bench/icount.py --check
