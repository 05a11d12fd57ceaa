#!/usr/bin/env python3
"""Compares two builds of canasta_bench in one run. Each benchmark both builds
have runs in turn (old, new, old, new, ...), a few seconds apart, so that a
pair sees the same machine; the figure is the median over the rounds of the
ratio new/old of the pair's median times. A ratio above 1 means the new build
is slower.

    python3 scripts/compare_bench.py OLD/canasta_bench NEW/canasta_bench \
        [--filter REGEX] [--rounds 3] [--repetitions 5] [--min-time 0.5]
"""
import argparse
import json
import statistics
import subprocess
import sys


def run(binary, name, args):
    out = subprocess.run(
        [binary, f"--benchmark_filter=^{name}$", f"--benchmark_min_time={args.min_time}",
         f"--benchmark_repetitions={args.repetitions}", "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"],
        check=True, capture_output=True, text=True).stdout
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            return b["cpu_time"]
    raise RuntimeError(f"{binary}: no result for {name}")


def names(binary, pattern):
    out = subprocess.run([binary, f"--benchmark_filter={pattern}", "--benchmark_list_tests=true"],
                         check=True, capture_output=True, text=True).stdout
    return set(out.split())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--filter", default="BM_(LegalActions|Apply|CopyState|Deal|RandomDeal|RandomAgentDeal)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--min-time", type=float, default=0.5)
    args = p.parse_args()
    common = sorted(names(args.old, args.filter) & names(args.new, args.filter))
    print(f"{'benchmark':34} {'old':>12} {'new':>12} {'new/old':>8}  ratios by round")
    for name in common:
        old, new, ratios = [], [], []
        for _ in range(args.rounds):
            old.append(run(args.old, name, args))
            new.append(run(args.new, name, args))
            ratios.append(new[-1] / old[-1])
        shown = " ".join(f"{r:.3f}" for r in ratios)
        print(f"{name:34} {statistics.median(old):12.1f} {statistics.median(new):12.1f} "
              f"{statistics.median(ratios):8.3f}  {shown}", flush=True)
    print(f"(CPU time per iteration in ns, medians of {args.rounds} rounds of {args.repetitions} repetitions)")


if __name__ == "__main__":
    sys.exit(main())
