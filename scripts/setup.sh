#!/usr/bin/env bash
# Installs the Debian packages the build needs, plus any packages given as arguments, but only
# those missing (apt-get, with sudo when not root). Prints nothing when all are installed.
set -euo pipefail

packages=(
  libopenmpi-dev openmpi-bin libmpich-dev mpich libhwloc-dev libboost-dev
  libgtest-dev googletest libbenchmark-dev cmake ninja-build g++ pkg-config
  clang-format python3 procps iproute2 util-linux libfftw3-dev libhdf5-openmpi-dev libhdf5-mpich-dev
  libmemkind0 doxygen
  "$@"
)

installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2>/dev/null |
            awk '$2 == "ii" {print $1}' || true)
missing=()
for package in "${packages[@]}"; do
  grep -qxF "$package" <<<"$installed" || missing+=("$package")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "setup.sh: missing packages ${missing[*]}; run as root or install sudo" >&2
    exit 1
  fi
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
echo "setup.sh: installing ${missing[*]}"
install_missing() { "${sudo[@]}" apt-get install -y -q "${missing[@]}"; }
if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
  "${sudo[@]}" apt-get update -q
  install_missing
elif ! install_missing; then
  "${sudo[@]}" apt-get update -q
  install_missing
fi
