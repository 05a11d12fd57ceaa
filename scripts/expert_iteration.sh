#!/usr/bin/env bash
# Expert iteration on one profile, from nothing but the heuristic: a policy
# and a value model, made stronger round by round, with each stage's time.
#
#   bash scripts/expert_iteration.sh [PROFILE] [ROUNDS]    # default: classic 3
#
# Round 0: the heuristic plays itself; a policy learns its choices (canasta
# selfplay --policy, train --policy) and a value model the final margins
# (canasta selfplay, train --squash 300).
# Round k: the search with the policy and value model of round k-1 as its
# prior and evaluation plays itself; policy k learns the search's root visit
# distributions (from policy k-1), value k the margins of its games (from
# value k-1); then the search with the new pair plays the search with the
# old one in duplicate at the same iterations a decision (the same time a
# decision, give or take the pair's own cost), and policy k plays the
# heuristic alone.
# Taught rounds (TAUGHT=N, after those): policy k-1 plays the heuristic, and
# at a share of the decisions the search with policy k-1 as its prior
# teaches (canasta selfplay --teacher: its root visits in the positions the
# policy reaches, DAgger); policy k learns them from policy k-1, the value
# model stays the last one, and policy k plays the heuristic alone.
#
# Settings, by environment (defaults in brackets):
#   OUT=DIR          where everything goes [runs/expert-PROFILE]
#   THREADS=N        worker threads [0: all cores]
#   BC_DEALS=N       heuristic deals of round 0's policy targets [200000]
#   BC_SHARE=S       the share of their decisions kept [0.1]
#   VALUE_DEALS=N    heuristic deals of round 0's value samples [100000]
#   DEALS=N          the search's self-play deals a round [4000]
#   ITERS=N          its iterations a decision [2000]
#   SEARCH=SPEC      its other settings [scale=300,cutoff=40,rollout=heuristic,c=0.4,eval_seats=1,stop_share=0.3]
#   RATE=R           the learning rate of a round's policy, from the last one [0.0001]
#   HIDDEN=N         the policy's hidden units [128]
#   PAIRS=N          deal pairs of each round's match of searches [200]
#   POLICY_PAIRS=N   deal pairs of each policy's match against the heuristic [1000]
#   TAUGHT=N         taught rounds after the others [0]
#   TAUGHT_DEALS=N   deals of a taught round [6000]
#   TAUGHT_SHARE=S   the share of their decisions the search teaches [0.3]
#   TAUGHT_ITERS=N   the teaching search's iterations a decision [4000]
#
# OUT/round-K holds each round's samples, policy, value.model, the training
# printouts and the matches; OUT/rounds.csv a line a round (each stage's
# seconds, the policy's held-out agreement with its targets, its score
# against the heuristic, the new search's against the old); OUT/best names
# the round whose policy scored best against the heuristic. A stage whose
# file is there is not run again: stopped, the script goes on where it was.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-classic}
rounds=${2:-3}
whole ROUNDS "$rounds" 0
canasta=${CANASTA:-build/sim/cli/canasta}
[[ -x $canasta ]] || { echo "expert_iteration.sh: $canasta is missing (bash scripts/build.sh)" >&2; exit 2; }
"$canasta" deal --profile "$profile" >/dev/null || exit 2  # the program says what is wrong with it
out=${OUT:-runs/expert-$profile}
threads=${THREADS:-0}
bc_deals=${BC_DEALS:-200000}
bc_share=${BC_SHARE:-0.1}
value_deals=${VALUE_DEALS:-100000}
deals=${DEALS:-4000}
iters=${ITERS:-2000}
search=${SEARCH:-scale=300,cutoff=40,rollout=heuristic,c=0.4,eval_seats=1,stop_share=0.3}
rate=${RATE:-0.0001}
hidden=${HIDDEN:-128}
pairs=${PAIRS:-200}
policy_pairs=${POLICY_PAIRS:-1000}
taught=${TAUGHT:-0}
taught_deals=${TAUGHT_DEALS:-6000}
taught_share=${TAUGHT_SHARE:-0.3}
taught_iters=${TAUGHT_ITERS:-4000}
for v in THREADS:$threads:0 BC_DEALS:$bc_deals VALUE_DEALS:$value_deals DEALS:$deals ITERS:$iters \
  HIDDEN:$hidden PAIRS:$pairs POLICY_PAIRS:$policy_pairs TAUGHT:$taught:0 TAUGHT_DEALS:$taught_deals \
  TAUGHT_ITERS:$taught_iters; do
  IFS=: read -r name value least <<<"$v"
  whole "$name" "$value" "${least:-1}"
done
mkdir -p "$out"
common=(--profile "$profile" --threads "$threads")

