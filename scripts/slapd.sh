#!/usr/bin/env bash
# Fetches a real OpenLDAP server for the tests that need a directory
# (crates/test-support/src/slapd.rs): slapd (2.5, with slapadd, its
# schemas and its modules: Debian builds back_mdb as a module, loaded from
# usr/lib/ldap) and ldap-utils (ldapwhoami, ldapsearch, …), both from
# Debian bookworm's packages. Everything goes under $SLAPD_DIR (default:
# target/slapd of this workspace; CARGO_TARGET_DIR does not move it);
# nothing on the machine is installed, removed, upgraded or reconfigured,
# and no service, user or system file is created:
#
# - each package is fetched with `apt-get download` and unpacked with
#   `dpkg-deb -x` into $SLAPD_DIR/<package> (never installed: slapd's
#   maintainer scripts would create a user and start a service);
# - the shared libraries the machine lacks (`ldd` "not found" for slapd,
#   back_mdb.so and ldapwhoami) are looked for in the packages the two
#   depend on (`Depends: lib*`, then theirs) that are not installed: each is
#   downloaded, and unpacked into $SLAPD_DIR/libs only when it holds one of
#   the missing libraries (on Debian bookworm: libltdl7 and libwrap0;
#   libslapi comes with slapd itself). The directories the tests must add to
#   LD_LIBRARY_PATH are written to $SLAPD_DIR/ld-library-path.
#
# The tests start slapd themselves, as root, in the foreground on a free
# loopback port with a slapd.conf and an mdb database of their own in a
# temporary directory. Idempotent, and quick when everything is already
# there. Needs root only when apt's package lists are missing or stale (for
# `apt-get update`). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

