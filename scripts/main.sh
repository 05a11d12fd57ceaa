#!/usr/bin/env bash
# The main job: install what is missing, build, and run a default simulation
# (one million random-play classic deals on every core, with the speed and how
# the deals ended). Arguments go to `canasta sim`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh -DCANASTA_BUILD_TESTS=OFF -DCANASTA_BUILD_BENCH=OFF
./build/sim/cli/canasta sim --deals 1000000 "$@"
