#!/usr/bin/env bash
# The Python helpers of scripts/ given bad input (tests/scripts_help.sh checks
# their --help): a missing or wrong file, a wrong argument, a missing or empty
# ladder, a three-side table for losses.py, bad arguments or agents for
# rating_coverage.py, players or settings a tournament lacks for
# ladder_tournament.py, are a one-line error (prefixed with the script's name)
# and exit 2, never a traceback; rating_coverage.py's table on a small case;
# the plots make their missing folders and take their format from the
# output's extension, and no temporary file is left behind. Needs no canasta
# Python module; the plots are skipped without matplotlib.
#   bash python_scripts.sh CANASTA SCRIPTS_DIR WORK_DIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
scripts=$(realpath "$2")
setup "$1" "$3"
py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3) || { echo "python3 missing: skipped"; exit 77; }

refused() {  # refused WORDS SCRIPT ARGS...: exit 2 and one line on stderr, with WORDS
  local words=$1 script=$2 rc=0
  shift 2
  "$py" "$scripts/$script" "$@" >out.txt 2>err.txt || rc=$?
  [[ $rc == 2 ]] || fail "$script $*: exit $rc, not 2: $(cat out.txt err.txt)"
  [[ $(wc -l <err.txt) == 1 ]] || fail "$script $*: not one line: $(cat err.txt)"
  grep -q "^${script%.py}: " err.txt || fail "$script $*: not prefixed: $(cat err.txt)"
  grep -q -- "$words" err.txt || fail "$script $*: no '$words' in: $(cat err.txt)"
}

"$canasta" sim --side0 heuristic --side1 random --deals 50 --seed 3 --threads 2 --out two >/dev/null
"$canasta" sim --side0 heuristic --side1 random --deals 10 --seed 3 --threads 2 --profile spanish-3p --out three >/dev/null
head -1 two/deals.csv >header.csv
: >empty.csv

refused 'not a deals.csv' losses.py two/summary.json
refused 'not a deals.csv' losses.py empty.csv
refused 'no rows (only its header)' losses.py header.csv
refused 'two sides only' losses.py three/deals.csv
"$py" "$scripts/losses.py" two/deals.csv >losses.txt || fail "losses: $(cat losses.txt)"
grep -q '^went out  *deals   A lost$' losses.txt || fail "losses: $(cat losses.txt)"

mkdir -p results/ladder
refused 'no folder nowhere/ladder' ladder_report.py nowhere
refused 'no ladder in results/ladder' ladder_report.py results
[[ ! -e results/ladder.md ]] || fail "ladder_report wrote ladder.md of no ladder"

refused 'two or more different agent specs' rating_coverage.py --agents heuristic heuristic
refused 'must be at least 2, not 1' rating_coverage.py --agents heuristic basic --tournaments 1
refused 'is one of the short tournaments' rating_coverage.py --agents heuristic basic --seed 5 --truth-seed 6
CANASTA=missing/canasta refused 'missing/canasta is not a program' rating_coverage.py --agents heuristic basic
CANASTA=$canasta refused "unknown agent 'nosuch'" rating_coverage.py --agents heuristic nosuch
CANASTA=$canasta "$py" "$scripts/rating_coverage.py" --agents heuristic basic random --pairs 10 --tournaments 3 \
  --truth-pairs 40 --csv cover.csv >cover.txt 2>err.txt || fail "rating_coverage: $(cat err.txt)"
grep -q '^| `basic` | ' cover.txt && grep -q '^| `random` | ' cover.txt || fail "rating_coverage: $(cat cover.txt)"
[[ $(wc -l <cover.csv) == 10 ]] || fail "rating_coverage --csv: $(cat cover.csv)"

