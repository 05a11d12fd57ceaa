#!/usr/bin/env bash
# Installs the Debian packages the build needs, when they are missing, and
# any more named as arguments (the test command adds clang-format).
# Run as root (or with sudo available) on Debian 12.
source "$(dirname "$0")/args.sh"
set -euo pipefail
packages=(build-essential cmake libtbb-dev libeigen3-dev libcli11-dev libbenchmark-dev libgtest-dev
  nlohmann-json3-dev libfmt-dev "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
