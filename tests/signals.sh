#!/usr/bin/env bash
# Runs stopped by SIGINT, SIGTERM and SIGHUP at random moments keep every
# finished deal: the output directory is complete and self-consistent (its
# files agree with each other and with run.json), the records hold exactly
# the deals of the summary and replay clean, the exit code is 128 + the
# signal, and nothing temporary is left. A second signal ends the program at
# once, wherever it is, the final write included: the output directory then
# holds one whole run, the new one or the one before, never a mix, and the
# next run removes the temporaries it left.
#   bash signals.sh CANASTA WORK_DIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
setup "$1" "$2"
# A directory is absent, or one consistent run (merge reads and checks it).
consistent() { [[ ! -e $1 ]] || "$canasta" merge --partial "$1" >/dev/null || fail "$1 is not one consistent run"; }
# The run under test, started directly (not in a subshell, which would take the signals).
args=(sim --side0 heuristic --side1 random --threads 2 --out out --record r.jsonl)
long=(--deals 3000000)
# Waits until run `pid` has its records file open, which it does after its
# signal handlers are in place (a slow start, under a sanitizer on a busy
# machine, must not meet the signal before them).
started() {
  local i
  for i in $(seq 600); do
    [[ -e r.jsonl.tmp$1 ]] && return
    sleep 0.05
  done
  fail "the run did not start within 30 s: $(cat log)"
}

for sig in INT TERM HUP; do
  num=$(kill -l "$sig")
  for round in 1 2; do
    rm -rf out r.jsonl
    "$canasta" "${args[@]}" "${long[@]}" >log 2>&1 &
    pid=$!
    started "$pid"
    sleep "0.$((RANDOM % 8 + 2))"
    kill "-$sig" "$pid"
    rc=0
    wait "$pid" || rc=$?
    [[ $rc -eq $((128 + num)) ]] || fail "SIG$sig: exit code $rc, not $((128 + num)): $(cat log)"
    grep -q "stopped      by SIG$sig" log || fail "SIG$sig: no stop line: $(cat log)"
    grep -q "\"stopped_by\":\"SIG$sig\"" out/run.json || fail "SIG$sig: run.json does not say it was stopped"
    grep -q '"status":"partial"' out/summary.json || fail "SIG$sig: the summary does not say partial"
    consistent out
    rows=$(grep -o '"rows":[0-9]*' out/summary.json | head -1 | cut -d: -f2)
    "$canasta" replay r.jsonl >replay.log || fail "SIG$sig: the records do not replay"
    grep -q " and $rows single deals" replay.log || fail "SIG$sig: records and summary differ: $(cat replay.log), $rows rows"
    if ls -a | grep -q tmp; then fail "SIG$sig: temporary files left: $(ls -a)"; fi
  done
done

# Two signals: the second one at a random moment after the first, while
# the program stops and writes.
"$canasta" "${args[@]}" --deals 2000 >/dev/null
for round in 1 2 3 4 5 6; do
  "$canasta" "${args[@]}" "${long[@]}" >log 2>&1 &
  pid=$!
  started "$pid"
  sleep "0.$((RANDOM % 5 + 2))"
  kill -TERM "$pid"
  sleep "0.0$((RANDOM % 10))"
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" || true
  consistent out
  [[ -e out ]] || fail "the run before was lost"
done
# What a program ended by a second signal leaves (temporaries named after
# its process, gone now) the next run to the same places removes; a live
# process's temporaries stay.
sleep 0 &
dead=$!
wait "$dead"
sleep 60 &
live=$!
mkdir "out.tmp$dead" "out.tmp$live"
touch "r.jsonl.tmp$dead" "r.jsonl.tmp$dead.part1" "r.jsonl.tmp${dead}x"
"$canasta" "${args[@]}" --deals 200 >/dev/null
[[ ! -e out.tmp$dead && ! -e r.jsonl.tmp$dead && ! -e r.jsonl.tmp$dead.part1 ]] ||
  fail "a dead program's temporaries were left: $(ls -a)"
[[ -e out.tmp$live && -e r.jsonl.tmp${dead}x ]] || fail "a live program's temporaries (or another file) were removed"
kill "$live"
rm -rf "out.tmp$live" "r.jsonl.tmp${dead}x"
if ls -a | grep -q tmp; then fail "temporary files left: $(ls -a)"; fi
echo "signals: every stopped run kept whole"
