#!/usr/bin/env bash
# nginx, the reference the web view (issue 31) is measured against
# (bench/web.py), from Debian bookworm's packages, unpacked under
# $NGINX_DIR (default: target/nginx of this workspace; CARGO_TARGET_DIR does
# not move it). Nothing on the machine is installed, removed, upgraded or
# reconfigured, and no service, user or system file is created:
#
# - `nginx` (1.22, the binary: usr/sbin/nginx) and `nginx-common` (its
#   etc/nginx/mime.types) are fetched with `apt-get download` and unpacked
#   with `dpkg-deb -x` into $NGINX_DIR itself, so the binary is
#   $NGINX_DIR/usr/sbin/nginx (never installed: the package's maintainer
#   scripts would start a service on port 80);
# - the shared libraries the machine lacks (`ldd` "not found"; none on a
#   Debian bookworm with libssl3 and libpcre2-8-0) are taken from the
#   package's `Depends: lib*` (then theirs) and unpacked the same way into
#   $NGINX_DIR/libs; the directories to add to LD_LIBRARY_PATH are written
#   to $NGINX_DIR/ld-library-path (empty when none).
#
# Debian's binary has /etc/nginx, /var/log/nginx and /var/lib/nginx compiled
# in; `run` below overrides every one of them (-p, -c, -e, pid, the temp
# paths, the logs), so it runs as any user and writes only in its own
# directory.
#
# Usage:
#   bash scripts/nginx.sh           fetch and unpack (idempotent, quick when done)
#   bash scripts/nginx.sh check     that, then serve a throwaway tree on a free
#                                   loopback port and GET a listing, a file
#                                   and a range (as root: also as `nobody`)
#   bash scripts/nginx.sh run DIR ADDR:PORT ROOT
#                                   writes DIR/nginx.conf (a static server of
#                                   ROOT on ADDR:PORT: autoindex, sendfile,
#                                   ETag and Range as nginx does by default)
#                                   and execs nginx in the foreground (daemon
#                                   off, a master and NGINX_WORKERS workers,
#                                   default auto = one a core); pid, logs and
#                                   temp paths all in DIR (created if
#                                   missing). SIGTERM (or SIGQUIT, graceful)
#                                   stops it. Needs the unpacked tree.
#   bash scripts/nginx.sh conf DIR ADDR:PORT ROOT
#                                   prints the configuration `run` writes
#
# `run` writes `user root root;` when run as root (the workers would
# otherwise become nobody:nogroup, which Debian lacks as a group, and lose
# a tree below a 0700 temporary directory) and no user directive otherwise
# (an unprivileged master cannot switch). With NGINX_TLS_CERT and
# NGINX_TLS_KEY (PEM files) it listens with TLS (`listen ... ssl`).
# The access log is off (babelftp writes none for downloads either, without
# --xferlog); errors go to DIR/error.log. Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

