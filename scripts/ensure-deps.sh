#!/usr/bin/env bash
# Checks for what the build needs and installs what it can: `ensure-deps.sh build` (Rust, Node.js,
# npm) or `ensure-deps.sh test` (also Debian's chromium, and nginx, openssl and psql for the
# deployment test). Says clearly what is missing otherwise.
set -euo pipefail
need=${1:-build}
missing=()
command -v cargo >/dev/null || missing+=("cargo (Rust toolchain: https://rustup.rs)")
command -v node >/dev/null || missing+=("node (Node.js 20 or newer)")
command -v npm >/dev/null || missing+=("npm")
if ((${#missing[@]})); then
  echo "Cannot build: missing ${missing[*]}." >&2
  exit 1
fi

apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "Missing Debian package(s) $*: install them with 'sudo apt-get install -y $*'." >&2
    exit 1
  fi
  echo "Installing Debian package(s): $*"
  # A fresh machine has no package lists yet.
  if ! apt-get install -y -qq "$@" >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
  fi
}

if [ "$need" = test ] || [ "$need" = bench ]; then
  packages=()
  [ -x /usr/bin/chromium ] || packages+=(chromium)
  # nginx-light: the smallest Debian nginx with TLS and HTTP/2, which the deployment test runs.
  [ -x /usr/sbin/nginx ] || packages+=(nginx-light)
  command -v openssl >/dev/null || packages+=(openssl)
  command -v psql >/dev/null || packages+=(postgresql-client)
  ((${#packages[@]} == 0)) || apt_install "${packages[@]}"
fi
# moto in server mode: the local S3-compatible storage tests/deploy/publish.test.mjs publishes to.
if [ "$need" = test ] && ! python3 -c 'import moto.server, flask_cors' >/dev/null 2>&1; then
  echo "moto: installing from PyPI" >&2
  python3 -m pip install --quiet --disable-pip-version-check 'moto[server]>=5,<6'
fi
exit 0
