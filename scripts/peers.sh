#!/usr/bin/env bash
# Installs the real FTP servers that crates/cli/tests/peers.rs runs our
# client against: vsftpd, ProFTPD (1.3.8, mod_lang built in) and Pure-FTPd
# (1.0.50), all from Debian bookworm's packages, plus the locales ProFTPD's
# LANG needs.
#
# The three packages each declare `Conflicts: ftp-server`, so only vsftpd
# is installed with apt (its service is kept from starting and disabled:
# nothing listens on port 21); proftpd-core and pure-ftpd are fetched with
# `apt-get download` and unpacked with `dpkg-deb -x` into $PEERS_DIR
# (default: target/peers of this workspace), their shared libraries
# installed with apt. The tests start every server themselves, in the
# foreground on a free loopback port with a config file of their own.
#
# Idempotent, and quick when everything is already there. Runs as root (or
# through sudo). Exits non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

PEERS_DIR="${PEERS_DIR:-$PWD/target/peers}"
case "$PEERS_DIR" in /*) ;; *) PEERS_DIR="$PWD/$PEERS_DIR" ;; esac
# Packages unpacked rather than installed, with their bookworm version prefix.
UNPACKED=("proftpd-core:1.3.8" "pure-ftpd:1.0.50")
# Locales ProFTPD's LANG can offer (it lists a language only when its locale exists).
LOCALES=(fr_FR ja_JP de_DE)

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive

say() { echo "== peers: $*"; }

dir_of() { # package name -> directory under $PEERS_DIR
  case "$1" in
    proftpd-core) echo proftpd ;;
    *) echo "$1" ;;
  esac
}

bin_of() { # package name -> its server binary, relative to its directory
  case "$1" in
    proftpd-core) echo usr/sbin/proftpd ;;
    pure-ftpd) echo usr/sbin/pure-ftpd ;;
  esac
}

# Shared libraries a binary needs that the loader cannot find.
missing_libs() {
  local out
  out="$(ldd "$1" 2>&1)" || { echo "ldd failed on $1: $out" >&2; echo "?"; return; }
  grep 'not found' <<<"$out" | awk '{print $1}' || true
}

locale_present() { # fr_FR -> is fr_FR.UTF-8 (and the bare fr_FR) there?
  local all
  all="$(locale -a 2>/dev/null)"
  grep -qx "$1.utf8" <<<"$all" && grep -qx "$1" <<<"$all"
}

apt_updated=""
apt_update() {
  if [ -z "$apt_updated" ]; then
    say "apt-get update"
    $sudo apt-get update -qq
    apt_updated=1
  fi
}

# ---------------------------------------------------------------- check
todo=()
command -v vsftpd >/dev/null 2>&1 || [ -x /usr/sbin/vsftpd ] || todo+=(vsftpd)
for entry in "${UNPACKED[@]}"; do
  pkg="${entry%%:*}" want="${entry#*:}"
  d="$PEERS_DIR/$(dir_of "$pkg")"
  if [ ! -x "$d/$(bin_of "$pkg")" ] || [[ "$(cat "$d/.version" 2>/dev/null)" != "$want"* ]]; then
    todo+=("$pkg")
  elif [ -n "$(missing_libs "$d/$(bin_of "$pkg")")" ]; then
    todo+=("$pkg-libs")
  fi
done
command -v localedef >/dev/null 2>&1 && [ -d /usr/share/i18n/locales ] || todo+=(locales)
for l in "${LOCALES[@]}"; do
  locale_present "$l" || todo+=("locale-$l")
done
getent passwd ftp >/dev/null || todo+=(ftp-user)

if [ "${#todo[@]}" -eq 0 ]; then
  say "all present in $PEERS_DIR (vsftpd $(dpkg-query -W -f '${Version}' vsftpd)," \
    "proftpd $(cat "$PEERS_DIR/proftpd/.version"), pure-ftpd $(cat "$PEERS_DIR/pure-ftpd/.version")," \
    "locales ${LOCALES[*]}): nothing to do"
  exit 0
fi
say "to do: ${todo[*]}"

# ---------------------------------------------------------------- vsftpd
if [[ " ${todo[*]} " == *" vsftpd "* ]]; then
  apt_update
  # Keep the package's init script from starting vsftpd on port 21.
  created_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
    $sudo chmod 755 /usr/sbin/policy-rc.d
    created_policy=1
    trap '[ -z "$created_policy" ] || $sudo rm -f /usr/sbin/policy-rc.d' EXIT
  fi
  say "apt-get install vsftpd"
  $sudo apt-get install -y -qq --no-install-recommends vsftpd >/dev/null
  if [ -n "$created_policy" ]; then
    $sudo rm -f /usr/sbin/policy-rc.d
    created_policy=""
  fi
fi
# Whatever installed it, the system service must not run (nor start at boot):
# the tests start their own vsftpd on a high port.
if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
  if systemctl is-enabled --quiet vsftpd 2>/dev/null || systemctl is-active --quiet vsftpd 2>/dev/null; then
    say "systemctl disable --now vsftpd"
    $sudo systemctl disable --now vsftpd >/dev/null 2>&1
  fi
else
  if [ -e /etc/init.d/vsftpd ] && $sudo /etc/init.d/vsftpd status >/dev/null 2>&1; then
    say "stopping the vsftpd service"
    $sudo /etc/init.d/vsftpd stop >/dev/null
  fi
  if command -v deb-systemd-helper >/dev/null 2>&1 && [ -e /lib/systemd/system/vsftpd.service ] &&
    deb-systemd-helper --quiet was-enabled vsftpd.service 2>/dev/null; then
    $sudo deb-systemd-helper disable vsftpd.service >/dev/null 2>&1 || true
  fi
  if ls /etc/rc[2-5].d/S*vsftpd >/dev/null 2>&1; then
    say "update-rc.d vsftpd disable"
    $sudo update-rc.d vsftpd disable >/dev/null 2>&1
  fi
fi
[ -x /usr/sbin/vsftpd ] || { echo "peers: vsftpd is not installed" >&2; exit 1; }

# ------------------------------------------------- ProFTPD and Pure-FTPd
for entry in "${UNPACKED[@]}"; do
  pkg="${entry%%:*}" want="${entry#*:}"
  d="$PEERS_DIR/$(dir_of "$pkg")"
  if [[ " ${todo[*]} " == *" $pkg "* ]]; then
    apt_update
    dl="$(mktemp -d)"
    chmod 755 "$dl" # apt's download sandbox user must be able to write there
    say "apt-get download $pkg"
    (cd "$dl" && apt-get download -qq "$pkg" 2>&1 | grep -v 'Download is performed unsandboxed' || true)
    deb="$(ls "$dl"/"$pkg"_*.deb 2>/dev/null | head -n1)"
    [ -n "$deb" ] || { echo "peers: apt-get download $pkg fetched nothing" >&2; exit 1; }
    version="$(dpkg-deb -f "$deb" Version)"
    [[ "$version" == "$want"* ]] || { echo "peers: $pkg is $version, not $want" >&2; exit 1; }
    rm -rf "$d"
    mkdir -p "$d"
    dpkg-deb -x "$deb" "$d"
    echo "$version" >"$d/.version"
    rm -rf "$dl"
    say "unpacked $pkg $version into $d"
  fi
  # Its shared libraries, from the package's own Depends.
  bin="$d/$(bin_of "$pkg")"
  if [ -n "$(missing_libs "$bin")" ]; then
    apt_update
    mapfile -t libs < <(apt-cache depends "$pkg" | awk '/^ *(Pre)?Depends: lib/ {print $2}' | sort -u)
    say "apt-get install ${libs[*]} (libraries of $pkg)"
    $sudo apt-get install -y -qq --no-install-recommends "${libs[@]}" >/dev/null
    still="$(missing_libs "$bin")"
    [ -z "$still" ] || { echo "peers: $bin still misses: $still" >&2; exit 1; }
  fi
done

# ---------------------------------------------------------------- locales
if ! command -v localedef >/dev/null 2>&1 || [ ! -d /usr/share/i18n/locales ]; then
  apt_update
  say "apt-get install locales"
  $sudo apt-get install -y -qq --no-install-recommends locales >/dev/null
fi
for l in "${LOCALES[@]}"; do
  if ! locale_present "$l"; then
    # mod_lang switches with setlocale(LC_ALL, "fr_FR") and lists a
    # language only when that succeeds: build the bare name too.
    say "localedef -i $l -f UTF-8 $l.UTF-8 (and $l)"
    $sudo localedef -i "$l" -f UTF-8 "$l.UTF-8"
    $sudo localedef -i "$l" -f UTF-8 "$l"
    locale_present "$l" || { echo "peers: locale $l missing after localedef" >&2; exit 1; }
  fi
done

# ---------------------------------------------------------------- ftp user
# vsftpd's postinst creates it; anonymous vsftpd sessions run as it.
if ! getent passwd ftp >/dev/null; then
  say "adding the ftp system user"
  $sudo adduser --system --group --home /srv/ftp --no-create-home ftp >/dev/null
fi

say "done: vsftpd $(dpkg-query -W -f '${Version}' vsftpd) (/usr/sbin/vsftpd)," \
  "proftpd $(cat "$PEERS_DIR/proftpd/.version") ($PEERS_DIR/proftpd)," \
  "pure-ftpd $(cat "$PEERS_DIR/pure-ftpd/.version") ($PEERS_DIR/pure-ftpd)," \
  "locales ${LOCALES[*]}"
