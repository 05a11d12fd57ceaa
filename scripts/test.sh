#!/usr/bin/env bash
# The whole test suite: install what is missing, build with warnings as
# errors, run every test with ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh -DCANASTA_BUILD_TESTS=ON -DCANASTA_BUILD_BENCH=ON -DCANASTA_WERROR=ON "$@"
cd build
ctest --output-on-failure -j"$(nproc)"
