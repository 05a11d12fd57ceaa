#!/usr/bin/env bash
# The players' strength and the SPSA tuning behind the heuristic's defaults,
# as results/players.md reports them. Takes about 10 minutes on 2 cores.
#
#   bash scripts/players.sh [OUT_DIR]     # default: runs/players
#
# Writes every command's output to OUT_DIR/NAME.txt, the SPSA trajectories
# and final specs to OUT_DIR/spsa-*.{csv,spec}, and the plot
# OUT_DIR/spsa.png (when python3-matplotlib is installed).
source "$(dirname "$0")/args.sh"
source "$(dirname "$0")/measure.sh" "${1:-runs/players}"

# The hand-set values the heuristic had before tuning, and deliberately bad
# ones; without `freeze_cost`, `fill_risk`, `plan_out` and `open_wilds`, which came after
# the tuning (the first two's defaults are from sweeps, results/freeze.md and
# results/players.md).
hand='heuristic:take_min=3,take_value=40,take_wild=0,meld_min=2,keep_wilds=1,dump_hand=4,out_lead=-150,out_danger=3,safety=100,freeze_cost=0,fill_risk=0,plan_out=0,open_wilds=-1'
bad='heuristic:take_min=12,take_value=400,take_wild=12,meld_min=5,keep_wilds=5,dump_hand=0,out_lead=1500,out_danger=0,safety=0,freeze_cost=0,fill_risk=0,plan_out=0,open_wilds=-1'
perturb='take_min=1,take_value=10,take_wild=1,meld_min=0.5,keep_wilds=0.5,dump_hand=1,out_lead=60,out_danger=1,safety=20'

run spsa-hand tune --agent "$hand" --spsa "$perturb" --batches 4000 --deals 250 --objective margin --seed 11 \
  --threads 2 -o "$out/spsa-hand.csv" --spec-out "$out/spsa-hand.spec"
run spsa-bad tune --agent "$bad" --spsa "$perturb" --batches 4000 --deals 250 --objective margin --seed 12 \
  --threads 2 -o "$out/spsa-bad.csv" --spec-out "$out/spsa-bad.spec"
from_bad=$(cat "$out/spsa-bad.spec")
# The second stage, from the first's values: `safety` matters little near
# its first-stage value, so its perturbation is ten times wider. Its result,
# with freeze_cost=800, fill_risk=6, plan_out=1 and open_wilds=0, is the heuristic's defaults.
run spsa-safety tune --agent "$(cat "$out/spsa-hand.spec")" --spsa "${perturb%safety=20}safety=200" --batches 4000 \
  --deals 250 --objective margin --seed 13 --threads 2 -o "$out/spsa-safety.csv" --spec-out "$out/spsa-safety.spec"
first=$(cat "$out/spsa-hand.spec")
second=$(cat "$out/spsa-safety.spec")

run h-random sim --side0 heuristic --side1 random --deals 20000 --seed 9 --threads 2
run b-random sim --side0 basic --side1 random --deals 20000 --seed 9 --threads 2
run h-basic sim --side0 heuristic --side1 basic --deals 20000 --seed 9 --threads 2
run h-basic-games sim --side0 heuristic --side1 basic --games 2000 --seed 9 --threads 2
run h-hand sim --side0 heuristic --side1 "$hand" --deals 20000 --seed 9 --threads 2
run h-first sim --side0 heuristic --side1 "$first" --deals 20000 --seed 9 --threads 2
run h-second sim --side0 heuristic --side1 "$second" --deals 20000 --seed 9 --threads 2
run first-hand sim --side0 "$first" --side1 "$hand" --deals 20000 --seed 9 --threads 2
run frombad-hand sim --side0 "$from_bad" --side1 "$hand" --deals 20000 --seed 9 --threads 2
run bad-hand sim --side0 "$bad" --side1 "$hand" --deals 20000 --seed 9 --threads 2
run greedy-random sim --side0 greedy --side1 random --deals 20000 --seed 9 --threads 2
run ismcts-h sim --side0 ismcts:iters=1000 --side1 heuristic --deals 500 --seed 9 --threads 2
run ismcts-b sim --side0 ismcts:iters=1000 --side1 basic --deals 500 --seed 9 --threads 2

