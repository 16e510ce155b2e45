#!/usr/bin/env bash
# Fetches the real FTP servers that crates/cli/tests/cli/peers.rs runs our
# client against: vsftpd (3.0.3), ProFTPD (1.3.8, mod_lang built in, and
# mod_tls from proftpd-mod-crypto, unpacked into proftpd-crypto/) and
# Pure-FTPd (1.0.50), all from Debian bookworm's packages, and builds the
# locales ProFTPD's LANG needs. Everything goes under $PEERS_DIR (default:
# target/peers of this workspace); nothing on the machine is installed,
# removed, upgraded or reconfigured, and no service, user or system locale
# is created:
#
# - each server package is fetched with `apt-get download` and unpacked
#   with `dpkg-deb -x` into $PEERS_DIR/<server> (never installed: the three
#   declare `Conflicts: ftp-server`, and installing one would remove
#   another already on the machine);
# - the shared libraries the machine lacks (`ldd` "not found") are taken
#   from the server's `Depends: lib*` (then theirs), fetched and unpacked the
#   same way into $PEERS_DIR/libs; the directories the tests must add to
#   LD_LIBRARY_PATH are written to $PEERS_DIR/ld-library-path;
# - fr_FR, ja_JP and de_DE are compiled with `localedef --no-archive` into
#   $PEERS_DIR/locale, in UTF-8 under their `.utf8` name, and under their
#   bare name too (mod_lang calls setlocale(LC_ALL, "fr_FR")) in the charset
#   LOCALES gives below (EUC-JP for ja_JP, see there). The tests copy
#   them, with ProFTPD's catalogs, into each ProFTPD's own 0755 working
#   directory and point LOCPATH and LangPath there: its sessions read them
#   as `nobody`, who cannot enter a checkout below a 0700 directory (/root,
#   `mktemp -d`). The locale sources are the machine's /usr/share/i18n, or
#   Debian's `locales` package unpacked into $PEERS_DIR/i18n when they are
#   missing.
#
# The tests (crates/test-support/src/peers.rs) start every server
# themselves, in the foreground on a free loopback port with a config file
# of their own; sessions run as users every Debian system has (`nobody`,
# and `daemon` for vsftpd's anonymous user). Idempotent, and quick when
# everything is already there. Needs root only when apt's package lists are
# missing or stale (for `apt-get update`). Exits non-zero when anything
# fails.
set -euo pipefail
cd "$(dirname "$0")/.."

