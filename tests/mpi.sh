#!/usr/bin/env bash
# The MPI build: `mpirun -n K canasta sim` with K = 1, 2, 3 writes the same
# summary.json and deals.csv (games.csv), byte for byte, as one process of
# the ordinary build: plain deals, a sequential test, whole games, named
# seats. SIGTERM to mpirun keeps every finished deal, written whole.
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
)
for i in "${!runs[@]}"; do
  read -r -a args <<<"${runs[$i]}"
  "$canasta" sim "${args[@]}" --out "one$i" >/dev/null
  for n in 1 2 3; do
    mpirun --oversubscribe -n "$n" "$mpi_canasta" sim "${args[@]}" --out "mpi$i-$n" >"log$i-$n" 2>&1 ||
      fail "mpirun -n $n canasta sim ${runs[$i]}: $(tail -3 "log$i-$n")"
    for f in summary.json deals.csv games.csv; do
      [[ -f one$i/$f ]] || continue
      cmp -s "one$i/$f" "mpi$i-$n/$f" || fail "mpirun -n $n canasta sim ${runs[$i]}: $f differs from one process's"
    done
  done
done
# A rank refuses what it cannot do, once, with the one-line error of one process.
mpirun --oversubscribe -n 2 "$mpi_canasta" sim --deals 10 --record r.jsonl >log 2>&1 && fail "--record under MPI"
grep -q "run shards" log || fail "no message for --record under MPI: $(cat log)"
# SIGTERM to mpirun, as a scheduler sends it: the deals finished are written, whole.
mpirun --oversubscribe -n 2 "$mpi_canasta" sim --side0 heuristic --side1 random --deals 3000000 --out stopped \
  >log 2>&1 &
pid=$!
sleep 3
kill -TERM "$pid"
wait "$pid" || true
grep -q '"stopped_by":"SIGTERM"' stopped/run.json || fail "the stopped run was not written: $(tail -3 log)"
"$canasta" merge --partial stopped >/dev/null || fail "the stopped run is not consistent"
echo "mpi: 1, 2 and 3 ranks give one process's files; SIGTERM keeps what finished"
