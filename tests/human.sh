#!/usr/bin/env bash
# A person at the table, played from a script of inputs: help, a hint, bad
# inputs of every kind (each re-prompts with a reason), an undo, then the
# first legal action again and again through whole deals until the input
# ends, which quits cleanly. The record of the finished deals replays clean.
#   bash human.sh CANASTA WORK_DIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
setup "$1" "$2"
for profile in classic two-player; do
  {
    printf 'help\nhint\nbanana\n0\n99\nmeld Q: Q\n\x01\x02\n'
    printf '1\nhint\n2\nundo\nundo\n'
    for ((i = 0; i < 80; ++i)); do echo 1; done
  } >"$profile.in"
  hint=$([[ $profile == classic ]] && echo "ismcts:iters=300" || echo heuristic)
  "$canasta" play --human 0 --seed 4 --profile "$profile" --side1 heuristic --hint "$hint" \
    --record "$profile.jsonl" <"$profile.in" >"$profile.txt" 2>&1 || fail "$profile: exit code $?: $(tail -3 "$profile.txt")"
  for want in "hint: " "not understood: unknown action 'banana'" "not understood: choose 1 to" "not legal here" \
    "quit: "; do
    grep -q "$want" "$profile.txt" || fail "$profile: the transcript lacks '$want'"
  done
  deals=$(sed -n 's/^quit: \([0-9]*\) deal.*/\1/p' "$profile.txt")
  [[ ${deals:-0} -ge 1 ]] || fail "$profile: no deal finished: $(tail -5 "$profile.txt")"
  "$canasta" replay "$profile.jsonl" | grep -q "replayed $deals deals" || fail "$profile: the record does not replay"
done
grep -q "visits: " classic.txt || fail "an ISMCTS hint shows no visit counts"
# A game played through to its end keeps the usual last lines.
for ((i = 0; i < 20000; ++i)); do echo 1; done >end.in
"$canasta" play --human 2 --seed 5 --side0 random --record end.jsonl <end.in >end.txt 2>&1
grep -q "^game seed 5" end.txt || fail "the game did not end: $(tail -3 end.txt)"
"$canasta" replay end.jsonl >/dev/null || fail "the whole game does not replay"
echo "human: bad inputs re-prompt, quitting keeps the finished deals, records replay"
