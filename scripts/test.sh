#!/usr/bin/env bash
# The whole test suite: install what is missing, build with warnings as
# errors and run every test with ctest; then the same tests (but the slow
# reference comparison) in a Debug build with AddressSanitizer and
# UndefinedBehaviorSanitizer, where every action is also checked for legality
# and every invariant after it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh -DCANASTA_BUILD_TESTS=ON -DCANASTA_BUILD_BENCH=ON -DCANASTA_WERROR=ON "$@"
(cd build && ctest --output-on-failure -j"$(nproc)")
bash scripts/setup.sh
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug -DCANASTA_SANITIZE=ON -DCANASTA_WERROR=ON \
  -DCANASTA_BUILD_BENCH=OFF >/dev/null
cmake --build build-sanitize -j"$(nproc)"
cd build-sanitize
ctest --output-on-failure -j"$(nproc)" -E "Reference|thousand_games"