# `fill_risk` (the pile weighed more when it would complete a canasta of
# the next player's side), which came after the tuning: its sweeps, as
# measured before `plan_out` (plan_out=0,open_wilds=-1 on every side).
deal='heuristic:out_danger=0,out_lead=0,reserve=8,safety=500'
p0='plan_out=0,open_wilds=-1'
run fill-random tune --agent "heuristic:$p0,fill_risk={0,2,4,6,8,12}" --vs random --deals 20000 --seed 9 --threads 2
run fill-deal-random tune --agent "$deal,$p0,fill_risk={0,2,4,6,8,12}" --vs random --deals 20000 --seed 9 --threads 2
run fill-heuristic tune --agent "heuristic:$p0,fill_risk={2,4,6,8,12,30}" --vs "heuristic:$p0,fill_risk=0" \
  --deals 20000 --seed 9 --threads 2
run fill-basic tune --agent "heuristic:$p0,fill_risk={0,6}" --vs basic --deals 20000 --seed 9 --threads 2
for profile in two-player spanish; do
  run "fill-$profile-heuristic" tune --agent "heuristic:$p0,fill_risk={6}" --vs "heuristic:$p0,fill_risk=0" \
    --deals 10000 --seed 9 --threads 2 --profile $profile
  run "fill-$profile-random" tune --agent "heuristic:$p0,fill_risk={0,6}" --vs random --deals 10000 --seed 9 \
    --threads 2 --profile $profile
done

# `plan_out` (going out with several melds, wild cards included), which came
# after `fill_risk`: against itself without it, random play and basic, with
# the defaults and playing for the deal, as measured before `open_wilds`
# (open_wilds=-1 on every side).
w='open_wilds=-1'
run plan-heuristic sim --side0 "heuristic:$w" --side1 "heuristic:plan_out=0,$w" --deals 20000 --seed 9 --threads 2
for seed in 9 10; do
  run "plan-random-$seed" tune --agent "heuristic:$w,plan_out={0,1}" --vs random --deals 20000 --seed $seed --threads 2
  run "plan-deal-random-$seed" tune --agent "$deal,$w,plan_out={0,1}" --vs random --deals 20000 --seed $seed \
    --threads 2
done
run plan-basic tune --agent "heuristic:$w,plan_out={0,1}" --vs basic --deals 20000 --seed 9 --threads 2
run plan-deal-heuristic sim --side0 "$deal,$w" --side1 "heuristic:$w" --deals 20000 --seed 9 --threads 2
for profile in two-player spanish; do
  run "plan-$profile-heuristic" sim --side0 "heuristic:$w" --side1 "heuristic:plan_out=0,$w" --deals 10000 --seed 9 \
    --threads 2 --profile $profile
done

# `open_wilds` (no wild card held back while the side opens), which came
# after `plan_out`: against itself before it (open_wilds=-1: as many held
# back as keep_wilds), random play and basic, with the defaults and playing
# for the deal.
for seed in 9 10; do
  run "open-heuristic-$seed" tune --agent 'heuristic:open_wilds={0,1}' --vs "heuristic:$w" --deals 20000 --seed $seed \
    --threads 2
  run "open-random-$seed" tune --agent 'heuristic:open_wilds={-1,0,1}' --vs random --deals 20000 --seed $seed --threads 2
  run "open-deal-random-$seed" tune --agent "$deal,open_wilds={-1,0}" --vs random --deals 20000 --seed $seed --threads 2
done
run open-basic tune --agent 'heuristic:open_wilds={-1,0}' --vs basic --deals 20000 --seed 9 --threads 2
run open-deal-heuristic sim --side0 "$deal" --side1 heuristic --deals 20000 --seed 9 --threads 2
for profile in two-player spanish; do
  run "open-$profile-heuristic" tune --agent 'heuristic:open_wilds={0}' --vs "heuristic:$w" --deals 10000 --seed 9 \
    --threads 2 --profile $profile
done

if can_plot; then
  /usr/bin/python3 scripts/plot_spsa.py "$out/spsa-hand.csv" "$out/spsa.png" --other "$out/spsa-bad.csv" \
    --labels "from the hand-set values" "from bad values" --title "SPSA on the heuristic (self-play, margin)"
fi
echo "players.sh: done, outputs in $out"
