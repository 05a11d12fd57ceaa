#!/usr/bin/env bash
# A fixed set of runs of the canasta program whose outputs must not change
# when the code is reorganised: simulation files (summary.json, deals.csv,
# games.csv), game records, tune tables and every subcommand's stdout (speed
# lines removed). Run it with two builds and compare the folders:
#
#   bash scripts/fixed_runs.sh OLD/canasta /tmp/old
#   bash scripts/fixed_runs.sh build/sim/cli/canasta /tmp/new
#   diff -r /tmp/old /tmp/new && echo identical
#
# Takes a few seconds on two cores. OUT_DIR is emptied first, so it must be
# new, empty or written by this script before (it holds .fixed_runs).
source "$(dirname "$0")/args.sh"
set -euo pipefail
if (($# != 2)); then
  echo "usage: $0 CANASTA_BINARY OUT_DIR" >&2
  exit 2
fi
if [[ ! -f $1 || ! -x $1 ]]; then
  echo "fixed_runs.sh: '$1' is not a program (the arguments are CANASTA_BINARY OUT_DIR)" >&2
  exit 2
fi
canasta=$(realpath "$1")
out=$2
# OUT_DIR is emptied first: only when it is new, empty or this script's own.
if [[ -e $out && ! -f $out/.fixed_runs ]] && [[ ! -d $out || -n $(ls -A "$out") ]]; then
  echo "fixed_runs.sh: '$out' is not a folder this script wrote (no .fixed_runs in it): choose a new one" >&2
  exit 2
fi
rm -rf "$out"
mkdir -p "$out"
cd "$out"
touch .fixed_runs

# Runs the program, keeping stdout without the lines that hold timings.
run() {
  local name=$1
  shift
  "$canasta" "$@" | grep -v -E '^ *speed|^ *files|^ *records|^ *table|^record:' >"$name.txt"
}

run deal deal --seed 3
run deal2 deal --seed 9 --deal 2 --profile two-player
run agents agents
run rules rules
for seed in 1 2 3; do
  run play$seed play --seed $seed --record play$seed.jsonl
done
run play_tp play --seed 4 --profile two-player,target=3000 --side0 heuristic --record play_tp.jsonl
run play_h play --seed 5 --side0 heuristic:freeze=6 --side1 random --record play_h.jsonl
run random sim --deals 20000 --threads 2 --out random
run hr sim --side0 heuristic --side1 random --deals 4000 --out hr --record hr.jsonl
run seats sim --side0 heuristic:freeze=6 --side1 heuristic --seat 2=random --deals 3000 --out seats
run tp sim --profile two-player --side0 heuristic --side1 random --deals 3000 --out tp
run games sim --side0 heuristic --side1 random --games 40 --out games --record games.jsonl
run sprt sim --side0 heuristic --side1 heuristic:keep_wilds=0 --deals 100000 --sprt 0,10 --out sprt
run ismcts sim --side0 ismcts:iters=60 --side1 heuristic:ask=1 --deals 24 --out ismcts --record ismcts.jsonl
# ISMCTS answering a random partner's "may I go out?": determinizations of the answer phase.
run answer sim --side0 ismcts:iters=40 --seat 2=random --side1 random --deals 16 --out answer --record answer.jsonl
for i in 0 1 2; do
  run shard$i sim --side0 heuristic --side1 random --deals 900 --shard $i/3 --out shard$i
done
run merge merge shard0 shard1 shard2 --out merged
run tune tune --agent 'heuristic:freeze={0..4..2}' --vs heuristic --deals 500 --out tune.csv
run tournament tournament --agents random heuristic heuristic:keep_wilds=0 --deals 300
run replay replay play1.jsonl play2.jsonl play3.jsonl play_tp.jsonl play_h.jsonl hr.jsonl games.jsonl \
  ismcts.jsonl answer.jsonl
# run.json records the command and the date: the one file of a run that differs by design.
find . -name run.json -delete
echo "fixed runs written to $out"
