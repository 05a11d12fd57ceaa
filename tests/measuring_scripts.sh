#!/usr/bin/env bash
# The guards of two measuring scripts. scripts/ladder.sh measures the costs
# again (COSTS_ONLY=1) only with a program that plays the tournament's
# games, refuses players to check that the tournament lacks, leaves the
# files as they were when its tournament cannot start, and resumes a
# stopped tournament only under its own settings;
# scripts/scaling.sh with CEILING=1 fills its side-by-side columns and stops
# the table with an error when a side-by-side run fails or prints no speed.
#   bash measuring_scripts.sh SOURCE_DIR CANASTA WORK_DIR
set -euo pipefail
src=$1 canasta=$(realpath "$2") work=$3
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
rm -rf "$work"
mkdir -p "$work/scripts" "$work/results/ladder/classic"
cp "$src/scripts/args.sh" "$src/scripts/ladder.sh" "$src/scripts/ladder_report.py" \
  "$src/scripts/ladder_tournament.py" "$src/scripts/script_io.py" "$src/scripts/scaling.sh" "$work/scripts/"

# ladder.sh: a small tournament, then its costs measured again.
dir=$work/results/ladder/classic
"$canasta" tournament --agents random basic --deals 6 --seed 7 --out "$dir/tournament" >/dev/null
printf 'date: 2026-01-01\nnproc: 1\ncpu: test\ncommit: test\ncommand: test\n' >"$dir/machine.txt"
CANASTA=$canasta COSTS_ONLY=1 bash "$work/scripts/ladder.sh" classic 6 1 >"$work/out" 2>&1 ||
  fail "COSTS_ONLY on the tournament's own program: $(cat "$work/out")"
grep -q "1 match played again, the same figures" "$work/out" || fail "no check reported: $(cat "$work/out")"
[[ $(grep -c '^"\(random\|basic\)",40000,' "$dir/costs.csv") == 2 ]] || fail "costs.csv: $(cat "$dir/costs.csv")"
[[ $(grep -c '^costs: ' "$dir/machine.txt") == 1 ]] || fail "machine.txt: $(cat "$dir/machine.txt")"
# shellcheck disable=SC2016
grep -qF '| `basic` | ' "$work/results/ladder.md" || fail "ladder.md has no row for basic"
# Players to check in another order than the tournament's: the same matches.
CHECK_PLAYERS="basic random" CANASTA=$canasta COSTS_ONLY=1 bash "$work/scripts/ladder.sh" classic 6 1 \
  >"$work/out" 2>&1 || fail "CHECK_PLAYERS in another order: $(cat "$work/out")"
# A player the tournament lacks, or a single one: refused.
for players in "random heuristic" "basic"; do
  if CHECK_PLAYERS=$players CANASTA=$canasta COSTS_ONLY=1 bash "$work/scripts/ladder.sh" classic 6 1 \
    >"$work/out" 2>&1; then
    fail "CHECK_PLAYERS='$players' accepted"
  fi
  [[ $(wc -l <"$work/out") == 1 ]] || fail "CHECK_PLAYERS='$players': not one line: $(cat "$work/out")"
  grep -q "^ladder_tournament: " "$work/out" || fail "CHECK_PLAYERS='$players': no reason: $(cat "$work/out")"
done
# A tournament whose figures this program does not give: refused, costs untouched.
cp "$dir/costs.csv" "$work/costs.before"
/usr/bin/python3 - "$dir/tournament/tournament.json" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
t["matches"][0]["margin"]["mean"] += 1
json.dump(t, open(sys.argv[1], "w"))
PY
if CANASTA=$canasta COSTS_ONLY=1 bash "$work/scripts/ladder.sh" classic 6 1 >"$work/out" 2>&1; then
  fail "a tournament this program does not reproduce was accepted"
fi
grep -q "does not play the tournament's games (random against basic)" "$work/out" ||
  fail "no reason given: $(cat "$work/out")"
cmp -s "$dir/costs.csv" "$work/costs.before" || fail "costs.csv rewritten after a refused check"
# A tournament that cannot start (a player unknown) leaves the profile's files as they were.
cp -r "$dir" "$work/before"
if PLAYERS="random nosuch" CANASTA=$canasta bash "$work/scripts/ladder.sh" classic 6 1 >"$work/out" 2>&1; then
  fail "an unknown player accepted"