NGINX_DIR="${NGINX_DIR:-$PWD/target/nginx}"
case "$NGINX_DIR" in /*) ;; *) NGINX_DIR="$PWD/$NGINX_DIR" ;; esac
# package:version prefix:file it must have (all unpacked into $NGINX_DIR)
PACKAGES=(
  "nginx:1.22.:usr/sbin/nginx"
  "nginx-common:1.22.:etc/nginx/mime.types"
)
BIN="$NGINX_DIR/usr/sbin/nginx"
LIBS="$NGINX_DIR/libs"


say() { echo "== nginx: $*" >&2; }
die() { echo "nginx.sh: $*" >&2; exit 1; }
# shellcheck source=scripts/debs.sh
source scripts/debs.sh

lib_path() {
  [ -d "$LIBS" ] || return 0
  find "$LIBS" \( -name '*.so' -o -name '*.so.*' \) -printf '%h\n' | sort -u | paste -sd: -
}

versions() { # "nginx 1.22.1-9+deb12u11, nginx-common 1.22.1-9+deb12u11"
  local entry pkg want file out=""
  for entry in "${PACKAGES[@]}"; do
    IFS=: read -r pkg want file <<<"$entry"
    out+="${out:+, }$pkg $(cat "$NGINX_DIR/.version-$pkg" 2>/dev/null || echo '?')"
  done
  echo "$out"
}

# ------------------------------------------------------------ unpacking
unpack() {
  local todo=() entry pkg want file
  for entry in "${PACKAGES[@]}"; do
    IFS=: read -r pkg want file <<<"$entry"
    if [ ! -f "$NGINX_DIR/$file" ] || [[ "$(cat "$NGINX_DIR/.version-$pkg" 2>/dev/null)" != "$want"* ]]; then
      todo+=("$pkg")
    fi
  done
  if [ "${#todo[@]}" -eq 0 ]; then
    [ -z "$(missing_libs "$BIN")" ] || todo+=(libs)
    [ -f "$NGINX_DIR/ld-library-path" ] && [ "$(cat "$NGINX_DIR/ld-library-path")" = "$(lib_path)" ] ||
      todo+=(ld-library-path)
  fi
  if [ "${#todo[@]}" -eq 0 ]; then
    say "$(versions) present in $NGINX_DIR: nothing to do"
    return 0
  fi
  say "to do: ${todo[*]}"
  mkdir -p "$NGINX_DIR"
  # A fresh machine may have no package lists at all.
  apt-cache show nginx nginx-common >/dev/null 2>&1 || apt_update
  local version
  if [[ " ${todo[*]} " == *" nginx "* ]] || [[ " ${todo[*]} " == *" nginx-common "* ]]; then
    # Both packages share the tree: unpack both again, from scratch (the
    # libraries stay, in $LIBS).
    find "$NGINX_DIR" -mindepth 1 -maxdepth 1 ! -name libs ! -name ld-library-path -exec rm -rf {} +
    for entry in "${PACKAGES[@]}"; do
      IFS=: read -r pkg want file <<<"$entry"
      version="$(fetch "$pkg" "$NGINX_DIR")"
      [[ "$version" == "$want"* ]] || die "$pkg is $version, not $want*"
      [ -f "$NGINX_DIR/$file" ] || die "$pkg has no $file"
      echo "$version" >"$NGINX_DIR/.version-$pkg"
      say "unpacked $pkg $version into $NGINX_DIR"
    done
  fi
  # What the machine lacks, from the Depends of nginx (then of the
  # libraries unpacked), never installed: unpacked into $LIBS.
  declare -A tried=()
  local round need pkgs fetched lib m p
  for round in 1 2 3 4 5 6; do
    m="$(missing_libs "$BIN")"
    [ -n "$m" ] || break
    [ "$m" != "?ldd-failed" ] || die "ldd fails on $BIN"
    read -r -a need <<<"$(echo $m)"
    [ "$round" -lt 6 ] || die "still missing after $round rounds: ${need[*]}"
    pkgs=(nginx)
    [ -f "$LIBS/.packages" ] && mapfile -t -O 1 pkgs <"$LIBS/.packages"
    for p in "${pkgs[@]}"; do apt-cache show "$p" >/dev/null 2>&1 || apt_update; done
    fetched=0
    while read -r lib; do
      [ -n "$lib" ] && [ -z "${tried[$lib]:-}" ] || continue
      tried[$lib]=1
      installed "$lib" && continue
      grep -qx "$lib" "$LIBS/.packages" 2>/dev/null && continue
      version="$(fetch "$lib" "$LIBS")"
      echo "$lib" >>"$LIBS/.packages"
      say "unpacked $lib $version into $LIBS (for ${need[*]})"
      fetched=1
    done < <(for p in "${pkgs[@]}"; do apt-cache depends "$p"; done |
      awk '/^ *\|?(Pre)?Depends: lib/ {print $2}' | sort -u)
    [ "$fetched" -eq 1 ] || die "no library package provides: ${need[*]}"
  done
  lib_path >"$NGINX_DIR/ld-library-path"
  ldnginx -V >/dev/null 2>&1 || die "$BIN -V fails: $(ldnginx -V 2>&1 | tail -n 3)"
  say "done in $NGINX_DIR: $(versions)"
}

ldnginx() { # runs the unpacked nginx with its libraries
  local ld
  ld="$(cat "$NGINX_DIR/ld-library-path" 2>/dev/null || true)"
  env ${ld:+LD_LIBRARY_PATH="$ld"} "$BIN" "$@"
}

# ------------------------------------------------------------------ run
# conf DIR ADDR:PORT ROOT: the configuration `run` uses, on stdout.
conf() {
  local dir="$1" listen="$2" root="$3" user="" tls="" ssl="" nofile
  [ "$(id -u)" -ne 0 ] || user="user root root;"
  # As many descriptors as the hard limit allows, up to 16384 (an
  # unprivileged nginx cannot raise it).
  nofile="$(ulimit -Hn)"
  [ "$nofile" != unlimited ] && [ "$nofile" -lt 16384 ] || nofile=16384
  if [ -n "${NGINX_TLS_CERT:-}" ] || [ -n "${NGINX_TLS_KEY:-}" ]; then
    [ -f "${NGINX_TLS_CERT:-}" ] && [ -f "${NGINX_TLS_KEY:-}" ] ||
      die "NGINX_TLS_CERT and NGINX_TLS_KEY must both name PEM files"
    ssl=" ssl"
    tls="ssl_certificate $NGINX_TLS_CERT;
    ssl_certificate_key $NGINX_TLS_KEY;"
  fi
  cat <<EOF
# Written by scripts/nginx.sh run: a static file server of $root.
$user
daemon off;
master_process on;
worker_processes ${NGINX_WORKERS:-auto};
worker_rlimit_nofile $nofile;
pid $dir/nginx.pid;
lock_file $dir/nginx.lock;
error_log $dir/error.log warn;

events {
    worker_connections $((nofile / 2));
}

http {
    include $NGINX_DIR/etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    client_body_temp_path $dir/body;
    proxy_temp_path $dir/proxy;
    fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi;
    scgi_temp_path $dir/scgi;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 65;
    keepalive_requests 100000;
    server_tokens off;

    server {
        # 1024: the backlog of tokio's TcpListener::bind (babelftp's), not
        # nginx's default 511.
        listen $listen$ssl backlog=1024;
        server_name _;
        root $root;
        $tls
        location / {
            autoindex on;
        }
    }
}
EOF
}

run() {
  [ "$#" -eq 3 ] || die "usage: $0 run DIR ADDR:PORT ROOT"
  local dir="$1" listen="$2" root="$3"
  case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
  case "$root" in /*) ;; *) root="$PWD/$root" ;; esac
  [ -x "$BIN" ] || die "$BIN missing: run bash scripts/nginx.sh first"
  [ -d "$root" ] || die "$root is not a directory"
  mkdir -p "$dir"
  conf "$dir" "$listen" "$root" >"$dir/nginx.conf"
  local ld
  ld="$(cat "$NGINX_DIR/ld-library-path" 2>/dev/null || true)"
  exec env ${ld:+LD_LIBRARY_PATH="$ld"} "$BIN" -p "$dir/" -c "$dir/nginx.conf" -e "$dir/error.log"
}

# ---------------------------------------------------------------- check
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# check_as WHO TMP: serves TMP/root with `run` as WHO (me, or nobody via
# setpriv) and GETs a listing, a file and a range.
check_as() {
  local who="$1" tmp="$2" dir port pid ok=0 i
  dir="$tmp/run-$who"
  mkdir -p "$dir"
  port="$(free_port)"
  local as=()
  if [ "$who" != me ]; then
    chown "$who" "$dir"
    as=(setpriv --reuid="$who" --regid="$(id -gn "$who")" --clear-groups --)
  fi
  # -t first, as WHO (its configuration differs from root's): an error
  # is clearer there.
  (cd / && "${as[@]}" bash "$OLDPWD/scripts/nginx.sh" conf "$dir" "127.0.0.1:$port" "$tmp/root") >"$dir/nginx.conf"
  [ "$who" = me ] || chown "$who" "$dir/nginx.conf"
  (cd / && "${as[@]}" env LD_LIBRARY_PATH="$(cat "$NGINX_DIR/ld-library-path")" \
    "$BIN" -t -q -p "$dir/" -c "$dir/nginx.conf" -e "$dir/error.log") ||
    die "nginx -t as $who refuses $dir/nginx.conf: $(tail -n 3 "$dir/error.log" 2>/dev/null)"
  (cd / && exec "${as[@]}" bash "$OLDPWD/scripts/nginx.sh" run "$dir" "127.0.0.1:$port" "$tmp/root") &
  pid=$!
  for i in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/" && { ok=1; break; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  local fail=""
  if [ "$ok" -eq 1 ]; then
    curl -sf "http://127.0.0.1:$port/" | grep -q 'href="sub/"' || fail="the listing of / lacks sub/"
    curl -sf "http://127.0.0.1:$port/sub/" | grep -q 'href="f%C3%A9t.txt"' || fail="${fail:-the listing of /sub/ lacks fét.txt}"
    [ "$(curl -sf "http://127.0.0.1:$port/sub/f%C3%A9t.txt")" = "hello nginx" ] || fail="${fail:-GET of a file}"
    [ "$(curl -sf -r 6-10 -w ' %{http_code}' "http://127.0.0.1:$port/sub/f%C3%A9t.txt")" = "nginx 206" ] || fail="${fail:-Range}"
    curl -sfI "http://127.0.0.1:$port/sub/f%C3%A9t.txt" | grep -qi '^etag:' || fail="${fail:-no ETag}"
  else
    fail="it did not answer on 127.0.0.1:$port"
  fi
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if grep -E '\[(emerg|alert|crit)\]' "$dir/error.log" >&2 2>/dev/null; then
    fail="${fail:-errors in its log (above)}"
  fi
  [ -z "$fail" ] || die "as $who: $fail (log: $(tail -n 3 "$dir/error.log" 2>/dev/null))"
  [ ! -e "$dir/nginx.pid" ] || die "as $who: $dir/nginx.pid left behind: did it stop?"
  say "check as $([ "$who" = me ] && id -un || echo "$who"): listing, file, Range (206) and ETag served on 127.0.0.1:$port, stopped cleanly"
}

check() {
  local tmp
  tmp="$(mktemp -d)"
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT
  mkdir -p "$tmp/root/sub"
  printf 'hello nginx' >"$tmp/root/sub/fét.txt"
  check_as me "$tmp"
  if [ "$(id -u)" -eq 0 ]; then
    # Unprivileged as well: nobody must reach the binary, the tree and
    # the run directory.
    chmod 755 "$tmp"
    if setpriv --reuid=nobody --regid=nogroup --clear-groups -- test -x "$BIN" 2>/dev/null; then
      check_as nobody "$tmp"
    else
      say "check as nobody skipped: nobody cannot reach $BIN (a parent directory is private)"
    fi
  fi
  say "$(ldnginx -v 2>&1 | sed 's/^nginx version: //') ($(versions)) works"
}

case "${1:-}" in
  "") unpack ;;
  check) unpack; check ;;
  run) shift; run "$@" ;;
  conf) shift; [ "$#" -eq 3 ] || die "usage: $0 conf DIR ADDR:PORT ROOT"; conf "$@" ;;
  *) die "usage: $0 [check | run DIR ADDR:PORT ROOT | conf DIR ADDR:PORT ROOT]" ;;
esac
