#!/usr/bin/env bash
# The strength ladder of the bench's players on one profile: a round robin in
# duplicate (canasta tournament), Bradley-Terry ratings anchored at random = 0
# with 95% intervals over the deal pairs, and each player's cost per deal;
# then scripts/ladder_report.py writes results/ladder.md (every profile run so
# far) and the plots.
#
#   bash scripts/ladder.sh [PROFILE] [DEAL_PAIRS] [THREADS]    # default: classic 50 2
#
# PLAYERS="random basic ..." replaces the players (random first: the anchor).
# The default set costs about 50 x DEAL_PAIRS seconds of one core on classic
# (the searches at 10,000 iterations are most of it). Stopped by a signal, it
# resumes where it stopped when run again with the same arguments.
# COSTS_ONLY=1 measures the costs again (on a quiet machine) and rewrites
# the report, the tournament as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
profile=${1:-classic}
pairs=${2:-50}
threads=${3:-2}
canasta=${CANASTA:-build/sim/cli/canasta}
[[ -x $canasta ]] || { echo "ladder.sh: $canasta is missing (bash scripts/build.sh)" >&2; exit 2; }
read -r -a players <<<"${PLAYERS:-random basic heuristic ismcts:iters=1000 ismcts:iters=10000 ismcts:iters=10000,scale=300,cutoff=80,rollout=heuristic}"
[[ ${players[0]} == random ]] || { echo "ladder.sh: the first player is the anchor, random" >&2; exit 2; }
dir=results/ladder/$profile
mkdir -p "$dir"
# The machine and the program, for the write-up (the costs' date with COSTS_ONLY).
[[ -n ${COSTS_ONLY:-} ]] || {
  echo "date: $(date -u +%Y-%m-%d)"
  echo "nproc: $(nproc)"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "command: bash scripts/ladder.sh $profile $pairs $threads"
} >"$dir/machine.txt"
if [[ -n ${COSTS_ONLY:-} ]]; then
  [[ -e $dir/tournament/tournament.json ]] || { echo "ladder.sh: no tournament in $dir yet" >&2; exit 2; }
  grep -v '^costs:' "$dir/machine.txt" >"$dir/machine.tmp" || true
  echo "costs: $(date -u +%Y-%m-%d), nproc $(nproc)" >>"$dir/machine.tmp"
  mv "$dir/machine.tmp" "$dir/machine.txt"
elif grep -q '"status":"partial"' "$dir/tournament/run.json" 2>/dev/null; then
  "$canasta" tournament --resume "$dir/tournament" --threads "$threads" | tee "$dir/tournament.txt"
else
  "$canasta" tournament --agents "${players[@]}" --deals "$pairs" --seed 7 --profile "$profile" \
    --threads "$threads" --out "$dir/tournament" | tee "$dir/tournament.txt"
fi
# Cost: seconds of one core per deal with the player at every seat, from the
# run's own speed line (deals of self-play on one thread), for the players
# as the tournament names them.
mapfile -t players < <(/usr/bin/python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["agents"]))' \
  "$dir/tournament/tournament.json")
echo "player,deals,seconds_per_deal" >"$dir/costs.csv.tmp"
for p in "${players[@]}"; do
  case $p in ismcts*) n=4 ;; *) n=4000 ;; esac
  rate=$("$canasta" sim --side0 "$p" --side1 "$p" --no-duplicate --deals "$n" --threads 1 --seed 7 \
    --profile "$profile" | sed -n 's/^ *speed *\([0-9.e+-]*\) deals\/s.*/\1/p')
  echo "\"$p\",$n,$(awk -v r="$rate" 'BEGIN { printf "%.6g", 1 / r }')" >>"$dir/costs.csv.tmp"
done
mv "$dir/costs.csv.tmp" "$dir/costs.csv"
/usr/bin/python3 scripts/ladder_report.py results
