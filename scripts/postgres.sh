#!/usr/bin/env bash
# A real PostgreSQL for the accounts store's tests (issue 28), from Debian
# bookworm's postgresql-15, unpacked under $PG_DIR (default: target/postgres
# of this workspace). Nothing on the machine is installed, removed,
# upgraded or reconfigured, and no service or user is created:
#
# - postgresql-15 is fetched with `apt-get download` and unpacked with
#   `dpkg-deb -x` into $PG_DIR/pg (its binaries find their share/ and lib/
#   relative to themselves);
# - the shared libraries the machine lacks (`ldd` "not found") are taken
#   from the package's `Depends: lib*` (then theirs), unpacked the same way
#   into $PG_DIR/libs (not libllvm: it serves only JIT, which the clusters
#   here turn off); the directories the servers need in LD_LIBRARY_PATH
#   are written to $PG_DIR/ld-library-path.
#
# Usage:
#   bash scripts/postgres.sh              fetch and unpack (idempotent, quick when done)
#   bash scripts/postgres.sh start [NAME] a throwaway cluster in $PG_DIR/clusters/NAME
#                                         (default: dev) on 127.0.0.1 and a free port;
#                                         prints its URL (again if it already runs)
#   bash scripts/postgres.sh stop [NAME]  stops it (fast shutdown); its data stays
#   bash scripts/postgres.sh url [NAME]   prints the URL of a running cluster
#
# PostgreSQL refuses to run as root: run as root (CI), the cluster runs as
# `nobody` (setpriv), which every Debian system has, and its data directory
# is given to it; run as another user, it runs as that user. The tests start
# their own clusters the same way (crates/test-support/src/postgres.rs).
# Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_DIR="${PG_DIR:-$PWD/target/postgres}"
case "$PG_DIR" in /*) ;; *) PG_DIR="$PWD/$PG_DIR" ;; esac
PKG=postgresql-15
WANT=15.
BIN="$PG_DIR/pg/usr/lib/postgresql/15/bin"
LIBS="$PG_DIR/libs"


say() { echo "== postgres: $*" >&2; }
die() { echo "postgres: $*" >&2; exit 1; }
# shellcheck source=scripts/debs.sh
source scripts/debs.sh

lib_path() {
  [ -d "$LIBS" ] || return 0
  find "$LIBS" \( -name '*.so' -o -name '*.so.*' \) -printf '%h\n' | sort -u | paste -sd: -
}





binaries() { echo "$BIN/postgres $BIN/initdb $BIN/pg_ctl"; }

# ------------------------------------------------------------ unpacking
unpack() {
  local todo="" b m
  if [ ! -x "$BIN/postgres" ] || [[ "$(cat "$PG_DIR/pg/.version" 2>/dev/null)" != "$WANT"* ]]; then
    todo=pkg
  else
    for b in $(binaries); do
      [ -z "$(missing_libs "$b")" ] || todo=libs
    done
    [ -f "$PG_DIR/ld-library-path" ] && [ "$(cat "$PG_DIR/ld-library-path")" = "$(lib_path)" ] || todo="${todo:-ldpath}"
  fi
  if [ -z "$todo" ]; then
    say "$PKG $(cat "$PG_DIR/pg/.version") present in $PG_DIR: nothing to do"
    return 0
  fi
  mkdir -p "$PG_DIR"
  apt-cache show "$PKG" >/dev/null 2>&1 || apt_update
  if [ "$todo" = pkg ]; then
    rm -rf "$PG_DIR/pg"
    local version
    version="$(fetch "$PKG" "$PG_DIR/pg")"
    [[ "$version" == "$WANT"* ]] || die "$PKG is $version, not $WANT*"
    for b in $(binaries); do [ -x "$b" ] || die "$PKG has no $b"; done
    echo "$version" >"$PG_DIR/pg/.version"
    say "unpacked $PKG $version into $PG_DIR/pg"
  fi
  # What the machine lacks, from the Depends of the package (then of the
  # libraries unpacked), never installed: unpacked into $LIBS.
  declare -A tried=()
  local round need pkgs fetched lib
  for round in 1 2 3 4 5 6; do
    need=()
    for b in $(binaries); do
      m="$(missing_libs "$b")"
      [ -z "$m" ] || need+=($m)
    done
    [ "${#need[@]}" -gt 0 ] || break
    [ "$round" -lt 6 ] || die "still missing after $round rounds: ${need[*]}"
    pkgs=("$PKG")
    [ -f "$LIBS/.packages" ] && mapfile -t -O 1 pkgs <"$LIBS/.packages"
    for p in "${pkgs[@]}"; do apt-cache show "$p" >/dev/null 2>&1 || apt_update; done
    fetched=0
    while read -r lib; do
      [ -n "$lib" ] && [ -z "${tried[$lib]:-}" ] || continue
      tried[$lib]=1
      installed "$lib" && continue
      # LLVM serves only JIT compilation (llvmjit.so, loaded on demand);
      # the clusters run with jit=off: not worth its 25 MB.
      [[ "$lib" == libllvm* ]] && continue
      grep -qx "$lib" "$LIBS/.packages" 2>/dev/null && continue
      version="$(fetch "$lib" "$LIBS")"
      echo "$lib" >>"$LIBS/.packages"
      say "unpacked $lib $version into $LIBS (for ${need[*]})"
      fetched=1
    done < <(for p in "${pkgs[@]}"; do apt-cache depends "$p"; done |
      awk '/^ *\|?(Pre)?Depends: lib/ {print $2}' | sort -u)
    [ "$fetched" -eq 1 ] || die "no library package provides: ${need[*]}"
  done
  lib_path >"$PG_DIR/ld-library-path"
  say "done in $PG_DIR: $PKG $(cat "$PG_DIR/pg/.version")"
}

# ------------------------------------------------------------- clusters
# Runs a command as the cluster's user: nobody when we are root.
as_owner() {
  local ld
  ld="$(cat "$PG_DIR/ld-library-path" 2>/dev/null || true)"
  if [ "$(id -u)" -eq 0 ]; then
    env ${ld:+LD_LIBRARY_PATH="$ld"} setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
  else
    env ${ld:+LD_LIBRARY_PATH="$ld"} "$@"
  fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cluster_url() { # DATA -> the URL of the cluster running there, or nothing
  local data="$1" port
  [ -f "$data/postmaster.pid" ] || return 0
  as_owner "$BIN/pg_ctl" status -D "$data" >/dev/null 2>&1 || return 0
  port="$(sed -n 4p "$data/postmaster.pid")"
  echo "postgres://babelftp@127.0.0.1:$port/postgres"
}

start() {
  local name="${1:-dev}" data url port
  data="$PG_DIR/clusters/$name"
  url="$(cluster_url "$data")"
  if [ -n "$url" ]; then
    say "cluster $name already runs"
    echo "$url"
    return 0
  fi
  mkdir -p "$data"
  if [ "$(id -u)" -eq 0 ]; then
    chown -R nobody:nogroup "$data"
    chmod 700 "$data"
    as_owner test -x "$BIN/postgres" -a -w "$data" ||
      die "nobody cannot reach $BIN or $data (a parent directory is private?): set PG_DIR to a directory every user may enter"
  fi
  if [ ! -f "$data/PG_VERSION" ]; then
    say "initdb $data"
    (cd / && as_owner "$BIN/initdb" -D "$data" -U babelftp --auth=trust --no-locale -E UTF8 --no-sync >"$PG_DIR/clusters/$name.initdb.log" 2>&1) ||
      die "initdb failed: see $PG_DIR/clusters/$name.initdb.log"
  fi
  port="$(free_port)"
  (cd / && as_owner "$BIN/pg_ctl" start -w -t 30 -D "$data" -l "$data/server.log" \
    -o "-c listen_addresses=127.0.0.1 -c jit=off -p $port -k ''" >/dev/null) ||
    die "the cluster did not start: see $data/server.log"
  say "cluster $name runs on 127.0.0.1:$port (data in $data; stop: bash scripts/postgres.sh stop $name)"
  echo "postgres://babelftp@127.0.0.1:$port/postgres"
}

stop() {
  local name="${1:-dev}" data
  data="$PG_DIR/clusters/$name"
  if [ -z "$(cluster_url "$data")" ]; then
    say "cluster $name is not running"
    return 0
  fi
  (cd / && as_owner "$BIN/pg_ctl" stop -w -m fast -D "$data" >/dev/null)
  say "cluster $name stopped"
}

case "${1:-}" in
  "") unpack ;;
  start) unpack; start "${2:-}" ;;
  stop) stop "${2:-}" ;;
  url) cluster_url "$PG_DIR/clusters/${2:-dev}" ;;
  *) die "usage: $0 [start|stop|url [NAME]]" ;;
esac
