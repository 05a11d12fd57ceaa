#!/usr/bin/env python3
r"""Compares two builds of canasta_bench in one run. Each benchmark both builds
have runs in turn (old, new, old, new, ...), a few seconds apart, so that a
pair sees the same machine; the figure is the median over the rounds of the
ratio new/old of the pair's median times (so --repetitions is at least 2).
A ratio above 1 means the new build is slower.

    python3 scripts/compare_bench.py OLD/canasta_bench NEW/canasta_bench \
        [--filter REGEX] [--rounds 3] [--repetitions 5] [--min-time 0.5]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

from script_io import fail


def output(command):
    """The command's run (stdout, stderr); a one-line error where it cannot run or fails."""
    try:
        return subprocess.run(command, check=True, capture_output=True, text=True)
    except OSError as e:
        fail(f"cannot run {command[0]}: {e.strerror}")
    except subprocess.CalledProcessError as e:
        said = (e.stderr or "").strip().splitlines()
        fail(f"{command[0]} failed (exit {e.returncode}){': ' + said[-1] if said else ''}")


def run(binary, name, args):
    out = output(
        [binary, f"--benchmark_filter=^{name}$", f"--benchmark_min_time={args.min_time}",
         f"--benchmark_repetitions={args.repetitions}", "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"]).stdout
    try:
        for b in json.loads(out)["benchmarks"]:
            if b.get("aggregate_name") == "median":
                return b["cpu_time"]
    except (ValueError, KeyError, TypeError) as e:
        fail(f"{binary}: not Google Benchmark's JSON for {name} ({e})")
    fail(f"{binary}: no median for {name}")


def names(binary, pattern):
    done = output([binary, f"--benchmark_filter={pattern}", "--benchmark_list_tests=true"])
    if not done.stdout.strip() and done.stderr.strip():
        fail(f"{binary}: {done.stderr.strip().splitlines()[-1]}")
    return set(done.stdout.split())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("old")
    p.add_argument("new")
    p.add_argument("--filter", default="BM_(LegalActions|Apply|CopyState|Deal|RandomDeal|RandomAgentDeal)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--repetitions", type=int, default=5)
    p.add_argument("--min-time", type=float, default=0.5)
    args = p.parse_args()
    if args.repetitions < 2:
        fail("--repetitions must be at least 2 (Google Benchmark reports no median of one repetition)")
    if args.rounds < 1 or args.min_time <= 0:
        fail("--rounds must be at least 1 and --min-time above 0")
    for binary in (args.old, args.new):
        if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
            fail(f"{binary} is not a program (a build's bench/canasta_bench)")
    args.old, args.new = (b if os.sep in b else os.path.join(".", b) for b in (args.old, args.new))  # not one on PATH
    common = sorted(names(args.old, args.filter) & names(args.new, args.filter))
    if not common:
        fail(f"no benchmark of both builds matches --filter {args.filter!r}")
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
