#!/usr/bin/env bash
# The MPI build: `mpirun -n K canasta sim` with K = 1, 2, 3 writes the same
# summary.json, deals.csv (games.csv) and records, byte for byte, as one
# process of the ordinary build: plain deals, a sequential test, whole
# games, named seats, records, three sides. `tune` (sweeps, SPSA) and
# `tournament` print and write the same (a tournament's pairs one by one
# too). SIGTERM to mpirun keeps every finished deal, written whole.
#   bash mpi.sh MPI_CANASTA CANASTA WORK_DIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
mpi_canasta=$(realpath "$1")
setup "$2" "$3"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # CI runs as root
runs=(
  "--side0 heuristic --side1 random --deals 3000"
  "--side0 heuristic --side1 heuristic:keep_wilds=0 --deals 100000 --sprt 0,10"
  "--side0 heuristic --side1 random --games 30"
  "--side0 heuristic:freeze=6 --side1 heuristic --seat 2=random --deals 1500 --threads 1"
  "--side0 heuristic --side1 random --deals 5000 --record records.jsonl"
  "--profile spanish-3p --side0 heuristic --side1 random --games 3 --record records.jsonl"
)
for i in "${!runs[@]}"; do
  read -r -a args <<<"${runs[$i]}"
  args=("${args[@]/records.jsonl/one$i.jsonl}")
  "$canasta" sim "${args[@]}" --out "one$i" >/dev/null
  for n in 1 2 3; do
    margs=("${args[@]/one$i.jsonl/mpi$i-$n.jsonl}")
    mpirun --oversubscribe -n "$n" "$mpi_canasta" sim "${margs[@]}" --out "mpi$i-$n" >"log$i-$n" 2>&1 ||
      fail "mpirun -n $n canasta sim ${margs[*]}: $(tail -3 "log$i-$n")"
    for f in summary.json deals.csv games.csv; do
      [[ -f one$i/$f ]] || continue
      cmp -s "one$i/$f" "mpi$i-$n/$f" || fail "mpirun -n $n canasta sim ${runs[$i]}: $f differs from one process's"
    done
    # run.json's checksums, of the files written by all the ranks.
    [[ "$(grep -o '"files".*' "one$i/run.json")" == "$(grep -o '"files".*' "mpi$i-$n/run.json")" ]] ||
      fail "mpirun -n $n canasta sim ${runs[$i]}: run.json lists other files than one process's"
    if [[ -f one$i.jsonl ]]; then
      cmp -s "one$i.jsonl" "mpi$i-$n.jsonl" || fail "mpirun -n $n canasta sim ${margs[*]}: the records differ"
      ls mpi$i-$n.jsonl.* 2>/dev/null && fail "mpirun -n $n: parts of the records left behind"
    fi
  done
done
"$canasta" replay mpi4-3.jsonl >/dev/null || fail "the records written by 3 ranks do not replay"
# tune (a sweep, SPSA) and tournament: every rank plays its share of each
# point, batch or match; rank 0 prints and writes the same as one process.
others=(
  "tune --agent heuristic:take_min={4..8..4} --vs random --deals 400 --out table.csv"
  "tune --agent heuristic --spsa take_min=1,safety=30 --batches 5 --deals 40 --objective margin --out table.csv"
  "tournament --agents heuristic basic random --deals 200 --out table.csv"
)
for i in "${!others[@]}"; do
  read -r -a args <<<"${others[$i]}"
  "$canasta" "${args[@]/table.csv/t$i-one.csv}" | grep -v "^canasta" >"t$i-one.txt"
  for n in 2 3; do
    mpirun --oversubscribe -n "$n" "$mpi_canasta" "${args[@]/table.csv/t$i-$n.csv}" >"t$i-$n.log" 2>&1 ||
      fail "mpirun -n $n canasta ${others[$i]}: $(tail -3 "t$i-$n.log")"
    grep -v "^canasta" "t$i-$n.log" | sed "s/t$i-$n.csv/t$i-one.csv/g" >"t$i-$n.txt"
    cmp -s "t$i-one.txt" "t$i-$n.txt" || fail "mpirun -n $n canasta ${others[$i]}: prints other numbers than one process"
    [[ ! -f t$i-one.csv ]] || cmp -s "t$i-one.csv" "t$i-$n.csv" || fail "mpirun -n $n canasta ${others[$i]}: other table"
    for f in tournament.json pairs.txt; do  # (the tournament's directory)
      [[ ! -d t$i-one.csv ]] || cmp -s "t$i-one.csv/$f" "t$i-$n.csv/$f" || fail "mpirun -n $n canasta ${others[$i]}: other $f"
    done
  done
done
# A place no rank can write: every rank ends, with one line and no hang.
touch afile
timeout 120 mpirun --oversubscribe -n 2 "$mpi_canasta" sim --deals 10 --record afile/r.jsonl >log 2>&1 &&
  fail "a record nobody can write"
grep -q "cannot write 'afile/r.jsonl'" log || fail "no message for a record nobody can write: $(cat log)"
# SIGTERM to mpirun, as a scheduler sends it: the deals finished are written, whole.
mpirun --oversubscribe -n 2 "$mpi_canasta" sim --side0 heuristic --side1 random --deals 3000000 --out stopped \
  >log 2>&1 &
pid=$!
# Once rank 0 has made the run's temporary directory, every rank stops on a
# signal; then a moment of play (the machine may be busy with other tests).
for _ in $(seq 300); do compgen -G "stopped.tmp*" >/dev/null && break; sleep 0.1; done
sleep 2
kill -TERM "$pid"
wait "$pid" || true
grep -q '"stopped_by":"SIGTERM"' stopped/run.json || fail "the stopped run was not written: $(tail -3 log)"
"$canasta" merge --partial stopped >/dev/null || fail "the stopped run is not consistent"
echo "mpi: 1, 2 and 3 ranks give one process's files, records, tables and ratings; SIGTERM keeps what finished"
