#!/usr/bin/env bash
# A run stopped by SIGINT, SIGTERM or SIGHUP half a second after its start, then
# resumed (canasta sim --resume DIR --record FILE), ends as the uninterrupted run ends:
# summary.json, deals.csv (games.csv) and the records byte for byte. Also a
# resumed run stopped again and resumed again, whole games, a run that
# keeps no rows (--rows none), a sequential test, and resumption on another
# thread count; and a tournament and tuning runs (canasta tournament
# --resume DIR, canasta tune --resume TABLE). What cannot be resumed is
# refused with exit code 2, and so is a stopped run whose rows changed. The runs are sized to last about 1.5 s on this
# machine and build. PART: sim, or tournament-tune (two tests that ctest
# runs side by side), or all (the default). QUICK (the sanitizer builds,
# where every start of the program is slow): one signal of each kind of
# run, no second stop of the sim run, no sequential test, no SPSA.
#   bash resume.sh CANASTA WORK_DIR [PART] [quick]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
part=${3:-all}
quick=${4:-}
setup "$1" "$2"
now_ms() { date +%s%3N; }
# grown START: after a run of $n begun at START (now_ms), true when it
# took at least 1.4 s; else sets the next n to try: doubled while the run
# is short, then scaled to about 1.7 s.
grown() {
  local took=$(($(now_ms) - $1))
  ((took >= 1400)) && return 0
  if ((took < 400)); then n=$((n * 2)); else n=$((n * 1700 / took + 1)); fi
  return 1
}
# whole NAME FLAG N ARGS...: the uninterrupted run `canasta ARGS FLAG N --out
# NAME --record NAME.jsonl`, N grown until it takes at least 1.4 s; sets n.
whole() {
  local name=$1 flag=$2 start
  n=$3
  shift 3
  while :; do
    rm -rf "$name" "$name.jsonl"
    start=$(now_ms)
    "$canasta" "$@" "$flag" "$n" --out "$name" --record "$name.jsonl" >/dev/null
    grown "$start" && break
  done
}
# Waits until run `pid` has its records file RECORDS open (its signal
# handlers are in place by then).
started() {
  local i
  for i in $(seq 600); do
    [[ -e $2.tmp$1 ]] && return
    sleep 0.05
  done
  fail "the run did not start within 30 s"
}
# stop SIGNAL RECORDS ARGS...: runs canasta ARGS, sends SIGNAL half a second after it
# has started, and checks the exit code says so.
stop() {
  local sig=$1 records=$2
  shift 2
  "$canasta" "$@" >log 2>&1 &
  local pid=$!
  started "$pid" "$records"
  sleep 0.5
  kill "-$sig" "$pid" 2>/dev/null || fail "SIG$sig: the run ended before its stop: $(cat log)"
  local rc=0
  wait "$pid" || rc=$?
  [[ $rc -eq $((128 + $(kill -l "$sig"))) ]] || fail "SIG$sig: exit code $rc: $(cat log)"
}
# same DIR_A DIR_B FILES...: the files are equal byte for byte.
same() {
  local a=$1 b=$2 f
  shift 2
  for f in "$@"; do cmp -s "$a/$f" "$b/$f" || fail "$b/$f differs from $a/$f"; done
}

# Refused: a finished run, a directory that is not a run's, other options.
refused() {
  local bad rc
  for bad in "$@"; do
    rc=0
    # shellcheck disable=SC2086
    "$canasta" $bad >log 2>&1 || rc=$?
    [[ $rc == 2 && $(wc -l <log) == 1 ]] || fail "canasta $bad: exit code $rc: $(cat log)"
  done
}

# edited FILE KEEP COMMAND EDIT...: each sed EDIT of KEEP, written to FILE,
# changes it, and `canasta COMMAND` is then refused with one line.
edited() {
  local file=$1 keep=$2 command=$3 edit
  shift 3
  for edit in "$@"; do
    sed "$edit" "$keep" >"$file"
    cmp -s "$keep" "$file" && fail "the edit '$edit' of $file changed nothing"
    refused "$command"
  done
}

if [[ $part != tournament-tune ]]; then
run=(sim --side0 heuristic --side1 random --threads 2)
whole full --deals 10000 "${run[@]}"
run+=(--deals "$n")
sigs=(INT TERM HUP)
[[ -z $quick ]] || sigs=(TERM)
for sig in "${sigs[@]}"; do
  rm -rf part part.jsonl
  stop "$sig" part.jsonl "${run[@]}" --out part --record part.jsonl
  grep -q '"status":"partial"' part/run.json || fail "SIG$sig: the run finished before its stop"
  "$canasta" sim --resume part --record part.jsonl >log 2>&1 || fail "SIG$sig: the resume failed: $(cat log)"
  grep -q "resumed" log || fail "SIG$sig: no resume line"
  same full part summary.json deals.csv
  cmp -s full.jsonl part.jsonl || fail "SIG$sig: the records differ from the whole run's"
  "$canasta" replay part.jsonl >/dev/null || fail "SIG$sig: the records do not replay"
  if ls -a | grep -q tmp; then fail "SIG$sig: temporary files left: $(ls -a)"; fi