# stage NAME FILE COMMAND...: runs COMMAND (its printout to FILE.txt) unless
# FILE exists, and adds its seconds to the round's line.
stage() {
  local name=$1 file=$2
  shift 2
  if [[ ! -e $file ]]; then
    local start=$SECONDS
    echo "== $name"
    "$@" | tee "$file.txt.tmp"
    mv "$file.txt.tmp" "$file.txt"
    [[ -e $file ]] || echo "done" >"$file"
    echo "$name,$((SECONDS - start))" >>"$dir/seconds.csv"
  fi
}
# The search of a round's pair.
search_of() { echo "ismcts:iters=$iters,$search,prior=$1/policy,eval=$1/value.model"; }
# A match's Elo for side 0 (its summary.json).
elo_of() { /usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))
print("%.1f" % s["elo"]["mean"])' "$1/summary.json"; }
share_of() { /usr/bin/python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))
print("%.4f" % s["a_win_share"]["mean"])' "$1/summary.json"; }
agreement_of() { sed -n 's/.*most likely \([0-9.]*\)%.*/\1/p' "$1/policy.txt" | tail -1; }

[[ -e $out/rounds.csv ]] || echo "round,stage_seconds,policy_agreement,policy_vs_heuristic,search_vs_previous_elo" >"$out/rounds.csv"
for ((k = 0; k <= rounds + taught; k++)); do
  dir=$out/round-$k
  mkdir -p "$dir"
  : >>"$dir/seconds.csv"
  if ((k == 0)); then
    stage "round 0: the heuristic's choices" "$dir/samples.bin" \
      "$canasta" selfplay --policy --share "$bc_share" --deals "$bc_deals" --seed 100 "${common[@]}" --out "$dir/samples.bin"
    stage "round 0: a policy of them" "$dir/policy" \
      "$canasta" train --policy "$dir/samples.bin" --hidden "$hidden" --out "$dir/policy" --curve "$dir/policy-curve.csv"
    stage "round 0: value samples" "$dir/value.bin" \
      "$canasta" selfplay --deals "$value_deals" --seed 101 "${common[@]}" --out "$dir/value.bin"
    stage "round 0: a value model of them" "$dir/value.model" \
      "$canasta" train "$dir/value.bin" --squash 300 --out "$dir/value.model" --curve "$dir/value-curve.csv"
  elif ((k > rounds)); then
    prev=$out/round-$((k - 1))
    stage "round $k: the policy against the heuristic, taught by the search" "$dir/samples.bin" \
      "$canasta" selfplay --policy --share "$taught_share" --deals "$taught_deals" --seed $((100 + k)) \
      "${common[@]}" --side0 "policy:model=$prev/policy" --side1 heuristic \
      --teacher "ismcts:iters=$taught_iters,$search,prior=$prev/policy,eval=$prev/value.model" --out "$dir/samples.bin"
    stage "round $k: the policy on the search's advice" "$dir/policy" \
      "$canasta" train --policy "$dir/samples.bin" --init "$prev/policy" --rate "$rate" --out "$dir/policy" --curve "$dir/policy-curve.csv"
    [[ -e $dir/value.model ]] || cp "$prev/value.model" "$dir/value.model"
  else
    prev=$out/round-$((k - 1))
    stage "round $k: the search's self-play" "$dir/samples.bin" \
      "$canasta" selfplay --policy --share 1 --deals "$deals" --seed $((100 + k)) "${common[@]}" \
      --side0 "$(search_of "$prev")" --side1 "$(search_of "$prev")" --out "$dir/samples.bin"
    stage "round $k: the policy on the search's visits" "$dir/policy" \
      "$canasta" train --policy "$dir/samples.bin" --init "$prev/policy" --rate "$rate" --out "$dir/policy" --curve "$dir/policy-curve.csv"
    stage "round $k: the value model on its games" "$dir/value.model" \
      "$canasta" train "$dir/samples.bin" --init "$prev/value.model" --out "$dir/value.model" --curve "$dir/value-curve.csv"
    stage "round $k: the new search against the old" "$dir/match" \
      "$canasta" sim --side0 "$(search_of "$dir")" --side1 "$(search_of "$prev")" --deals "$pairs" --seed 7 \
      "${common[@]}" --rows none --out "$dir/match"
  fi
  stage "round $k: the policy against the heuristic" "$dir/policy-match" \
    "$canasta" sim --side0 "policy:model=$dir/policy" --side1 heuristic --deals "$policy_pairs" --seed 8 \
    "${common[@]}" --rows none --out "$dir/policy-match"
  if ! grep -q "^$k," "$out/rounds.csv"; then
    seconds=$(awk -F, '{ s += $2 } END { print s + 0 }' "$dir/seconds.csv")
    vs_previous=""
    ((k == 0 || k > rounds)) || vs_previous=$(elo_of "$dir/match")
    echo "$k,$seconds,$(agreement_of "$dir"),$(share_of "$dir/policy-match"),$vs_previous" >>"$out/rounds.csv"
  fi
done
# The best policy against the heuristic.
best=$(tail -n +2 "$out/rounds.csv" | sort -t, -k4,4 -g | tail -1 | cut -d, -f1)
echo "round-$best" >"$out/best"
echo "expert_iteration.sh: $out/rounds.csv; the best policy against the heuristic: $out/round-$best/policy"
column -s, -t "$out/rounds.csv"
