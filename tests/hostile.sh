#!/usr/bin/env bash
# Records from strangers (tests/hostile/, made by make_corpus.py): markup,
# scripts, terminal controls, very long strings and odd Unicode in every
# string field of a record. `replay`, `show` and `show --html` refuse each
# with exit code 2 and one line on stderr that holds no control character
# and nothing that moves or hides text; no page is written. Records the
# program writes with long agent specs are read as before. QUICK (the
# sanitizer builds): `replay` and `show --html` only, the same reader.
#   bash hostile.sh CANASTA CORPUS_DIR WORK_DIR [quick]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
corpus=$(realpath "$2")
setup "$1" "$3"
quick=${4:-}
which="replay, show, show --no-color and show --html"
[[ -z $quick ]] || which="replay and show --html"
# C0 controls but tab, DEL, C1 controls (UTF-8 C2 80..9F), bidi controls and
# zero-width characters (E2 80 8B..8F, E2 80 A8..AE, E2 81 A0..AF), BOM.
unsafe() { LC_ALL=C grep -qP '[\x00-\x08\x0a-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\x8b-\x8f\xa8-\xae]|\xe2\x81[\xa0-\xaf]|\xef\xbb\xbf' "$1"; }
n=0
for f in "$corpus"/*.jsonl; do
  name=$(basename "$f")
  cmds=("replay $f" "show $f" "show $f --no-color" "show $f --html $name.html")
  [[ -z $quick ]] || cmds=("replay $f" "show $f --html $name.html")
  for cmd in "${cmds[@]}"; do
    rc=0
    # shellcheck disable=SC2086
    "$canasta" $cmd >out.txt 2>err.txt || rc=$?
    [[ $rc == 2 ]] || fail "canasta $cmd: exit code $rc, not 2"
    [[ $(wc -l <err.txt) == 1 ]] || fail "canasta $cmd: the error is not one line: $(head -c 300 err.txt)"
    [[ ! -s out.txt ]] || fail "canasta $cmd printed: $(head -c 300 out.txt)"
    if unsafe err.txt; then fail "canasta $cmd: the error holds control characters: $(cat -v err.txt)"; fi
    [[ ! -e $name.html ]] || fail "canasta $cmd wrote a page"
  done
  ((++n))
done
((n >= 40)) || fail "only $n hostile records in $corpus"
# What the program writes is read: the longest specs of its agents, in a
# game and in a simulation's records.
all=heuristic:take_min=100,take_value=2000,take_wild=100,meld_min=8,open_lean=0,keep_wilds=12,open_wilds=12
all+=,canasta_wilds=0,jokers_first=0,dump_hand=30,out_lead=-10000,out_danger=30,reserve=30,extend=162,safety=5000
all+=,fill_risk=100,freeze=100,freeze_value=2000,freeze_behind=-10000,freeze_hand=30,freeze_guard=0
all+=,freeze_cost=100000,plan_out=0,ask=1,wild_meld=18,clean=0
search=ismcts:iters=3,c=0.125,rollout=heuristic,cutoff=7,hand_weight=0.3,reward=win,scale=1.5,prior=1,meld_share=0.01,infer=1e-05
"$canasta" play --seed 3 --side0 "$all" --side1 "$search" --record long.jsonl >/dev/null
"$canasta" sim --deals 4 --side0 "$all" --side1 "$search" --record long-sim.jsonl >/dev/null
grep -q 'take_min=100' long.jsonl || fail "the record lacks the long spec"
"$canasta" replay long.jsonl long-sim.jsonl | grep -q "all legal" || fail "records with long agent specs do not replay"
"$canasta" show long.jsonl --html long.html >/dev/null || fail "a record with long agent specs does not show"
echo "hostile: $n hostile records refused by $which; long specs read"
