#!/usr/bin/env python3
"""Compares two builds of canasta_bench in one run: the benchmarks both have,
run in turn (old, new, old, new, ...) so that both see the same machine, and
the ratio new/old of the median times. A ratio above 1 means the new build is
slower.

    python3 scripts/compare_bench.py OLD/canasta_bench NEW/canasta_bench \
        [--filter REGEX] [--rounds 3] [--repetitions 5] [--min-time 0.5]
"""
import argparse
import json
import statistics
import subprocess
import sys


def run(binary, args):
    out = subprocess.run(
        [binary, f"--benchmark_filter={args.filter}", f"--benchmark_min_time={args.min_time}",
         f"--benchmark_repetitions={args.repetitions}", "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"],
        check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            times[b["run_name"]] = b["cpu_time"]
    return times


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--filter", default="BM_(LegalActions|Apply|CopyState|Deal|RandomDeal|RandomAgentDeal)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--min-time", type=float, default=0.5)
    args = p.parse_args()
    old, new = {}, {}
    for _ in range(args.rounds):
        for name, t in run(args.old, args).items():
            old.setdefault(name, []).append(t)
        for name, t in run(args.new, args).items():
            new.setdefault(name, []).append(t)
    print(f"{'benchmark':34} {'old':>12} {'new':>12} {'new/old':>8}")
    for name in sorted(set(old) & set(new)):
        o, n = statistics.median(old[name]), statistics.median(new[name])
        print(f"{name:34} {o:12.1f} {n:12.1f} {n / o:8.3f}")
    print(f"(CPU time per iteration in ns, median of {args.rounds} rounds of {args.repetitions}-repetition medians)")


if __name__ == "__main__":
    sys.exit(main())