PEERS_DIR="${PEERS_DIR:-$PWD/target/peers}"
case "$PEERS_DIR" in /*) ;; *) PEERS_DIR="$PWD/$PEERS_DIR" ;; esac
# directory:package:version prefix:server binary
SERVERS=(
  "vsftpd:vsftpd:3.0.3:usr/sbin/vsftpd"
  "proftpd:proftpd-core:1.3.8:usr/sbin/proftpd"
  "proftpd-crypto:proftpd-mod-crypto:1.3.8:usr/lib/proftpd/mod_tls.so"
  "pure-ftpd:pure-ftpd:1.0.50:usr/sbin/pure-ftpd"
)
# Locales ProFTPD's LANG can offer (it lists a language only when its
# catalog and its locale both exist: the package has no de_DE catalog), each
# with the charset of its bare name. mod_lang calls setlocale(LC_ALL,
# "ja_JP"), which glibc first turns into ja_JP.eucJP when Debian's
# /usr/share/locale/locale.alias (package locales) is there, and then only
# takes a locale in EUC-JP: the bare ja_JP is built in EUC-JP, so that it
# loads (and ProFTPD answers the same) with or without that file.
LOCALES=("fr_FR:UTF-8" "ja_JP:EUC-JP" "de_DE:UTF-8")
LIBS="$PEERS_DIR/libs"
LOCALE_DIR="$PEERS_DIR/locale"


say() { echo "== peers: $*"; }
die() { echo "peers: $*" >&2; exit 1; }
# shellcheck source=scripts/debs.sh
source scripts/debs.sh

# The directories of $LIBS holding shared libraries, colon-separated.
lib_path() {
  [ -d "$LIBS" ] || return 0
  find "$LIBS" \( -name '*.so' -o -name '*.so.*' \) -printf '%h\n' | sort -u | paste -sd: -
}


# The directories a locale is built under, with their charmap:
# fr_FR:UTF-8 -> "fr_FR.utf8:UTF-8" and "fr_FR:UTF-8".
locale_dirs() {
  echo "${1%%:*}.utf8:UTF-8"
  echo "$1"
}

charmap_of() { # NAME -> the charset setlocale(LC_ALL, NAME) gets with LOCPATH=$LOCALE_DIR
  local out
  out="$(LOCPATH="$LOCALE_DIR" LC_ALL="$1" locale charmap 2>&1)" || return 0
  grep -q 'Cannot set' <<<"$out" || echo "$out"
}

locale_ok() { # fr_FR:UTF-8 -> is every directory of it built, and does each name load?
  local d
  for d in $(locale_dirs "$1"); do
    [ -f "$LOCALE_DIR/${d%%:*}/LC_CTYPE" ] || return 1
  done
  [ "$(charmap_of "${1%%:*}.UTF-8")" = UTF-8 ] && [ "$(charmap_of "${1%%:*}")" = "${1#*:}" ]
}




# ---------------------------------------------------------------- check
todo=()
for entry in "${SERVERS[@]}"; do
  IFS=: read -r dir pkg want bin <<<"$entry"
  d="$PEERS_DIR/$dir"
  if [ ! -f "$d/$bin" ] || [[ "$(cat "$d/.version" 2>/dev/null)" != "$want"* ]]; then
    todo+=("$pkg")
  elif [ -n "$(missing_libs "$d/$bin")" ]; then
    todo+=("$pkg-libs")
  fi
done
for l in "${LOCALES[@]}"; do
  locale_ok "$l" || todo+=("locale-${l%%:*}")
done
[ -f "$PEERS_DIR/ld-library-path" ] && [ "$(cat "$PEERS_DIR/ld-library-path")" = "$(lib_path)" ] ||
  todo+=(ld-library-path)

summary() {
  local entry dir pkg want bin
  for entry in "${SERVERS[@]}"; do
    IFS=: read -r dir pkg want bin <<<"$entry"
    printf '%s %s, ' "$dir" "$(cat "$PEERS_DIR/$dir/.version")"
  done
  echo "locales ${LOCALES[*]%%:*}"
}

if [ "${#todo[@]}" -eq 0 ]; then
  say "all present in $PEERS_DIR ($(summary)): nothing to do"
  exit 0
fi
say "to do: ${todo[*]}"
mkdir -p "$PEERS_DIR"
# A fresh machine may have no package lists at all.
apt-cache show vsftpd proftpd-core pure-ftpd >/dev/null 2>&1 || apt_update

# ---------------------------------------------------------------- servers
for entry in "${SERVERS[@]}"; do
  IFS=: read -r dir pkg want bin <<<"$entry"
  d="$PEERS_DIR/$dir"
  [[ " ${todo[*]} " == *" $pkg "* ]] || continue
  rm -rf "$d"
  version="$(fetch "$pkg" "$d")"
  [[ "$version" == "$want"* ]] || die "$pkg is $version, not $want"
  [ -f "$d/$bin" ] || die "$pkg has no $bin"
  echo "$version" >"$d/.version"
  say "unpacked $pkg $version into $d"
done

# -------------------------------------------------------------- libraries
# What the machine lacks, from the Depends of the servers (then of the
# libraries unpacked), never installed: unpacked into $LIBS.
declare -A tried=()
for round in 1 2 3 4 5 6; do
  need=()
  pkgs=()
  for entry in "${SERVERS[@]}"; do
    IFS=: read -r dir pkg want bin <<<"$entry"
    m="$(missing_libs "$PEERS_DIR/$dir/$bin")"
    [ -z "$m" ] || { need+=($m); pkgs+=("$pkg"); }
  done
  [ "${#need[@]}" -gt 0 ] || break
  [ "$round" -lt 6 ] || die "still missing after $round rounds: ${need[*]}"
  [ -f "$LIBS/.packages" ] && mapfile -t -O "${#pkgs[@]}" pkgs <"$LIBS/.packages"
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
lib_path >"$PEERS_DIR/ld-library-path"

# ---------------------------------------------------------------- locales
command -v localedef >/dev/null 2>&1 || die "localedef (package libc-bin) is missing"
sources=/usr/share/i18n
for l in "${LOCALES[@]}"; do
  [ -f "$sources/locales/${l%%:*}" ] && [ -f "$sources/charmaps/${l#*:}.gz" ] || sources=""
done
if [ -z "$sources" ]; then
  sources="$PEERS_DIR/i18n/usr/share/i18n"
  if [ ! -f "$sources/charmaps/UTF-8.gz" ]; then
    rm -rf "$PEERS_DIR/i18n"
    version="$(fetch locales "$PEERS_DIR/i18n")"
    say "unpacked the locale sources (locales $version) into $PEERS_DIR/i18n"
  fi
fi
mkdir -p "$LOCALE_DIR"
for l in "${LOCALES[@]}"; do
  locale_ok "$l" && continue
  for d in $(locale_dirs "$l"); do
    name="${d%%:*}" charmap="${d#*:}"
    say "localedef --no-archive -i ${l%%:*} -f $charmap $LOCALE_DIR/$name"
    rm -rf "${LOCALE_DIR:?}/$name"
    # 1 is "warnings, output written" (EUC-JP lacks a few characters).
    I18NPATH="$sources" localedef --no-archive -i "${l%%:*}" -f "$charmap" "$LOCALE_DIR/$name" 2>/dev/null ||
      [ $? -eq 1 ] || die "localedef -i ${l%%:*} -f $charmap $LOCALE_DIR/$name failed"
  done
  locale_ok "$l" || die "locale ${l%%:*} does not load from $LOCALE_DIR after localedef"
done

say "done in $PEERS_DIR: $(summary)"
