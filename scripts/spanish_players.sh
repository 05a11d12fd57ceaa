#!/usr/bin/env bash
# The players at every spanish table: heuristic against random, the
# heuristic's spanish decisions (cleaning, the wild meld) against the same
# player without them, and ISMCTS against the heuristic. Writes the outputs
# to OUT_DIR (default results/spanish/, which results/spanish.md quotes).
#   bash scripts/spanish_players.sh [DEALS] [OUT_DIR]   (default 20000; ISMCTS plays DEALS/200)
source "$(dirname "$0")/args.sh"
whole DEALS "${1:-20000}" 200
source "$(dirname "$0")/measure.sh" "${2:-results/spanish}"
deals=${1:-20000}
for p in spanish spanish-2p spanish-3p spanish-6p spanish-6p3; do
  run "$p-vs-random" sim --profile "$p" --side0 heuristic --side1 random --deals "$deals"
  run "$p-decisions" sim --profile "$p" --side0 heuristic --side1 heuristic:wild_meld=0,clean=0 --deals "$deals"
  run "$p-ismcts" sim --profile "$p" --side0 ismcts:iters=1000 --side1 heuristic --deals $((deals / 200))
done
