#!/usr/bin/env bash
# ISMCTS strength by budget: iterations per decision against the heuristic,
# in duplicate, as results/ismcts-scaling.md reports it. About 12 minutes on
# 2 quiet cores with the defaults (the 10,000-iteration point is most of it).
#
#   bash scripts/ismcts_scaling.sh [OUT_PREFIX] [DEAL_PAIRS]   # default: results/ismcts-scaling 150
#
# OPP=... replaces the opponent's spec (default heuristic; OPP=heuristic:open_wilds=-1 for the
# heuristic of 2026-12-02, OPP=heuristic:plan_out=0,open_wilds=-1 before plan_out,
# OPP=heuristic:fill_risk=0,plan_out=0,open_wilds=-1 of 2026-12-01; their curves are in
# results/history/ismcts-scaling-2026-12-02.md).
# Writes OUT_PREFIX.csv (the table), .txt (the printout) and .png (the plot).
# Stopped by a signal, OUT_PREFIX.csv holds the points so far (and the
# printout before stays): `canasta tune --resume OUT_PREFIX.csv` plays the
# rest; the script run again starts over.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-results/ismcts-scaling}
pairs=${2:-150}
whole DEAL_PAIRS "$pairs"
opp=${OPP:-heuristic}
canasta=${CANASTA:-build/sim/cli/canasta}
[[ -x $canasta ]] || { echo "ismcts_scaling.sh: $canasta is missing (bash scripts/build.sh)" >&2; exit 2; }
mkdir -p "$(dirname "$prefix")"
# The printout replaces the one before only when the sweep is complete.
trap 'rm -f "$prefix.txt.tmp"' EXIT
echo "+ canasta tune --agent 'ismcts:iters={100,300,1000,3000,10000}' --vs $opp --deals $pairs --seed 41 --threads 2" \
  | tee "$prefix.txt.tmp"
"$canasta" tune --agent 'ismcts:iters={100,300,1000,3000,10000}' --vs "$opp" --deals "$pairs" --seed 41 --threads 2 \
  -o "$prefix.csv" | tee -a "$prefix.txt.tmp"
mv "$prefix.txt.tmp" "$prefix.txt"
if /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; then
  /usr/bin/python3 scripts/plot_sweep.py "$prefix.csv" "$prefix.png" --metric margin --logx \
    --label "ismcts against $opp" --title "ISMCTS by iterations per decision ($pairs deal pairs a point)"
fi