done

# Stopped, resumed on one thread and stopped again, resumed again.
if [[ -z $quick ]]; then
rm -rf part part.jsonl
stop TERM part.jsonl "${run[@]}" --out part --record part.jsonl
stop TERM part.jsonl sim --resume part --record part.jsonl --threads 1
grep -q '"status":"partial"' part/run.json || fail "the resumed run finished before its stop"
"$canasta" sim --resume part --record part.jsonl >/dev/null || fail "the second resume failed"
same full part summary.json deals.csv
cmp -s full.jsonl part.jsonl || fail "the twice-resumed records differ"
fi

# A stopped run whose rows changed since (cut short, removed, added to):
# refused with one line, the directory kept; mended, it resumes.
rm -rf part part.jsonl
stop TERM part.jsonl "${run[@]}" --out part --record part.jsonl
cp part/deals.csv rows.keep
for damage in "truncate -s -10 part/deals.csv" "rm part/deals.csv" "echo garbage >>part/deals.csv"; do
  cp rows.keep part/deals.csv
  eval "$damage"
  rc=0
  "$canasta" sim --resume part --record part.jsonl >log 2>&1 || rc=$?
  [[ $rc == 2 && $(wc -l <log) == 1 ]] || fail "resumed after '$damage': exit code $rc: $(cat log)"
  grep -q "part/deals.csv" log || fail "'$damage': the file is not named: $(cat log)"
done
# A run.json whose tally or positions were changed (wins moved, rows added):
# refused, since the summary would be wrong.
cp part/run.json run.keep
edited part/run.json run.keep "sim --resume part --record part.jsonl" 's/"tally":\[\([0-9]*\),\([0-9]*\),\([0-9]*\)/"tally":[\1,\3,\2/' \
  's/"tally":\[\([0-9]*\)/"tally":[1\1/' 's/"done":\[\[0,\([0-9]*\)\]\]/"done":[[0,1\1]]/'
cp run.keep part/run.json
cp rows.keep part/deals.csv
# The records go where the resuming command says: without --record, refused.
refused "sim --resume part"
grep -q -- "--record" log || fail "the refusal does not say to name the records: $(cat log)"
"$canasta" sim --resume part --record part.jsonl >/dev/null || fail "the mended run did not resume"
same full part summary.json deals.csv
cmp -s full.jsonl part.jsonl || fail "the mended run's records differ"

# No rows kept: the summary alone, from the tally in run.json.
"$canasta" "${run[@]}" --out nfull --rows none >/dev/null
stop TERM n.jsonl "${run[@]}" --out npart --rows none --record n.jsonl
[[ ! -e npart/deals.csv ]] || fail "--rows none wrote deals.csv"
"$canasta" sim --resume npart --record n.jsonl >/dev/null || fail "rows none: the resume failed"
same nfull npart summary.json

# Whole games.
games=(sim --side0 heuristic --side1 heuristic:take_min=5 --threads 2)
whole gfull --games 500 "${games[@]}"
stop INT gpart.jsonl "${games[@]}" --games "$n" --out gpart --record gpart.jsonl
"$canasta" sim --resume gpart --record gpart.jsonl >/dev/null || fail "games: the resume failed"
same gfull gpart summary.json games.csv
cmp -s gfull.jsonl gpart.jsonl || fail "games: the records differ"

# A sequential test stopped in its first batch of 1,024 deal pairs (an agent
# slow enough that a batch outlasts the stop): resumed, it decides where the
# whole run does.
if [[ -z $quick ]]; then
sprt=(sim --side0 ismcts:iters=40 --side1 heuristic --threads 2 --deals 100000 --sprt 0,10)
"$canasta" "${sprt[@]}" --out sfull >/dev/null
stop HUP s.jsonl "${sprt[@]}" --out spart --record s.jsonl
if grep -q '"status":"partial"' spart/run.json; then
  "$canasta" sim --resume spart --record s.jsonl >/dev/null || fail "sprt: the resume failed"
fi
same sfull spart summary.json deals.csv
fi
  refused "sim --resume full" "sim --resume ." "sim --resume part --deals 5" "sim --resume nowhere"
fi

if [[ $part != sim ]]; then
# A tournament stopped by SIGINT, and by SIGHUP and again while resuming on
# one thread, then resumed: the whole one's tournament.json.
tour=(tournament --agents heuristic random basic --threads 2)
n=20
while :; do
  rm -rf tfull
  start=$(now_ms)
  "$canasta" "${tour[@]}" --deals "$n" --out tfull >/dev/null
  grown "$start" && break
