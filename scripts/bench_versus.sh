#!/usr/bin/env bash
# Engine speed of the working tree against another commit, in one run:
#   bash scripts/bench_versus.sh REV [BENCHMARK_FILTER] [ROUNDS]
# builds REV's canasta_bench in a temporary worktree, then runs the two
# binaries in alternation (ROUNDS rounds, default 5, each benchmark at least
# 1 s) so that both see the same machine load, and prints the medians and
# their ratio (this tree / REV: above 1 is slower), the median of the
# rounds' own ratios ("paired"), and for whole deals the new time per
# action. Builds the working tree's benchmark in build/ (TARGET
# canasta_bench of scripts/build.sh); writes nothing else.
# OLD_BUILD=DIR uses DIR/bench/canasta_bench, a Release build of REV made
# before, instead of building REV again.
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 ]]; then
  echo "usage: bash scripts/bench_versus.sh REV [BENCHMARK_FILTER] [ROUNDS] (--help says more)" >&2
  exit 2
fi
rev=$1
filter=${2:-BM_RandomDeal/classic|BM_LegalActions/classic}
rounds=${3:-5}
whole ROUNDS "$rounds"
git rev-parse --verify --quiet "$rev^{commit}" >/dev/null || { echo "bench_versus: unknown commit '$rev'" >&2; exit 2; }
work=$(mktemp -d)
trap 'git worktree remove --force "$work/tree" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
old_bench=$work/build/bench/canasta_bench
if [[ -n ${OLD_BUILD:-} ]]; then
  old_bench=$OLD_BUILD/bench/canasta_bench
  [[ -x $old_bench ]] || { echo "bench_versus: no $old_bench" >&2; exit 2; }
else
  git worktree add --detach "$work/tree" "$rev" >/dev/null 2>&1
  echo "building $rev ..." >&2
  cmake -S "$work/tree" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DCANASTA_BUILD_BENCH=ON >/dev/null
  cmake --build "$work/build" -j"$(nproc)" --target canasta_bench >/dev/null
fi
echo "building the working tree ..." >&2
TARGET=canasta_bench bash scripts/build.sh -DCANASTA_BUILD_BENCH=ON >/dev/null
echo "date: $(date -u +%Y-%m-%d)  nproc: $(nproc)  cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
echo "this tree: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- core || echo '+changes')  against: $(git rev-parse --short "$rev")"
for ((i = 0; i < rounds; ++i)); do
  for who in old new; do
    bin=./build/bench/canasta_bench
    [[ $who == old ]] && bin=$old_bench
    "$bin" --benchmark_filter="$filter" --benchmark_min_time=1 --benchmark_format=json \
      --benchmark_out_format=json --benchmark_out="$work/$who.$i.json" >/dev/null 2>&1
  done
done
python3 - "$work" "$rounds" <<'PY'
import json, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])
t, per_action = {}, {}
for who in ("old", "new"):
    for i in range(rounds):
        for b in json.load(open(f"{work}/{who}.{i}.json"))["benchmarks"]:
            t.setdefault(b["name"], {}).setdefault(who, []).append(b["cpu_time"])
            if who == "new" and b.get("actions_per_deal"):
                per_action[b["name"]] = b["actions_per_deal"]
print("%-40s %12s %12s %8s %8s %14s" % ("benchmark (median cpu time)", "old", "new", "new/old", "paired", "new per action"))
for name, v in t.items():
    if "old" not in v or "new" not in v:
        print("%-40s only in %s" % (name, "old" if "old" in v else "new"))
        continue
    o, n = statistics.median(v["old"]), statistics.median(v["new"])
    # The median of each round's own ratio: the two runs of a round, back to
    # back, share the machine's load of that moment.
    paired = statistics.median(b / a for a, b in zip(v["old"], v["new"]))
    action = "%14.1f" % (n / per_action[name]) if name in per_action else ""
    print("%-40s %12.1f %12.1f %8.3f %8.3f %s" % (name, o, n, n / o, paired, action))
PY
