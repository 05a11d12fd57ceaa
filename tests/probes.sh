#!/bin/bash
# The probes of bench/probes, behind figures of results/players.md: they
# run, correct what they say they correct, and refuse bad input.
# Usage: probes.sh PROBE_DISCARD_ORACLE PROBE_FLAT_MC PROBE_LOST_DEALS PROBE_READ_HAND
set -u
oracle=$1
flat=$2
lost=$3
read_hand=$4
fail() {
  echo "probes: $*" >&2
  exit 1
}
share() { sed -n "s/.*$1 *\([0-9.]*\)%.*/\1/p"; }

out=$("$oracle" --deals 300 --seed 5) || fail "discard_oracle failed"
plays=$(echo "$out" | share "as it plays")
with=$(echo "$out" | share "with the oracle")
[ -n "$plays" ] && [ -n "$with" ] || fail "discard_oracle: no shares in: $out"
echo "$out" | grep -Eq "\(([1-9][0-9]*) discards changed" || fail "discard_oracle changed no discard in 300 deals"
[ "$(echo "$out" | grep -Ec '^ +[0-9.]+ +[0-9.]+ +[0-9]+$')" -ge 3 ] || fail "discard_oracle: no estimate table"
# The next player's takes by the safe discards held: four rows, no more takes than discards, some takes.
takes=$(echo "$out" | grep -E '^    [a-z].* +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$')
[ "$(echo "$takes" | wc -l)" -eq 4 ] || fail "discard_oracle: no table of the next player's takes: $out"
echo "$takes" | awk '{ n = NF; if ($(n-2) > $(n-3) || $n > $(n-1)) bad = 1; t += $(n-2) + $n } END { exit bad || t == 0 }' ||
  fail "discard_oracle: takes that outnumber their discards, or none: $takes"

# No pile ever holds 108 cards: nothing is corrected, the same deals are played the same way twice.
out=$("$oracle" --deals 300 --seed 5 --min-pile 108) || fail "discard_oracle --min-pile 108 failed"
echo "$out" | grep -q "(0 discards changed" || fail "discard_oracle corrected a discard it should not have"
[ "$(echo "$out" | share "as it plays")" = "$(echo "$out" | share "with the oracle")" ] ||
  fail "discard_oracle: two uncorrected runs of the same deals differ"
[ "$(echo "$out" | share "as it plays")" = "$plays" ] || fail "discard_oracle: the same seed gave other deals"

# lost_deals plays the same deals as discard_oracle as the agent plays them: the same share won. Its
# table holds every deal once, each row's first-canasta columns add up to the row, and a side that
# went out had completed a canasta.
out=$("$lost" --deals 300 --seed 5) || fail "lost_deals failed"
[ "$(echo "$out" | sed -n 's/.*: \([0-9.]*\)% won$/\1/p')" = "$plays" ] ||
  fail "lost_deals: a share other than discard_oracle's $plays% on the same deals: $out"
rows=$(echo "$out" | grep -E '^    (lost|won) ')
[ "$(echo "$rows" | wc -l)" -ge 2 ] || fail "lost_deals: no table: $out"
echo "$rows" | awk '
  { d = $(NF-9); s = 0; for (i = NF-8; i <= NF-4; ++i) s += $i; total += d; if (s != d) bad = 1
    if (/other side went out/ && ($(NF-8) || $(NF-4))) bad = 1
    if (/agent.s side went out/ && ($(NF-5) || $(NF-4))) bad = 1 }
  END { exit bad || total != 300 }' || fail "lost_deals: a table that does not add up: $rows"

# Each --at searches its kinds of decision and no other.
searched() {
  out=$("$flat" --deals 20 --rollouts 2 --seed 5 "$@") || fail "flat_mc $* failed"
  echo "$out" | sed -n 's/.*decisions searched: \([0-9]*\) at the pile, \([0-9]*\) discards, \([0-9]*\) turns.*/\1 \2 \3/p'
}
for case in "draw:+00" "discard:0+0" "out:00+" "both:+0+" "all:+++"; do
  at=${case%%:*}
  want=${case#*:}
  for model in "" --model-self "--clairvoyant hands" "--clairvoyant all"; do
    read -r d x o <<<"$(searched --at "$at" $model)"
    [ -n "${o:-}" ] || fail "flat_mc --at $at $model: no count of decisions searched"
    got=""
    for n in "$d" "$x" "$o"; do [ "$n" -gt 0 ] && got+="+" || got+="0"; done
    [ "$got" = "$want" ] || fail "flat_mc --at $at $model searched $d at the pile, $x discards, $o turns"
  done
done

# read_hand: four models, nested, so that each fits its deals at least as well as the one before (its
# log-loss no higher); the card count and its recalibration (a monotone map of it) rank every pair the
# same way; the same seeds give the same figures.
out=$("$read_hand" --deals 300 --seed 5 --test-seed 6) || fail "read_hand failed"
rows=$(echo "$out" | grep -E '^    (the card count|\.\.\. and)')
[ "$(echo "$rows" | wc -l)" -eq 4 ] || fail "read_hand: not four models: $out"
echo "$rows" | awk '{ fit = $(NF-4); c = $(NF-3); if (NR > 1 && fit > last + 1e-4) bad = 1; if (c < 0 || c > 1) bad = 1
    if (NR == 1) first = c; if (NR == 2 && c != first) bad = 1; last = fit } END { exit bad }' ||
  fail "read_hand: a larger model fits worse, a concordance out of [0, 1], or a recalibration that reorders: $rows"
[ "$("$read_hand" --deals 300 --seed 5 --test-seed 6)" = "$out" ] || fail "read_hand: two runs of the same seeds differ"

# Bad input: a one-line error and a non-zero exit.
for cmd in "$oracle --deals 0" "$oracle --agent nosuch" "$flat --agent random" "$flat --at nowhere" \
  "$flat --rollouts 0" "$flat --clairvoyant stock" "$oracle --seed -1" "$flat --seed -1" "$lost --deals 0" "$lost --vs nosuch" \
  "$read_hand --seed 3 --test-seed 3" "$read_hand --deals 0" "$read_hand --agent nosuch"; do
  err=$($cmd 2>&1 >/dev/null) && fail "accepted: $cmd"
  [ -n "$err" ] || fail "no error message: $cmd"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "more than one line of error: $cmd: $err"
done
# --help: the options, and nothing run.
for p in "$oracle" "$flat" "$lost" "$read_hand"; do
  help=$("$p" --help) || fail "$p --help failed"
  echo "$help" | grep -q -- "--deals" || fail "$p --help does not list --deals"
  echo "$help" | grep -Eq "deals won|% won|candidate discards" && fail "$p --help ran the probe"
done
echo "$("$read_hand" --help)" | grep -q -- "--test-seed" || fail "read_hand --help does not list --test-seed"
for flag in --model-self --clairvoyant; do
  echo "$("$flat" --help)" | grep -q -- "$flag" || fail "flat_mc --help does not list $flag"
done

echo "probes: ok"
