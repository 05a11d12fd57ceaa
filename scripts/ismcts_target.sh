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
# SHARD=i/n plays only shard i of n of each run (`canasta sim --shard`), for
# a run too long for one sitting: the files go to OUT_PREFIX/deals-shard-i-of-n
# and OUT_PREFIX/games-shard-i-of-n, the printouts beside them (.txt);
# `canasta merge OUT_PREFIX/deals-shard-*-of-n` joins the shards into the single run's summary.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-results/ismcts-target}
pairs=${2:-1000}
games=${3:-100}
whole DEAL_PAIRS "$pairs" 0
whole GAME_PAIRS "$games" 0
((pairs + games > 0)) || { echo "ismcts_target.sh: DEAL_PAIRS and GAME_PAIRS are both 0: nothing to play" >&2; exit 2; }
spec=${SPEC:-ismcts:iters=10000}
opp=${OPP:-heuristic}
canasta=${CANASTA:-build/sim/cli/canasta}
[[ -x $canasta ]] || { echo "ismcts_target.sh: $canasta is missing (bash scripts/build.sh)" >&2; exit 2; }
deals_out=$prefix.txt games_out=$prefix.txt
deals_extra=() games_extra=()
if [[ -n ${SHARD:-} ]]; then
  [[ $SHARD =~ ^([0-9]+)/([0-9]+)$ ]] || { echo "ismcts_target.sh: SHARD must be i/n, e.g. 0/4" >&2; exit 2; }
  name="shard-${BASH_REMATCH[1]}-of-${BASH_REMATCH[2]}"
  deals_out=$prefix/deals-$name.txt games_out=$prefix/games-$name.txt
  deals_extra=(--shard "$SHARD" --out "$prefix/deals-$name")
  games_extra=(--shard "$SHARD" --out "$prefix/games-$name")
fi
mkdir -p "$(dirname "$deals_out")"
# Printouts go to PRINTOUT.tmp, put in place once every run is complete.
trap 'rm -f "$deals_out.tmp" "$games_out.tmp"' EXIT
run() {  # run PRINTOUT ARGS...: the command and its printout, to the screen and the file
  local out=$1.tmp start=$SECONDS
  shift
  echo "+ canasta $*" | tee -a "$out"
  "$canasta" "$@" | tee -a "$out"
  echo "  ($((SECONDS - start)) s)" | tee -a "$out"
}
if ((pairs > 0)); then
  : >"$deals_out.tmp"
  run "$deals_out" sim --side0 "$spec" --side1 "$opp" --deals "$pairs" --seed 43 --threads 2 "${deals_extra[@]}"
fi
if ((games > 0)); then
  [[ $games_out == "$deals_out" ]] && ((pairs > 0)) || : >"$games_out.tmp"
  run "$games_out" sim --side0 "$spec" --side1 "$opp" --games "$games" --seed 43 --threads 2 "${games_extra[@]}"
fi
for f in "$deals_out" "$games_out"; do
  [[ ! -e $f.tmp ]] || mv "$f.tmp" "$f"
done
