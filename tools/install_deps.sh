#!/usr/bin/env bash
# Installs the Debian packages that building and testing need, when run as
# root and only those missing; otherwise says what is missing. Used by
# `make test` and `.ci/run` so that both work on a fresh Debian 12 machine.
set -u
pkgs=(cmake make gcc g++ binutils clang libclang-rt-14-dev pkg-config python3 git)
# the Python module (python/) and its tests
pkgs+=(python3-dev python3-pip python3-setuptools python3-dask python3-distributed python3-pandas)
missing=()
for p in "${pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq "${missing[@]}" && exit 0
  echo "install_deps: apt-get failed for: ${missing[*]}" >&2
  exit 1
fi
echo "install_deps: missing packages (install them as root): ${missing[*]}" >&2
exit 0