"$canasta" tournament --agents random basic --deals 4 --seed 7 --out tour >/dev/null
refused 'cannot read missing.json' ladder_tournament.py agents missing.json
refused 'is not a tournament.json' ladder_tournament.py agents two/summary.json
refused 'invalid choice' ladder_tournament.py nosuch
refused "invalid int value: 'x'" ladder_tournament.py check-settings tour x classic random basic
refused "heuristic not among the tournament's players (random basic)" ladder_tournament.py replay-args \
  tour/tournament.json --strict heuristic random
refused 'fewer than two of the players to check (basic heuristic)' ladder_tournament.py replay-args \
  tour/tournament.json basic heuristic
refused 'holds a tournament of other settings (random basic, 4 deal pairs, classic)' ladder_tournament.py \
  check-settings tour 5 classic random basic
"$py" "$scripts/ladder_tournament.py" check-settings tour 4 classic random basic || fail "check-settings"
[[ $("$py" "$scripts/ladder_tournament.py" agents tour/tournament.json) == $'random\nbasic' ]] || fail "agents"
[[ $("$py" "$scripts/ladder_tournament.py" replay-args tour/tournament.json basic random | tr '\n' ' ') == \
  "--deals 4 --seed 7 --profile classic --agents random basic " ]] || fail "replay-args"
[[ $("$py" "$scripts/ladder_tournament.py" same-figures tour/tournament.json tour/tournament.json) == \
  "1 match played again, the same figures" ]] || fail "same-figures"

printf '#!/bin/sh\n' >bench && chmod +x bench  # a benchmark program that has no benchmarks
refused 'at least 2' compare_bench.py bench bench --repetitions 1
refused 'at least 1' compare_bench.py bench bench --rounds 0
refused 'missing/canasta_bench is not a program' compare_bench.py bench missing/canasta_bench
refused 'no benchmark of both builds matches' compare_bench.py bench bench --filter NOMATCH

refused 'python_speed: missing/canasta is not a program' python_speed.py missing/canasta
for a in "--deals 1" "--deals 0" "--hidden 0" "--games 0"; do
  rc=0
  "$py" "$scripts/learn_policy.py" $a >/dev/null 2>err.txt || rc=$?
  [[ $rc == 2 ]] && grep -q 'learn_policy.py: error: --' err.txt || fail "learn_policy $a: exit $rc: $(cat err.txt)"
done

if "$py" -c 'import matplotlib' 2>/dev/null; then
  "$canasta" tune --agent 'heuristic:freeze={0..8..4}' --vs random --deals 10 --threads 2 --out sweep.csv >/dev/null
  "$canasta" tune --agent 'heuristic:take_min=3' --spsa take_min=1 --batches 4 --deals 4 --threads 2 --out traj.csv >/dev/null
  "$canasta" selfplay --deals 100 --threads 2 --out samples.bin >/dev/null
  "$canasta" train samples.bin --out model.bin --epochs 2 --hidden 8 --curve curve.csv --calibration cal.csv >/dev/null
  refused 'cannot read missing.csv' plot_learned.py missing.csv cal.csv out.png
  refused "no column 'epoch'" plot_learned.py cal.csv curve.csv out.png
  refused 'no .txt images' plot_sweep.py sweep.csv out.txt
  "$py" "$scripts/plot_learned.py" curve.csv cal.csv new/learned/out.png || fail "plot_learned into a new folder"
  "$py" "$scripts/plot_sweep.py" sweep.csv new/sweep/out.pdf || fail "plot_sweep into a new folder"
  "$py" "$scripts/plot_spsa.py" traj.csv new/spsa/out.png || fail "plot_spsa into a new folder"
  [[ $(head -c 4 new/sweep/out.pdf) == %PDF ]] || fail "plot_sweep's out.pdf is not a PDF"
  for f in new/learned/out.png new/spsa/out.png; do
    [[ $(head -c 4 "$f" | tail -c 3) == PNG ]] || fail "$f is not a PNG"
  done
  ! ls new/*/*tmp* 2>/dev/null || fail "a temporary file is left"
fi
echo "python_scripts: ok"
