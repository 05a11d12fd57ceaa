#!/usr/bin/env python3
"""The engine's time per action at each table against classic's, from one
build of canasta_bench: every BM_RandomDeal table in each of ROUNDS rounds
(one process a round, the tables one after the other, so that a round sees
one machine), the cpu time of a deal over its actions; for each table the
median over the rounds of its time per action, and the median over the
rounds of the round's ratio to classic ("paired", the figure to quote on a
noisy machine).

    python3 scripts/per_action.py [BENCH_BINARY] [--rounds 15] [--min-time 0.5]
"""
import argparse
import json
import statistics
import subprocess


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", nargs="?", default="build/bench/canasta_bench")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--min-time", type=float, default=0.5)
    args = ap.parse_args()
    if args.rounds < 1 or args.min_time <= 0:
        ap.error("--rounds must be at least 1 and --min-time above 0")
    per = {}  # table -> ns per action, one a round
    actions = {}
    for i in range(args.rounds):
        try:
            out = subprocess.run(
                [args.binary, "--benchmark_filter=^BM_RandomDeal/", f"--benchmark_min_time={args.min_time}",
                 "--benchmark_format=json"], check=True, capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            raise SystemExit(f"per_action: {args.binary}: {e}")
        for b in json.loads(out)["benchmarks"]:
            name = b["name"].split("/", 1)[1]
            actions[name] = b["actions_per_deal"]
            per.setdefault(name, []).append(b["cpu_time"] / b["actions_per_deal"])
        print(f"round {i + 1} of {args.rounds}", flush=True)
    if "classic" not in per:
        raise SystemExit("per_action: no BM_RandomDeal/classic in the output")
    print(f"{'table':<14} {'actions':>8} {'ns/action':>10} {'/classic, paired':>17}")
    for name, v in per.items():
        paired = statistics.median(x / c for x, c in zip(v, per["classic"]))
        print(f"{name:<14} {actions[name]:8.1f} {statistics.median(v):10.1f} {paired:17.3f}")


if __name__ == "__main__":
    main()