done
tour+=(--deals "$n")
sigs=(INT HUP)
[[ -z $quick ]] || sigs=(HUP)
for sig in "${sigs[@]}"; do
  rm -rf tpart
  stop "$sig" tpart "${tour[@]}" --out tpart
  grep -q '"status":"partial"' tpart/run.json || fail "tournament, SIG$sig: it finished before its stop"
  [[ $sig != HUP ]] || stop TERM tpart tournament --resume tpart --threads 1
  "$canasta" tournament --resume tpart >log 2>&1 || fail "tournament, SIG$sig: the resume failed: $(cat log)"
  grep -q "resumed" log || fail "tournament, SIG$sig: no resume line"
  same tfull tpart tournament.json pairs.txt
done
# A stopped tournament whose run.json or pairs.txt was changed (an agent of
# its command, the pairs a match played, a pair's points, the file's
# format), or that has no pairs.txt: refused, not finished into a wrong table.
rm -rf tpart
stop HUP tpart "${tour[@]}" --out tpart
cp tpart/run.json trun.keep
cp tpart/pairs.txt tpairs.keep
edited tpart/run.json trun.keep "tournament --resume tpart" 's/"basic"/"heuristic:freeze=6"/' \
  's/"done":\[\[0,\([0-9]*\)\]\]/"done":[[0,1\1]]/'
cp trun.keep tpart/run.json
edited tpart/pairs.txt tpairs.keep "tournament --resume tpart" '2s/^0 1 \([0-3]\)/0 1 4/;t;2s/^0 1 4/0 1 0/' \
  '1s/1$/2/'
rm tpart/pairs.txt
refused "tournament --resume tpart"
grep -q "pairs.txt.*run.json lists it" log || fail "a stopped tournament without pairs.txt: $(cat log)"

# Tuning runs (a sweep, SPSA) stopped, resumed, once stopped again while
# resuming on one thread: the whole run's table. They write no file to wait
# for, so each stop waits for the run's first result line (a point of the
# sweep, every fifth batch of SPSA) and then stops it: the first part of the
# run, mid-point for the sweep, at whatever speed the machine has now.
# sized N ARGS...: N grown until `canasta ARGS N --out whole.csv` takes 1.4 s.
sized() {
  n=$1
  shift
  while :; do
    start=$(now_ms)
    "$canasta" "$@" "$n" --out whole.csv >/dev/null
    grown "$start" && break
  done
}
# stop_tune SIGNAL LINE ARGS...: canasta ARGS, stopped by SIGNAL as soon as
# its output has a line that matches LINE (a grep pattern).
stop_tune() {
  local sig=$1 line=$2 rc=0 i
  shift 2
  "$canasta" "$@" >log 2>&1 &
  local pid=$!
  for i in $(seq 1200); do
    grep -q -- "$line" log && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  kill "-$sig" "$pid" 2>/dev/null || fail "tune, SIG$sig: the run ended before its stop: $(cat log)"
  wait "$pid" || rc=$?
  [[ $rc -eq $((128 + $(kill -l "$sig"))) ]] || fail "tune, SIG$sig: exit code $rc: $(cat log)"
}
sweep=(tune --agent 'heuristic:freeze={0..4..2}' --vs heuristic --threads 2 --deals)
spsa=(tune --agent heuristic:take_min=1 --spsa take_min=1,safety=20 --vs random --batches 100 --threads 2
  --deals)
kinds=(sweep spsa)
[[ -z $quick ]] || kinds=(sweep)
declare -A result_line=([sweep]='^  heuristic:freeze=' [spsa]='^  batch ')
for kind in "${kinds[@]}"; do
  declare -n args=$kind
  sized 20 "${args[@]}"
  rm -f part.csv part.csv.resume.json
  stop_tune INT "${result_line[$kind]}" "${args[@]}" "$n" --out part.csv
  [[ -e part.csv.resume.json ]] || fail "$kind: no resume state after a stop"
  # Its table or state changed since (a line added, a point more or a
  # pair more claimed): refused, the files kept.
  cp part.csv table.keep
  cp part.csv.resume.json state.keep
  echo "0,junk" >>part.csv
  refused "tune --resume part.csv"
  cp table.keep part.csv
  if [[ $kind == sweep ]]; then
    edits=('s/"points":\([0-9]*\)/"points":1\1/')
    # (a point in progress, unless the stop came between two points)
    grep -q '"done":\[\[0,' state.keep && edits+=('s/"done":\[\[0,\([0-9]*\)\]\]/"done":[[0,1\1]]/')
    edited part.csv.resume.json state.keep "tune --resume part.csv" "${edits[@]}"
    cp state.keep part.csv.resume.json
  fi
  stop_tune TERM "${result_line[$kind]}" tune --resume part.csv --threads 1
  "$canasta" tune --resume part.csv >log 2>&1 || fail "$kind: the resume failed: $(cat log)"
  cmp -s whole.csv part.csv || fail "$kind: the resumed table differs from the whole run's"
  [[ ! -e part.csv.resume.json ]] || fail "$kind: the resume state outlived the run"
  unset -n args
done
  refused "tournament --resume tfull" "tournament --resume nowhere" "tournament --resume tpart --deals 5" \
    "tune --resume whole.csv" "tune --resume part.csv --deals 5"
fi
echo "resume ($part): stopped runs resumed to the uninterrupted run's files, byte for byte"
