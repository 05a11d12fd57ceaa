#!/usr/bin/env bash
# Instructions the engine executes on fixed workloads, counted by callgrind,
# in two built trees (each a checkout with a Release build in build/): the
# legal actions of 20 x 26,000 random-play positions, as many applied actions,
# 20,000 deals dealt, 2,000 random-play deals through the tree's own deal loop;
# with WORKLOADS="basic-search heuristic-search", 60 ISMCTS decisions of 500
# iterations from those positions, with each rollout policy (the agents
# library of the tree is linked too). Counts are exact and repeatable, whatever else the machine runs; the set-up
# (generating the positions) is counted apart and subtracted. The table is
# classic, or the profile in CANASTA_PROFILE (trees with the io library).
#
#   bash scripts/compare_instructions.sh OLD_TREE NEW_TREE
#   CANASTA_PROFILE=spanish-2p WORKLOADS=random bash scripts/compare_instructions.sh OLD_TREE NEW_TREE
source "$(dirname "$0")/args.sh"
set -euo pipefail
if (($# != 2)); then
  echo "usage: $0 OLD_TREE NEW_TREE" >&2
  exit 2
fi
for t in "$1" "$2"; do
  [[ -f $t/core/include/canasta/engine.h && -d $t/build/core ]] ||
    { echo "compare_instructions.sh: '$t' is not a checkout with a Release build in build/" >&2; exit 2; }
done
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

build() {  # TREE OUT
  local t=$1 includes=() libs=()
  for d in core/include core/io/include agents/include sim/include; do
    [[ -d $t/$d ]] && includes+=("-I$t/$d")
  done
  for l in sim/libcanasta_sim.a agents/libcanasta_agents.a core/libcanasta_io.a core/libcanasta_core.a; do
    [[ -f $t/build/$l ]] && libs+=("$t/build/$l")
  done
  g++ -std=c++20 -O3 -DNDEBUG "${includes[@]}" "$here/instructions/driver.cpp" "${libs[@]}" -ltbb -lfmt -o "$2"
}

count() {  # BINARY WORKLOAD
  valgrind --tool=callgrind --callgrind-out-file="$work/out" "$1" "$2" >/dev/null 2>"$work/log"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/log"
}

build "$1" "$work/old"
build "$2" "$work/new"
printf "%-8s %16s %16s %8s\n" workload "old" "new" "new/old"
base_old=$(count "$work/old" none)
base_new=$(count "$work/new" none)
for w in ${WORKLOADS:-legal apply deal random}; do
  o=$(($(count "$work/old" $w) - base_old))
  n=$(($(count "$work/new" $w) - base_new))
  awk -v w=$w -v o=$o -v n=$n 'BEGIN { printf "%-8s %16.0f %16.0f %8.4f\n", w, o, n, n / o }'
done
echo "(instructions of the workload, set-up subtracted; callgrind)"
