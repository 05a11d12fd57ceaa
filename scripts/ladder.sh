#!/usr/bin/env bash
# The strength ladder of the bench's players on one profile: a round robin in
# duplicate (canasta tournament), Bradley-Terry ratings anchored at random = 0
# with 95% intervals clustered by deal index, and each player's cost per deal;
# then scripts/ladder_report.py writes results/ladder.md (every profile run so
# far) and the plots.
#
#   bash scripts/ladder.sh [PROFILE] [DEAL_PAIRS] [THREADS]    # default: classic 50 2
#
# OUT=DIR writes DIR/ladder/PROFILE and DIR/ladder.md instead of results/
# (to try the script without touching the bench's results). A profile's
# files are replaced only once its tournament and costs are complete.
# PLAYERS="random basic ..." replaces the players (random first: the anchor).
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
[[ -x $canasta ]] || { echo "ladder.sh: $canasta is missing (bash scripts/build.sh)" >&2; exit 2; }
whole DEAL_PAIRS "$pairs"
whole THREADS "$threads" 0  # 0: all cores
"$canasta" deal --profile "$profile" >/dev/null || exit 2  # the program says what is wrong with it
read -r -a players <<<"${PLAYERS:-random basic heuristic ismcts:iters=1000 ismcts:iters=10000 ismcts:iters=10000,scale=300,cutoff=80,rollout=heuristic}"
[[ ${players[0]} == random ]] || { echo "ladder.sh: the first player is the anchor, random" >&2; exit 2; }
dir=$out/ladder/$profile
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
  echo "command: bash scripts/ladder.sh $profile $pairs $threads"
} >"$dir/machine.txt.tmp"
if [[ -n ${COSTS_ONLY:-} ]]; then
  [[ -e $dir/tournament/tournament.json ]] || { echo "ladder.sh: no tournament in $dir yet" >&2; exit 2; }
  # The costs are measured with today's program, which must play the
  # tournament's games: the matches between its cheaper players
  # (CHECK_PLAYERS) are played again and must give the same figures.
  read -r -a check <<<"${CHECK_PLAYERS:-random basic heuristic ismcts:iters=1000}"
  # The tournament's settings and those players, in the tournament's order
  # (its matches put the earlier player first).
  args_text=$(/usr/bin/python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
strict, wanted = sys.argv[2] == "1", sys.argv[3:]
unknown = [a for a in wanted if a not in t["agents"]]
if strict and unknown:
    sys.exit("ladder.sh: CHECK_PLAYERS: %s not among the tournament'"'"'s players (%s)" % (", ".join(unknown), " ".join(t["agents"])))
have = [a for a in t["agents"] if a in wanted]
if len(have) < 2:
    sys.exit("ladder.sh: fewer than two of the players to check (%s) are in the tournament" % " ".join(wanted))
print("\n".join(["--deals", str(t["deals"]), "--seed", str(t["seed"]), "--profile", t["profile"], "--agents"] + have))' \
    "$dir/tournament/tournament.json" "$([[ -n ${CHECK_PLAYERS:-} ]] && echo 1 || echo 0)" "${check[@]}")
  mapfile -t args <<<"$args_text"
  again=$(mktemp -d)
  trap 'rm -rf "$again"; tidy' EXIT
  "$canasta" tournament "${args[@]}" --threads "$threads" --out "$again/t" >/dev/null
  /usr/bin/python3 -c '
import json, sys
old, new = (json.load(open(p)) for p in sys.argv[1:3])
def matches(t):
    return {(t["agents"][m["a"]], t["agents"][m["b"]]): (m["margin"], m["share"]) for m in t["matches"]}
o, n = matches(old), matches(new)
bad = [k for k in n if o.get(k) != n[k]]
if bad or not n:
    sys.exit("ladder.sh: this program does not play the tournament'"'"'s games (%s); play it again" %
             ", ".join("%s against %s" % k for k in bad) if bad else "ladder.sh: no match to check")
print("ladder.sh: %d match%s played again, the same figures" % (len(n), "" if len(n) == 1 else "es"))' \
    "$dir/tournament/tournament.json" "$again/t/tournament.json"
  grep -v '^costs:' "$dir/machine.txt" >"$dir/machine.txt.tmp" || true
  echo "costs: $(date -u +%Y-%m-%d), \`nproc\` $(nproc), $(lscpu | sed -n 's/^Model name: *//p' | head -1), commit $(git describe --always --dirty 2>/dev/null || echo unknown), \`COSTS_ONLY=1 bash scripts/ladder.sh $profile\`" >>"$dir/machine.txt.tmp"
else
  # The tournament is played in tournament.run (its printout beside it) and
  # put in place at the end. One found there, stopped by a signal or
  # complete, is resumed or used, when it is the one these arguments ask for.
  run=$dir/tournament.run
  if [[ -e $run/run.json ]]; then
    /usr/bin/python3 -c '
import json, sys
t = json.load(open(sys.argv[1] + "/tournament.json"))
if (t["agents"], t["deals"], t["profile"]) != (sys.argv[4:], int(sys.argv[2]), sys.argv[3]):
    sys.exit("ladder.sh: %s holds a tournament of other settings (%s, %d deal pairs, %s): "
             "run the script with those to finish it, or remove that folder" %
             (sys.argv[1], " ".join(t["agents"]), t["deals"], t["profile"]))' \
      "$run" "$pairs" "$profile" "${players[@]}" || exit 2
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
mapfile -t players < <(/usr/bin/python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["agents"]))' \
  "${run:-$dir/tournament}/tournament.json")
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
/usr/bin/python3 scripts/ladder_report.py "$out"
