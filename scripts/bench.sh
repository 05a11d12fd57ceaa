#!/usr/bin/env bash
# Speed figures: the Google Benchmark target, then the simulator on 1 and 2
# threads, with the machine and the date. Writes nothing; redirect to keep.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh -DCANASTA_BUILD_BENCH=ON >/dev/null
echo "date: $(date -u +%Y-%m-%d)  nproc: $(nproc)  cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
./build/bench/canasta_bench --benchmark_min_time=1 --benchmark_repetitions=5 \
  --benchmark_report_aggregates_only=true "$@"
for t in 1 2; do ./build/sim/cli/canasta sim --deals 1000000 --threads "$t"; done
