#!/usr/bin/env bash
# ISMCTS variants at 300 iterations per decision against the heuristic, over
# the same 300 duplicate deal pairs, as results/players.md reports them.
# About 6 minutes on 2 cores.
#
#   bash scripts/ismcts_variants.sh [OUT_DIR]     # default: runs/ismcts-variants
source "$(dirname "$0")/args.sh"
source "$(dirname "$0")/measure.sh" "${1:-runs/ismcts-variants}"
variants=("" ",rollout=heuristic" ",prior=1" ",rollout=heuristic,prior=1" ",hand_weight=0" ",hand_weight=0.3"
  ",hand_weight=0.3,cutoff=20" ",cutoff=80" ",reward=win" ",c=0.4")
for i in "${!variants[@]}"; do
  run "variant$i" sim --side0 "ismcts:iters=300${variants[$i]}" --side1 heuristic --deals 300 --seed 4 --threads 2
done