SLAPD_DIR="${SLAPD_DIR:-$PWD/target/slapd}"
case "$SLAPD_DIR" in /*) ;; *) SLAPD_DIR="$PWD/$SLAPD_DIR" ;; esac
# package:version prefix:file it must have (unpacked into $SLAPD_DIR/<package>)
PACKAGES=(
  "slapd:2.5.:usr/sbin/slapd"
  "ldap-utils:2.5.:usr/bin/ldapwhoami"
)
# What must load: the binaries and the one module the tests use.
BINARIES=(
  "slapd/usr/sbin/slapd"
  "slapd/usr/lib/ldap/back_mdb.so"
  "ldap-utils/usr/bin/ldapwhoami"
)
LIBS="$SLAPD_DIR/libs"


say() { echo "== slapd: $*"; }
die() { echo "slapd.sh: $*" >&2; exit 1; }
# shellcheck source=scripts/debs.sh
source scripts/debs.sh

# The directories holding shared libraries the binaries load: those of
# $LIBS, and slapd's own (libslapi), colon-separated.
lib_path() {
  {
    [ -d "$LIBS" ] && find "$LIBS" \( -name '*.so' -o -name '*.so.*' \) -printf '%h\n'
    [ -d "$SLAPD_DIR/slapd/usr/lib" ] && find "$SLAPD_DIR/slapd/usr/lib" -name 'lib*.so*' -printf '%h\n'
  } | sort -u | paste -sd: -
}


all_missing() { # every library missing for BINARIES, one a line
  local b
  for b in "${BINARIES[@]}"; do missing_libs "$SLAPD_DIR/$b"; done | sort -u
}





# ---------------------------------------------------------------- check
todo=()
for entry in "${PACKAGES[@]}"; do
  IFS=: read -r pkg want file <<<"$entry"
  d="$SLAPD_DIR/$pkg"
  if [ ! -f "$d/$file" ] || [[ "$(cat "$d/.version" 2>/dev/null)" != "$want"* ]]; then
    todo+=("$pkg")
  fi
done
for b in "${BINARIES[@]}"; do # one deleted from an unpacked tree
  [ -e "$SLAPD_DIR/$b" ] || [[ " ${todo[*]} " == *" ${b%%/*} "* ]] || todo+=("${b%%/*}")
done
[ "${#todo[@]}" -gt 0 ] || [ -z "$(all_missing)" ] || todo+=(libs)
[ -f "$SLAPD_DIR/ld-library-path" ] && [ "$(cat "$SLAPD_DIR/ld-library-path")" = "$(lib_path)" ] ||
  todo+=(ld-library-path)

summary() {
  local entry pkg want file
  for entry in "${PACKAGES[@]}"; do
    IFS=: read -r pkg want file <<<"$entry"
    printf '%s %s, ' "$pkg" "$(cat "$SLAPD_DIR/$pkg/.version")"
  done
  printf 'libraries unpacked: %s' "$(paste -sd' ' "$LIBS/.packages" 2>/dev/null || true)"
  [ -s "$LIBS/.packages" ] || printf 'none'
  echo
}

if [ "${#todo[@]}" -eq 0 ]; then
  say "all present in $SLAPD_DIR ($(summary)): nothing to do"
  exit 0
fi
say "to do: ${todo[*]}"
mkdir -p "$SLAPD_DIR"
# A fresh machine may have no package lists at all.
apt-cache show slapd ldap-utils >/dev/null 2>&1 || apt_update

# ---------------------------------------------------------------- packages
for entry in "${PACKAGES[@]}"; do
  IFS=: read -r pkg want file <<<"$entry"
  d="$SLAPD_DIR/$pkg"
  [[ " ${todo[*]} " == *" $pkg "* ]] || continue
  rm -rf "$d"
  version="$(fetch "$pkg" "$d")"
  [[ "$version" == "$want"* ]] || die "$pkg is $version, not $want*"
  [ -f "$d/$file" ] || die "$pkg has no $file"
  echo "$version" >"$d/.version"
  say "unpacked $pkg $version into $d"
done

# -------------------------------------------------------------- libraries
# What the machine lacks, looked for in the Depends of the packages (then
# of the libraries unpacked) that are not installed: each is downloaded
# and unpacked into $LIBS only when it holds a missing library. Never
# installed.
declare -A tried=()
for round in 1 2 3 4 5 6; do
  mapfile -t need < <(all_missing)
  [ "${#need[@]}" -gt 0 ] || break
  [[ " ${need[*]} " != *"?ldd-failed"* ]] || die "ldd fails on one of: ${BINARIES[*]}"
  [ "$round" -lt 6 ] || die "still missing after $round rounds: ${need[*]}"
  pkgs=()
  for entry in "${PACKAGES[@]}"; do pkgs+=("${entry%%:*}"); done
  [ -f "$LIBS/.packages" ] && mapfile -t -O "${#pkgs[@]}" pkgs <"$LIBS/.packages"
  for p in "${pkgs[@]}"; do apt-cache show "$p" >/dev/null 2>&1 || apt_update; done
  fetched=0
  while read -r lib; do
    [ -n "$lib" ] && [ -z "${tried[$lib]:-}" ] || continue
    tried[$lib]=1
    installed "$lib" && continue
    grep -qx "$lib" "$LIBS/.packages" 2>/dev/null && continue
    dl="$(mktemp -d)"
    chmod 755 "$dl"
    deb="$(download "$lib" "$dl")" || { rm -rf "$dl"; exit 1; }
    # The sonames it ships (file names below a lib directory).
    provides="$(dpkg-deb -c "$deb" | awk '{print $6}' | grep -E '/lib/.*\.so(\.|$)' | sed 's|.*/||' || true)"
    useful=""
    for n in "${need[@]}"; do
      grep -qxF "$n" <<<"$provides" && useful+=" $n"
    done
    if [ -n "$useful" ]; then
      mkdir -p "$LIBS"
      dpkg-deb -x "$deb" "$LIBS"
      echo "$lib" >>"$LIBS/.packages"
      say "unpacked $lib $(dpkg-deb -f "$deb" Version) into $LIBS (for$useful)"
      fetched=1
    fi
    rm -rf "$dl"
  done < <(for p in "${pkgs[@]}"; do apt-cache depends "$p"; done |
    awk '/^ *\|?(Pre)?Depends: lib/ {print $2}' | sort -u)
  [ "$fetched" -eq 1 ] || die "no library package slapd or ldap-utils depends on provides: ${need[*]}"
done
lib_path >"$SLAPD_DIR/ld-library-path"

# ---------------------------------------------------------------- check
LD_LIBRARY_PATH="$(lib_path)" "$SLAPD_DIR/slapd/usr/sbin/slapd" -VV >/dev/null 2>&1 ||
  die "$SLAPD_DIR/slapd/usr/sbin/slapd -VV fails: $(LD_LIBRARY_PATH="$(lib_path)" "$SLAPD_DIR/slapd/usr/sbin/slapd" -VV 2>&1 | tail -n 3)"
say "done in $SLAPD_DIR: $(summary)"
