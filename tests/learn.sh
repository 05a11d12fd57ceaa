#!/usr/bin/env bash
# canasta selfplay and canasta train from the command line: the same files
# at 1 and 2 threads and from the same seed; bad files and bad models
# refused with one line and exit 2; a search scoring its cut-offs with a
# model plays the same deals twice; policy targets and policies likewise;
# scripts/expert_iteration.sh runs two rounds from nothing and resumes.
set -euo pipefail
canasta=$1
work=$2
src=$(cd "$(dirname "$0")/.." && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
refused() {  # refused "what it should say" command...
  local expect=$1; shift
  if "$@" > out.txt 2> err.txt; then fail "accepted: $*"; fi
  local rc=0; "$@" > /dev/null 2>&1 || rc=$?
  [ "$rc" = 2 ] || fail "exit $rc, not 2: $*"
  [ "$(wc -l < err.txt)" = 1 ] || fail "not one line: $(cat err.txt)"
  grep -q -- "$expect" err.txt || fail "'$expect' not in: $(cat err.txt)"
}

"$canasta" selfplay --side0 heuristic --side1 basic --deals 300 --per-deal 3 --threads 1 --out one.bin > /dev/null
"$canasta" selfplay --side0 heuristic --side1 basic --deals 300 --per-deal 3 --threads 2 --out two.bin > log.txt
cmp one.bin two.bin || fail "selfplay differs between 1 and 2 threads"
grep -q "samples      1800 of 322 features" log.txt || fail "$(cat log.txt)"
[ ! -e two.bin.tmp ] || fail "temporary file left"

"$canasta" train one.bin --hidden 8 --epochs 2 --out a.model --curve curve.csv > log.txt
"$canasta" train one.bin --hidden 8 --epochs 2 --out b.model > /dev/null
cmp a.model b.model || fail "training is not reproducible"
grep -q "R2 " log.txt && grep -q "the table's margin as it stands" log.txt || fail "$(cat log.txt)"
[ "$(head -1 curve.csv)" = "epoch,train_loss,held_loss,held_r2,seconds" ] || fail "curve: $(cat curve.csv)"
"$canasta" train one.bin --linear --out linear.model > /dev/null
# The squashed margin: said, kept in the file, calibrated in [-1, 1].
"$canasta" train one.bin --hidden 8 --epochs 2 --squash 300 --out s.model --calibration s.csv > log.txt
grep -q "tanh(margin / 300)" log.txt && grep -q "as it stands (squashed)" log.txt || fail "$(cat log.txt)"
cmp -s a.model s.model && fail "the squash changed nothing"
awk -F, 'NR > 1 && ($4 < -1 || $4 > 1) { bad = 1 } END { exit bad }' s.csv ||
  fail "squashed finals outside [-1, 1]: $(cat s.csv)"
refused "excludes" "$canasta" train one.bin --init a.model --squash 300 --out x.model
refused "squash" "$canasta" train one.bin --squash 0 --out x.model

head -c 100 one.bin > short.bin
refused "should hold" "$canasta" train short.bin --out x.model
refused "is not a sample file" "$canasta" train curve.csv --out x.model
refused "cannot read" "$canasta" train missing.bin --out x.model
mkdir -p folder
refused "'folder' is a folder, not a sample file" "$canasta" train folder --out x.model
refused "'folder' is a folder, not a value model file" "$canasta" sim --side0 "ismcts:eval=folder" --deals 2
refused "hidden" "$canasta" train one.bin --hidden 8,x --out x.model
head -c 60 a.model > short.model
refused "is truncated" "$canasta" sim --side0 "ismcts:iters=20,eval=short.model" --deals 2
refused "is not a value model file" "$canasta" sim --side0 "ismcts:iters=20,eval=curve.csv" --deals 2
refused "trained on profile classic" "$canasta" sim --profile two-player --side0 "ismcts:iters=20,eval=a.model" --deals 2
refused "other characters" "$canasta" sim --side0 "ismcts:eval=$(printf 'a\tb')" --deals 2
refused "other characters" "$canasta" sim --side0 "ismcts:eval=$(printf 'm\u202e.bin')" --deals 2

refused "is truncated" "$canasta" sim --side0 "value:eval=short.model" --deals 2
# A NaN in a sample (the last one's margin) or in a model (its last bias):
# refused, where it would train a model of NaNs or stall a search.
/usr/bin/python3 - one.bin nan.bin a.model nan.model <<'PY'
import struct, sys
for src, dst, back in ((sys.argv[1], sys.argv[2], 12 + 4 * 322 - 8), (sys.argv[3], sys.argv[4], 4)):
    b = bytearray(open(src, "rb").read())
    b[len(b) - back:len(b) - back + 4] = struct.pack("<f", float("nan"))
    open(dst, "wb").write(bytes(b))
PY
refused "sample 1799 (deal 299) holds a number that is not finite" "$canasta" train nan.bin --out x.model
refused "holds a number that is not finite" "$canasta" sim --side0 "ismcts:iters=20,eval=nan.model" --deals 2
refused "holds a number that is not finite" "$canasta" sim --side0 "value:eval=nan.model" --deals 2
[ ! -e x.model ] || fail "a model written from a sample file refused"
for spec in "ismcts:iters=30,eval=a.model" "ismcts:iters=30,cutoff=0,eval=linear.model" "ismcts:iters=30,cutoff=5,eval=s.model" \
  "value:samples=3" "value:eval=a.model,samples=2" "value:eval=s.model,samples=2"; do
  "$canasta" sim --side0 "$spec" --side1 heuristic --deals 4 --threads 2 --out run1 > /dev/null
  "$canasta" sim --side0 "$spec" --side1 heuristic --deals 4 --threads 1 --out run2 > /dev/null
  cmp run1/deals.csv run2/deals.csv || fail "$spec plays differently on 1 and 2 threads"
  rm -rf run1 run2
done
# Policy targets and a policy: the same file at 1 and 2 threads, a search's
# visits and an agent's choices, training reproducible, the policy playing
# alone and as a search's prior, bad use refused.
search="ismcts:iters=30,rollout=random,cutoff=20"
"$canasta" selfplay --policy --side0 "$search" --side1 heuristic --deals 24 --share 0.5 --threads 1 --out p1.bin > /dev/null
"$canasta" selfplay --policy --side0 "$search" --side1 heuristic --deals 24 --share 0.5 --threads 2 --out p2.bin > log.txt
cmp p1.bin p2.bin || fail "policy targets differ between 1 and 2 threads"
grep -q "decisions kept" log.txt || fail "$(cat log.txt)"
"$canasta" train --policy p1.bin --holdout 0.3 --hidden 16 --epochs 3 --out a.policy --curve pcurve.csv > log.txt
"$canasta" train --policy p1.bin --holdout 0.3 --hidden 16 --epochs 3 --out b.policy > /dev/null
cmp a.policy b.policy || fail "policy training is not reproducible"
grep -q "most likely" log.txt || fail "$(cat log.txt)"
[ "$(head -1 pcurve.csv)" = "epoch,train_loss,held_loss,held_agreement,seconds" ] || fail "curve: $(cat pcurve.csv)"
"$canasta" train --policy p1.bin --holdout 0.3 --init a.policy --epochs 1 --out c.policy > /dev/null
# The action played as the target: another policy than the visits make (the
# search's visits are spread), measured against the action played.
"$canasta" train --policy p1.bin --holdout 0.3 --hidden 16 --epochs 3 --target played --out d.policy > log.txt
grep -q "the action played most likely" log.txt || fail "$(cat log.txt)"
cmp -s a.policy d.policy && fail "--target played trained the same policy as the visits"
"$canasta" train p1.bin --holdout 0.3 --hidden 8 --epochs 1 --out pv.model > /dev/null  # a value model of their margins
"$canasta" sim --side0 policy:model=a.policy --side1 random --deals 20 > /dev/null
"$canasta" sim --side0 "ismcts:iters=30,prior=a.policy,eval=pv.model" --side1 random --deals 2 > /dev/null
refused "not with --per-deal" "$canasta" selfplay --policy --per-deal 3 --deals 2 --out x.bin
refused "goes with --policy" "$canasta" selfplay --share 0.5 --deals 2 --out x.bin
"$canasta" selfplay --policy --side0 random --side1 heuristic --teacher heuristic --deals 10 --share 0.5 --out t.bin > log.txt
grep -q "random against heuristic, taught by heuristic" log.txt || fail "$(cat log.txt)"
refused "--teacher goes with --policy" "$canasta" selfplay --teacher heuristic --deals 2 --out x.bin
refused "one hidden layer" "$canasta" train --policy p1.bin --hidden 16,8 --out x.policy
refused "for value models" "$canasta" train --policy p1.bin --squash 300 --out x.policy
refused "is for policies" "$canasta" train p1.bin --target played --out x.model
refused "target" "$canasta" train --policy p1.bin --target best --out x.policy
refused "not a policy sample file" "$canasta" train --policy one.bin --out x.policy
refused "not a policy file" "$canasta" sim --side0 policy:model=a.model --deals 2
refused "trained on profile classic" "$canasta" sim --profile two-player --side0 policy:model=a.policy --deals 2

# Expert iteration, tiny: round 0, round 1 and a taught round 2, each line
# of rounds.csv filled; run again, nothing is played again.
ei() {
  CANASTA=$canasta OUT=$work/ei THREADS=1 BC_DEALS=60 VALUE_DEALS=60 DEALS=30 ITERS=20 HIDDEN=8 PAIRS=3 \
    POLICY_PAIRS=6 TAUGHT=1 TAUGHT_DEALS=30 TAUGHT_ITERS=20 bash "$src/scripts/expert_iteration.sh" classic 1
}
ei > ei.txt 2>&1 || fail "expert_iteration.sh: $(tail -5 ei.txt)"
[ "$(wc -l < ei/rounds.csv)" = 4 ] || fail "rounds.csv: $(cat ei/rounds.csv)"
grep -Eq '^0,[0-9]+,[0-9.]+,0\.[0-9]{4},$' ei/rounds.csv || fail "round 0: $(cat ei/rounds.csv)"
grep -Eq '^1,[0-9]+,[0-9.]+,0\.[0-9]{4},-?[0-9.]+$' ei/rounds.csv || fail "round 1: $(cat ei/rounds.csv)"
grep -Eq '^2,[0-9]+,[0-9.]+,0\.[0-9]{4},$' ei/rounds.csv || fail "round 2: $(cat ei/rounds.csv)"
grep -q "taught by ismcts" ei/round-2/samples.bin.txt || fail "round 2: $(cat ei/round-2/samples.bin.txt)"
grep -Eq '^round-[012]$' ei/best || fail "best: $(cat ei/best)"
cp ei/rounds.csv rounds.before
ei > ei2.txt 2>&1 || fail "expert_iteration.sh again: $(tail -5 ei2.txt)"
cmp ei/rounds.csv rounds.before || fail "a second run changed rounds.csv"
if grep -q "^== " ei2.txt; then fail "a second run played a stage again: $(grep '^== ' ei2.txt)"; fi
echo "learn: ok"
