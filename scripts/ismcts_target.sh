#!/usr/bin/env bash
# ISMCTS at 10,000 iterations per decision against the heuristic, at the
# sample sizes results/ismcts-target.md reports: 1,000 duplicate deal pairs,
# then 100 duplicate game pairs (200 games). About an hour on 2 cores.
#
#   bash scripts/ismcts_target.sh [OUT_PREFIX] [DEAL_PAIRS] [GAME_PAIRS]   # default: results/ismcts-target 1000 100
#
# DEAL_PAIRS 0 skips the deals, GAME_PAIRS 0 the games; SPEC=... replaces the searcher's spec
# (default ismcts:iters=10000), OPP=... the opponent's (default heuristic;
# OPP=heuristic:open_wilds=-1 for the heuristic before open_wilds,
# OPP=heuristic:plan_out=0,open_wilds=-1 before plan_out,
# OPP=heuristic:fill_risk=0,plan_out=0,open_wilds=-1 before fill_risk).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-results/ismcts-target}
pairs=${2:-1000}
games=${3:-100}
spec=${SPEC:-ismcts:iters=10000}
opp=${OPP:-heuristic}
canasta=${CANASTA:-build/sim/cli/canasta}
[[ -x $canasta ]] || { echo "ismcts_target.sh: $canasta is missing (bash scripts/build.sh)" >&2; exit 2; }
mkdir -p "$(dirname "$prefix")"
: >"$prefix.txt"
run() {
  echo "+ canasta $*" | tee -a "$prefix.txt"
  local start=$SECONDS
  "$canasta" "$@" | tee -a "$prefix.txt"
  echo "  ($((SECONDS - start)) s)" | tee -a "$prefix.txt"
}
if ((pairs > 0)); then run sim --side0 "$spec" --side1 "$opp" --deals "$pairs" --seed 43 --threads 2; fi
if ((games > 0)); then run sim --side0 "$spec" --side1 "$opp" --games "$games" --seed 43 --threads 2; fi
