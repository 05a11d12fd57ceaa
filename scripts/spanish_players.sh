#!/usr/bin/env bash
# The players at every spanish table: heuristic against random, the
# heuristic's spanish decisions (cleaning, the wild meld) against the same
# player without them, and ISMCTS against the heuristic. Writes the outputs
# to results/spanish/ (results/spanish.md quotes them).
#   bash scripts/spanish_players.sh [DEALS]   (default 20000; ISMCTS plays DEALS/200)
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
source "$(dirname "$0")/measure.sh" results/spanish
deals=${1:-20000}
[[ $deals =~ ^[0-9]+$ && $deals -ge 200 ]] || { echo "spanish_players: DEALS must be a number >= 200" >&2; exit 2; }
for p in spanish spanish-2p spanish-3p spanish-6p spanish-6p3; do
  run "$p-vs-random" sim --profile "$p" --side0 heuristic --side1 random --deals "$deals"
  run "$p-decisions" sim --profile "$p" --side0 heuristic --side1 heuristic:wild_meld=0,clean=0 --deals "$deals"
  run "$p-ismcts" sim --profile "$p" --side0 ismcts:iters=1000 --side1 heuristic --deals $((deals / 200))
done
