#!/usr/bin/env bash
# Thread scaling of canasta sim: for 1, 2, 4, ... threads up to MAX (default
# the machine's cores), the per-thread speed of four runs against one
# thread's. The cheap runs grow with the thread count T; the search runs
# play the same deals (games) at every T, 4 pairs for each of MAX threads,
# so that only the sharing out of the work differs:
#   random     canasta sim --deals 250000xT                            (deals/s)
#   heuristic  --side0 heuristic --side1 random --deals 40000xT        (deals/s)
#   ismcts     --side0 ismcts:iters=1000 --side1 heuristic --deals 4xMAX   (deals/s)
#   games      --side0 ismcts:iters=100 --side1 heuristic --games 4xMAX    (games/s)
# Prints a Markdown table with the machine and the date; writes nothing.
# Each run REPEAT times (default 1), the median quoted. Run it on a quiet machine.
#   bash scripts/scaling.sh [MAX]
#   CANASTA=PATH  the program (default: build/sim/cli/canasta, built first)
#   ROWS="random heuristic"  only these rows
#   OLD=PATH      another build of the program, run in turn with this one
#                 (same load for both): its rate and this one's / its
#   CEILING=1     also the T-thread command as T one-thread processes side
#                 by side (--shard k/T each): the same work on T busy cores
#                 that share nothing of the program's, what the machine
#                 gives. "side by side" is their mean rate against one
#                 thread's, "per thread / side by side" the run's per-thread
#                 rate against their mean rate (at one thread, the one-
#                 thread run itself)
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
max=${1:-$(nproc)}
repeat=${REPEAT:-1}
rows=${ROWS:-random heuristic ismcts games}
whole MAX "$max"
whole REPEAT "$repeat"
for row in $rows; do
  [[ " random heuristic ismcts games " == *" $row "* ]] ||
    { echo "scaling.sh: ROWS: no row '$row' (random, heuristic, ismcts, games)" >&2; exit 2; }
done
if [[ -z ${CANASTA:-} ]]; then
  bash scripts/build.sh >/dev/null
  CANASTA=./build/sim/cli/canasta
fi
threads=()
for ((t = 1; t < max; t *= 2)); do threads+=("$t"); done
threads+=("$max")

args_of() {  # ROW T
  case $1 in
    random) echo "--deals $((250000 * $2))" ;;
    heuristic) echo "--side0 heuristic --side1 random --deals $((40000 * $2))" ;;
    ismcts) echo "--side0 ismcts:iters=1000 --side1 heuristic --deals $((4 * max))" ;;
    games) echo "--side0 ismcts:iters=100 --side1 heuristic --games $((4 * max))" ;;
  esac
}
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# The median rates of REPEAT runs (deals or games a second) of this program
# and of OLD (when given), in turn: "NEW OLD".
rate_of() {  # ROW T
  local i new=() old=()
  for ((i = 0; i < repeat; ++i)); do
    # shellcheck disable=SC2046
    new+=("$("$CANASTA" sim $(args_of "$1" "$2") --threads "$2" | awk '$1 == "speed" { print $2 }')")
    # shellcheck disable=SC2046
    [[ -n ${OLD:-} ]] && old+=("$("$OLD" sim $(args_of "$1" "$2") --threads "$2" | awk '$1 == "speed" { print $2 }')")
  done
  echo "$(printf '%s\n' "${new[@]}" | median) $( ((${#old[@]})) && printf '%s\n' "${old[@]}" | median || echo 0)"
}
# The median over REPEAT rounds of the mean rate of T one-thread processes
# started together, shard k of T of the row's T-thread command each.
side_by_side() {  # ROW T
  local i k pid dir mean means=() pids
  dir=$(mktemp -d)
  for ((i = 0; i < repeat; ++i)); do
    pids=()
    for ((k = 0; k < $2; ++k)); do
      # shellcheck disable=SC2046
      "$CANASTA" sim $(args_of "$1" "$2") --threads 1 --shard "$k/$2" >"$dir/$k" &
      pids+=($!)
    done
    for pid in "${pids[@]}"; do
      if ! wait "$pid"; then
        kill "${pids[@]}" 2>/dev/null || true
        rm -rf "$dir"
        echo "scaling.sh: a side-by-side run of '$1' failed" >&2
        exit 1
      fi
    done
    mean=$(cat "$dir"/* | awk -v t="$2" '$1 == "speed" { s += $2; ++n } END { if (n == t) print s / t }')
    if [[ -z $mean ]]; then
      rm -rf "$dir"
      echo "scaling.sh: a side-by-side run of '$1' printed no speed" >&2
      exit 1
    fi
    means+=("$mean")
    rm -f "$dir"/*
  done
  rmdir "$dir"
  printf '%s\n' "${means[@]}" | median
}

echo "date: $(date -u +%Y-%m-%d)  nproc: $(nproc)  cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
echo "program: $CANASTA ($(git describe --always --dirty 2>/dev/null || echo unknown)), median of $repeat run(s)"
echo
head="| run | threads | rate | per thread | per thread / 1 thread |"
rule="| --- | --- | --- | --- | --- |"
if [[ -n ${OLD:-} ]]; then
  echo "old: $OLD"
  echo
  head+=" old rate | rate / old |"
  rule+=" --- | --- |"
fi
if [[ ${CEILING:-0} != 0 ]]; then
  head+=" side by side / 1 thread | per thread / side by side |"
  rule+=" --- | --- |"
fi
echo "$head"
echo "$rule"
for row in $rows; do
  base=""
  for t in "${threads[@]}"; do
    read -r rate old < <(rate_of "$row" "$t")
    [[ -z $base ]] && base=$rate
    side=0
    [[ ${CEILING:-0} != 0 ]] && side=$(if ((t == 1)); then echo "$base"; else side_by_side "$row" "$t"; fi)
    awk -v a="$row" -v t="$t" -v r="$rate" -v b="$base" -v o="$old" -v s="$side" '
      function f(x) { return x >= 100 ? sprintf("%.0f", x) : sprintf("%.3g", x) }
      BEGIN {
        printf "| %s | %d | %s | %s | %.2f |", a, t, f(r), f(r / t), r / (t * b)
        if (o > 0) printf " %s | %.3f |", f(o), r / o
        if (s > 0) printf " %.2f | %.2f |", s / b, r / (t * s)
        printf "\n"
      }'
  done
done
