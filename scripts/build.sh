#!/usr/bin/env bash
# Configures and builds into build/ (Release). Extra arguments go to cmake
# (and stay in build/'s settings); TARGET=NAME builds that target only.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)" ${TARGET:+--target "$TARGET"}
