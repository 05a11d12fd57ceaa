#!/usr/bin/env bash
# scripts/paired_diff.py: a run against itself differs by exactly nothing;
# its share of deals won for the agent is the one `canasta sim` reports; a
# shard pairs only the deals it has; a missing file or a file that is not a
# deals.csv is a one-line error and a non-zero exit.
#   bash paired_diff.sh CANASTA SCRIPTS_DIR WORK_DIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
script=$(realpath "$2")/paired_diff.py
setup "$1" "$3"
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }
"$canasta" sim --side0 heuristic --side1 basic --deals 300 --seed 5 --threads 2 --out a >a.txt
"$canasta" sim --side0 heuristic:take_min=8 --side1 basic --deals 300 --seed 5 --threads 2 --out b >/dev/null
"$canasta" sim --side0 heuristic:take_min=8 --side1 basic --deals 300 --seed 5 --threads 2 --shard 1/3 --out c >/dev/null

python3 "$script" a/deals.csv a/deals.csv >same.txt
grep -q '^300 deal pairs in both runs$' same.txt || fail "pairs of a run with itself: $(cat same.txt)"
grep -q 'A - B +0.00% \[+0.00, +0.00\]' same.txt || fail "a run differs from itself: $(cat same.txt)"

python3 "$script" a/deals.csv b/deals.csv >ab.txt
reported=$(sed -n "s/.*A's score \([0-9.]*\)%.*/\1/p" a.txt)
grep -q "^deals won *A ${reported}% " ab.txt || fail "share won is not sim's ${reported}%: $(cat ab.txt)"
grep -q 'A - B +0.00% \[+0.00, +0.00\]' ab.txt && fail "two different agents do not differ: $(cat ab.txt)"

python3 "$script" a/deals.csv c/deals.csv >ac.txt
grep -q '^100 deal pairs in both runs$' ac.txt || fail "a shard of a third: $(cat ac.txt)"

if python3 "$script" a/deals.csv missing.csv 2>err.txt; then fail "a missing file passed"; fi
grep -q 'cannot read missing.csv' err.txt || fail "missing file: $(cat err.txt)"
if python3 "$script" a/deals.csv a/summary.json 2>err.txt; then fail "a summary passed as deals"; fi
[[ $(wc -l <err.txt) == 1 ]] || fail "not one line: $(cat err.txt)"
echo "paired_diff: ok"
