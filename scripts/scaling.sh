#!/usr/bin/env bash
# Thread scaling of the simulator: deals per second for 1, 2, 4, ... threads up
# to the machine's cores, and the efficiency against one thread (rate on T
# threads / (T x rate on 1 thread)). Prints a Markdown table with the machine
# and the date; writes nothing. Run it on a quiet machine.
#
#   bash scripts/scaling.sh                 # random and heuristic agents, 1,000,000 deals each
#   DEALS=200000 bash scripts/scaling.sh    # fewer deals
set -euo pipefail
cd "$(dirname "$0")/.."
deals=${DEALS:-1000000}
bash scripts/build.sh >/dev/null
canasta=./build/sim/cli/canasta
cores=$(nproc)
threads=()
for ((t = 1; t < cores; t *= 2)); do threads+=("$t"); done
threads+=("$cores")

echo "date: $(date -u +%Y-%m-%d)  nproc: $cores  cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "command: canasta sim --deals $deals --threads T [--side0 A --side1 A --no-duplicate]"
echo
echo "| agents | threads | deals/s | per thread | efficiency |"
echo "| --- | --- | --- | --- | --- |"
for agent in random heuristic; do
  base=""
  for t in "${threads[@]}"; do
    rate=$("$canasta" sim --deals "$deals" --threads "$t" --side0 "$agent" --side1 "$agent" --no-duplicate |
      awk '$1 == "speed" { print $2 }')
    [[ -z "$base" ]] && base=$rate
    awk -v a="$agent" -v t="$t" -v r="$rate" -v b="$base" \
      'BEGIN { printf "| %s | %d | %.0f | %.0f | %.1f%% |\n", a, t, r, r / t, 100 * r / (t * b) }'
  done
done
