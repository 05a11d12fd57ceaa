#!/usr/bin/env bash
# The main job: install what is missing, build, and run a default simulation
# (one million random-play classic deals on every core, with the speed and how
# the deals ended). Arguments go to `canasta sim`.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
TARGET=canasta bash scripts/build.sh
./build/sim/cli/canasta sim --deals 1000000 "$@"
