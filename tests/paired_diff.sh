#!/usr/bin/env bash
# scripts/paired_diff.py: a run against itself differs by exactly nothing;
# its share of deals won for the agent is the one `canasta sim` reports; a
# shard pairs only the deals it has; a missing file or a file that is not a
# deals.csv is a one-line error and a non-zero exit; runs whose summary.json
# differ in the seed, the profile or the opponent, and a run without
# duplicate play, are refused with a one-line error and exit 2.
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
grep -q 'not a deals.csv' err.txt || fail "a summary as deals: $(cat err.txt)"

"$canasta" sim --side0 heuristic:take_min=8 --side1 basic --deals 300 --seed 6 --threads 2 --out d >/dev/null
"$canasta" sim --side0 heuristic:take_min=8 --side1 random --deals 300 --seed 5 --threads 2 --out e >/dev/null
"$canasta" sim --side0 heuristic:take_min=8 --side1 basic --deals 300 --seed 5 --threads 2 --no-duplicate --out f >/dev/null
"$canasta" sim --side0 heuristic:take_min=8 --side1 basic --deals 300 --seed 5 --threads 2 --profile two-player --out h >/dev/null
refused() {  # refused FILE_B WORDS: a one-line error naming WORDS, exit 2
  local rc=0
  python3 "$script" a/deals.csv "$1" >out.txt 2>err.txt || rc=$?
  [[ $rc == 2 ]] || fail "$1 against a/deals.csv: exit $rc, not 2: $(cat out.txt err.txt)"
  [[ $(wc -l <err.txt) == 1 ]] || fail "$1: not one line: $(cat err.txt)"
  grep -q -- "$2" err.txt || fail "$1: no '$2' in: $(cat err.txt)"
}
refused d/deals.csv 'differ in --seed (5 against 6)'
refused e/deals.csv 'differ in opponent --side1 (basic against random)'
refused f/deals.csv 'without duplicate play'
refused h/deals.csv 'differ in profile (classic against two-player)'
mkdir -p g && cp d/deals.csv g/  # without its summary.json the seed is not known: compared as before
python3 "$script" a/deals.csv g/deals.csv >ag.txt || fail "a run without its summary.json: $(cat ag.txt)"
grep -q '^300 deal pairs in both runs$' ag.txt || fail "a run without its summary.json: $(cat ag.txt)"
echo "paired_diff: ok"
