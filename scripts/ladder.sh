#!/usr/bin/env bash
# The strength ladder of the bench's players on one profile: a round robin in
# duplicate (canasta tournament), Bradley-Terry ratings anchored at random = 0
# with 95% intervals clustered by deal index, and each player's cost per deal;
# then scripts/ladder_report.py writes results/ladder.md (every profile run so
# far) and the plots. scripts/ladder_tournament.py reads the tournaments.
#
#   bash scripts/ladder.sh [PROFILE] [DEAL_PAIRS] [THREADS]    # default: classic 50 2
#
# OUT=DIR writes DIR/ladder/PROFILE and DIR/ladder.md instead of results/
# (to try the script without touching the bench's results). A profile's
# files are replaced only once its tournament and costs are complete.
# PLAYERS="random basic ..." replaces the players (random first: the anchor).
# NAME=N names the ladder (its folder DIR/ladder/N and its section of
# ladder.md) where it is not the profile's own: another set of players.
# The default set costs about 50 x DEAL_PAIRS seconds of one core on classic
# (the searches at 10,000 iterations are most of it). Stopped by a signal, it
# resumes where it stopped when run again with the same arguments.
# COSTS_ONLY=1 measures the costs again (on a quiet machine) and rewrites
# the report, the tournament as it is, once the matches between the cheaper
# players (CHECK_PLAYERS) played again give the tournament's figures.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
profile=${1:-classic}
pairs=${2:-50}
threads=${3:-2}
out=${OUT:-results}
canasta=${CANASTA:-build/sim/cli/canasta}
py=/usr/bin/python3
[[ -x $canasta ]] || { echo "ladder.sh: $canasta is missing (bash scripts/build.sh)" >&2; exit 2; }
whole DEAL_PAIRS "$pairs"
whole THREADS "$threads" 0  # 0: all cores
"$canasta" deal --profile "$profile" >/dev/null || exit 2  # the program says what is wrong with it
read -r -a players <<<"${PLAYERS:-random basic heuristic ismcts:iters=1000 ismcts:iters=10000 ismcts:iters=10000,scale=300,cutoff=80,rollout=heuristic}"
[[ ${players[0]} == random ]] || { echo "ladder.sh: the first player is the anchor, random" >&2; exit 2; }
name=${NAME:-$profile}
[[ $name =~ ^[a-z0-9][a-z0-9-]*$ ]] || { echo "ladder.sh: NAME is lower-case letters, digits and -, not '$name'" >&2; exit 2; }
dir=$out/ladder/$name
mkdir -p "$dir"
# Files are written under temporary names and put in place at the end; a
# failed start leaves nothing behind.
tidy() {
  rm -f "$dir"/*.tmp
  [[ -e $dir/tournament.run ]] || rm -f "$dir/tournament.run.txt"
  rmdir "$dir" 2>/dev/null || true
}
trap tidy EXIT
# The machine and the program, for the write-up (the costs' date with COSTS_ONLY).
[[ -n ${COSTS_ONLY:-} ]] || {
  echo "date: $(date -u +%Y-%m-%d)"
  echo "nproc: $(nproc)"
  echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "commit: $(git describe --always --dirty 2>/dev/null || echo unknown)"
  echo "command: ${NAME:+NAME=$NAME }${PLAYERS:+PLAYERS=\"$PLAYERS\" }bash scripts/ladder.sh $profile $pairs $threads"
} >"$dir/machine.txt.tmp"
if [[ -n ${COSTS_ONLY:-} ]]; then
  [[ -e $dir/tournament/tournament.json ]] || { echo "ladder.sh: no tournament in $dir yet" >&2; exit 2; }
  # The costs are measured with today's program, which must play the
  # tournament's games: the matches between its cheaper players
  # (CHECK_PLAYERS) are played again and must give the same figures.
  read -r -a check <<<"${CHECK_PLAYERS:-random basic heuristic ismcts:iters=1000}"
  # The tournament's settings and those players, in the tournament's order
  # (its matches put the earlier player first).
  args_text=$("$py" scripts/ladder_tournament.py replay-args "$dir/tournament/tournament.json" \
    ${CHECK_PLAYERS:+--strict} "${check[@]}")
  mapfile -t args <<<"$args_text"
  again=$(mktemp -d)
  trap 'rm -rf "$again"; tidy' EXIT
  "$canasta" tournament "${args[@]}" --threads "$threads" --out "$again/t" >/dev/null
  same=$("$py" scripts/ladder_tournament.py same-figures "$dir/tournament/tournament.json" "$again/t/tournament.json")
  echo "ladder.sh: $same"
  grep -v '^costs:' "$dir/machine.txt" >"$dir/machine.txt.tmp" || true
  echo "costs: $(date -u +%Y-%m-%d), \`nproc\` $(nproc), $(lscpu | sed -n 's/^Model name: *//p' | head -1), commit $(git describe --always --dirty 2>/dev/null || echo unknown), \`${NAME:+NAME=$NAME }COSTS_ONLY=1 bash scripts/ladder.sh $profile\`" >>"$dir/machine.txt.tmp"
else
  # The tournament is played in tournament.run (its printout beside it) and
  # put in place at the end. One found there, stopped by a signal or
  # complete, is resumed or used, when it is the one these arguments ask for.
  run=$dir/tournament.run
  if [[ -e $run/run.json ]]; then
    "$py" scripts/ladder_tournament.py check-settings "$run" "$pairs" "$profile" "${players[@]}" || exit 2
    if grep -q '"status":"partial"' "$run/run.json"; then
      "$canasta" tournament --resume "$run" --threads "$threads" | tee "$run.txt"
    fi
  else
    "$canasta" tournament --agents "${players[@]}" --deals "$pairs" --seed 7 --profile "$profile" \
      --threads "$threads" --out "$run" | tee "$run.txt"
  fi
fi
# Cost: seconds of one core per deal with the player at every seat, from the
# run's own speed line (deals of self-play on one thread), for the players
# as the tournament names them.
agents_text=$("$py" scripts/ladder_tournament.py agents "${run:-$dir/tournament}/tournament.json")
mapfile -t players <<<"$agents_text"
echo "player,deals,seconds_per_deal" >"$dir/costs.csv.tmp"
for p in "${players[@]}"; do
  case $p in ismcts*) n=12 ;; *) n=40000 ;; esac
  rate=$("$canasta" sim --side0 "$p" --side1 "$p" --no-duplicate --deals "$n" --threads 1 --seed 7 \
    --profile "$profile" | sed -n 's/^ *speed *\([0-9.e+-]*\) deals\/s.*/\1/p')
  echo "\"$p\",$n,$(awk -v r="$rate" 'BEGIN { printf "%.6g", 1 / r }')" >>"$dir/costs.csv.tmp"
done
if [[ -n ${run:-} ]]; then
  rm -rf "$dir/tournament"
  mv "$run" "$dir/tournament"
  mv "$run.txt" "$dir/tournament.txt"
fi
mv "$dir/costs.csv.tmp" "$dir/costs.csv"
mv "$dir/machine.txt.tmp" "$dir/machine.txt"
"$py" scripts/ladder_report.py "$out"