fi
diff -r "$work/before" "$dir" >/dev/null || fail "a tournament that did not start changed $dir"
# A stopped tournament of other settings is not resumed under these.
cp -r "$dir/tournament" "$dir/tournament.run"
sed -i 's/"status":"complete"/"status":"partial"/' "$dir/tournament.run/run.json"
if PLAYERS="random heuristic" CANASTA=$canasta bash "$work/scripts/ladder.sh" classic 6 1 >"$work/out" 2>&1; then
  fail "a stopped tournament of other players resumed"
fi
grep -q "holds a tournament of other settings (random basic, 6 deal pairs, classic)" "$work/out" ||
  fail "no reason given: $(cat "$work/out")"
rm -rf "$dir/tournament.run"
# NAME: another set of players on the same profile, its own folder and
# section beside the profile's, the command that made it written down.
PLAYERS="random heuristic" NAME=classic-two CANASTA=$canasta bash "$work/scripts/ladder.sh" classic 2 1 >"$work/out" 2>&1 ||
  fail "NAME=classic-two: $(cat "$work/out")"
grep -qF 'command: NAME=classic-two PLAYERS="random heuristic" bash scripts/ladder.sh classic 2 1' \
  "$work/results/ladder/classic-two/machine.txt" || fail "NAME: the command is not written down"
grep -q "^## classic-two$" "$work/results/ladder.md" && grep -q "^## classic$" "$work/results/ladder.md" ||
  fail "NAME: ladder.md lacks a section"
if NAME="../x" CANASTA=$canasta bash "$work/scripts/ladder.sh" classic 2 1 >"$work/out" 2>&1; then
  fail "NAME=../x accepted"
fi

# scaling.sh with CEILING=1, on a stand-in program: one thread 100 deals/s;
# at two threads 180 (90 a thread); each side-by-side shard 95.
cat >"$work/program" <<'EOF'
#!/usr/bin/env bash
threads=1 shard=""
while (($#)); do
  case $1 in
    --threads) threads=$2; shift ;;
    --shard) shard=$2; shift ;;
  esac
  shift
done
if [[ -n $shard ]]; then
  [[ -n ${SHARD_FAILS:-} ]] && exit 3
  [[ -n ${SHARD_SILENT:-} ]] && exit 0
  echo "  speed        95 deals/s on 1 thread"
elif ((threads == 1)); then
  echo "  speed        100 deals/s on 1 thread"
else
  echo "  speed        180 deals/s on 2 threads"
fi
EOF
chmod +x "$work/program"
CANASTA=$work/program CEILING=1 ROWS=random bash "$work/scripts/scaling.sh" 2 >"$work/out" ||
  fail "scaling.sh: $(cat "$work/out")"
grep -qF '| random | 1 | 100 | 100 | 1.00 | 1.00 | 1.00 |' "$work/out" || fail "one thread: $(cat "$work/out")"
grep -qF '| random | 2 | 180 | 90 | 0.90 | 0.95 | 0.95 |' "$work/out" || fail "two threads: $(cat "$work/out")"
CANASTA=$work/program ROWS=random bash "$work/scripts/scaling.sh" 2 >"$work/out" || fail "without CEILING"
grep -qF '| random | 2 | 180 | 90 | 0.90 |' "$work/out" || fail "without CEILING: $(cat "$work/out")"
if grep -q 'side by side' "$work/out"; then fail "side-by-side columns without CEILING"; fi
for broken in "SHARD_FAILS failed" "SHARD_SILENT printed no speed"; do
  if env "${broken%% *}=1" CANASTA="$work/program" CEILING=1 ROWS=random bash "$work/scripts/scaling.sh" 2 \
    >"$work/out" 2>"$work/err"; then
    fail "scaling.sh went on with ${broken%% *}"
  fi
  grep -qx "scaling.sh: a side-by-side run of 'random' ${broken#* }" "$work/err" ||
    fail "${broken%% *}: $(cat "$work/err")"
done
echo "measuring scripts: ok"
