#!/usr/bin/env bash
# A Release build optimised with profiles of its own runs (GCC's
# profile-guided optimisation): an instrumented build plays a short training
# set (random, heuristic and search play on every kind of table), then the
# build is made again with the profiles.
#   bash scripts/build_pgo.sh [BUILD_DIR] [CMAKE_ARGS...]
# BUILD_DIR defaults to build-pgo; the program is BUILD_DIR/sim/cli/canasta.
# About 3 minutes of training on top of two builds. The games are the same
# as any build's: only the code's layout and inlining change.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-pgo}
shift || true
bash scripts/setup.sh
jobs=$(nproc)
targets=(canasta)
[[ " $* " == *" -DCANASTA_BUILD_BENCH=ON "* ]] && targets+=(canasta_bench)
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCANASTA_PGO=generate "$@" >/dev/null
profiles=$(sed -n 's/^CANASTA_PGO_DIR:PATH=//p' "$build/CMakeCache.txt")
rm -rf "$profiles"
echo "build_pgo: the instrumented build ..." >&2
cmake --build "$build" -j"$jobs" --target "${targets[@]}" >/dev/null
canasta=$build/sim/cli/canasta
echo "build_pgo: training ..." >&2
train() { "$canasta" "$@" --threads "$jobs" >/dev/null; }
train sim --deals 40000
train sim --deals 10000 --profile two-player
for table in spanish spanish-2p spanish-3p spanish-6p3; do train sim --deals 4000 --profile "$table"; done
train sim --side0 heuristic --side1 heuristic --deals 6000
train sim --side0 heuristic --side1 random --deals 3000 --profile two-player
train sim --side0 heuristic --side1 basic --deals 2000 --profile spanish
train sim --side0 ismcts:iters=400,rollout=heuristic,cutoff=80 --side1 heuristic --deals 4
train sim --side0 ismcts:iters=1000 --side1 heuristic --deals 4
train sim --side0 heuristic --side1 random --games 200
echo "build_pgo: the build with the profiles ..." >&2
cmake -S . -B "$build" -DCANASTA_PGO=use >/dev/null
cmake --build "$build" -j"$jobs" --target "${targets[@]}" >/dev/null
echo "build_pgo: $canasta" >&2
