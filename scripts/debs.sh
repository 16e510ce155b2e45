# Shared by scripts/peers.sh, scripts/postgres.sh and scripts/slapd.sh
# (sourced, not run): fetching Debian packages and unpacking them into the
# workspace, never installing them. The sourcing script defines `say`,
# `die` and `lib_path` (the directories of the libraries it unpacked,
# colon-separated) before it calls these.

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive

# Shared libraries a binary needs that the loader cannot find (with
# lib_path), one a line; "?ldd-failed" when ldd itself fails.
missing_libs() {
  local out
  out="$(LD_LIBRARY_PATH="$(lib_path)" ldd "$1" 2>&1)" || { echo "?ldd-failed"; return; }
  grep 'not found' <<<"$out" | awk '{print $1}' || true
}

installed() { # is this package installed on the machine?
  [ "$(dpkg-query -W -f '${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

apt_updated=""
apt_update() { # once a run, and only when a download needs it
  [ -z "$apt_updated" ] || return 0
  say "apt-get update (package lists only)"
  $sudo apt-get update -qq
  apt_updated=1
}

# download PACKAGE DIR: downloads PACKAGE's .deb into DIR; prints its path.
download() {
  local pkg="$1" dl="$2" deb
  if ! (cd "$dl" && apt-get download -qq "$pkg" >/dev/null 2>&1); then
    apt_update >&2 # stale or missing package lists
    (cd "$dl" && apt-get download -qq "$pkg" 2>&1 | grep -v 'Download is performed unsandboxed' >&2) || true
  fi
  deb="$(ls "$dl"/"$pkg"_*.deb 2>/dev/null | head -n1)"
  [ -n "$deb" ] || die "apt-get download $pkg fetched nothing"
  echo "$deb"
}

# fetch PACKAGE DIR: downloads PACKAGE's .deb and unpacks it into DIR
# (added to what DIR holds); prints the version fetched.
fetch() {
  local pkg="$1" dest="$2" dl deb
  dl="$(mktemp -d)"
  chmod 755 "$dl"
  deb="$(download "$pkg" "$dl")" || { rm -rf "$dl"; exit 1; }
  mkdir -p "$dest"
  dpkg-deb -x "$deb" "$dest"
  dpkg-deb -f "$deb" Version
  rm -rf "$dl"
}
