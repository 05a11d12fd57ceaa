#!/usr/bin/env python3
"""How often the 95% intervals of a tournament's ratings hold the truth: one
long tournament gives the truth (its ratings, whose intervals are a small
fraction of the short ones'), then many short tournaments of the same
agents on other deals (seeds SEED, SEED+1, ...) are each checked against it.
Prints, per player, the truth, the share of the short tournaments whose
interval covers it (with its own 95% Wilson interval), the real spread of
their estimates and the intervals' half-width / 1.96 beside it.

    python3 scripts/rating_coverage.py --agents heuristic basic heuristic:take_min=5 \\
        [--pairs 300] [--tournaments 400] [--truth-pairs 400000] [--truth-seed 999001] \\
        [--seed 999100] [--profile classic] [--jobs 2] [--csv FILE]

Each short tournament runs on one thread, JOBS at a time; the long one on
JOBS threads. --truth DIR takes the truth from a tournament directory
already played (canasta tournament --out DIR, the same agents and profile)
instead of playing it. CANASTA=PATH names the program (default: the
checkout's build/sim/cli/canasta).
"""
import argparse
import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

from script_io import fail

Z = 1.959963984540054


def at_least(least):
    def check(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"wants a whole number, not {text!r}")
        if value < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
        return value

    return check


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line and exit 2, as every other error here."""

    def error(self, message):
        fail(message)


def arguments():
    ap = Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--agents", nargs="+", required=True, help="two or more agent specs; the first is the anchor")
    ap.add_argument("--pairs", type=at_least(2), default=300, help="deal pairs a match, short tournaments")
    ap.add_argument("--tournaments", type=at_least(2), default=400, help="short tournaments")
    ap.add_argument("--truth-pairs", type=at_least(2), default=400000,
                    help="deal pairs a match of the long tournament")
    ap.add_argument("--truth-seed", type=at_least(0), default=999001)
    ap.add_argument("--seed", type=at_least(0), default=999100, help="the first short tournament's seed")
    ap.add_argument("--profile", default="classic")
    ap.add_argument("--jobs", type=at_least(1), default=2, help="programs at a time")
    ap.add_argument("--truth", help="a tournament directory that holds the truth already")
    ap.add_argument("--csv", help="write every short tournament's ratings here")
    a = ap.parse_args()
    if len(set(a.agents)) != len(a.agents) or len(a.agents) < 2:
        fail("--agents: give two or more different agent specs")
    if a.seed <= a.truth_seed < a.seed + a.tournaments and not a.truth:
        fail(f"--truth-seed {a.truth_seed} is one of the short tournaments' seeds ({a.seed} on)")
    return a


def tournament(canasta, agents, pairs, seed, profile, threads, out):
    """Plays a tournament into OUT; its tournament.json, or a one-line error."""
    cmd = [canasta, "tournament", "--agents", *agents, "--deals", str(pairs), "--seed", str(seed),
           "--profile", profile, "--threads", str(threads), "--out", out]
    run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if run.returncode != 0:
        why = (run.stderr.strip().splitlines() or ["no message"])[-1]
        fail(f"canasta tournament (seed {seed}) exited {run.returncode}: {why}")
    return read_tournament(out)


def read_tournament(path):
    try:
        with open(os.path.join(path, "tournament.json")) as f:
            t = json.load(f)
        return t, [r["elo"] for r in t["ratings"]], [(r["lo"], r["hi"]) for r in t["ratings"]]
    except OSError as e:
        fail(f"cannot read {e.filename}: {e.strerror}")
    except (ValueError, KeyError, TypeError) as e:
        fail(f"{path} is not a tournament's directory ({type(e).__name__}: {e})")


def the_truth(a, canasta, work):
    if a.truth:
        t, elo, ci = read_tournament(a.truth)
        if t.get("agents") != a.agents or t.get("profile") != a.profile:
            fail(f"{a.truth} is a tournament of other agents or another profile")
        if not elo:
            fail(f"{a.truth} has no ratings")
        return t, elo, ci
    print(f"rating_coverage: the truth, {a.truth_pairs} deal pairs a match, seed {a.truth_seed}", file=sys.stderr)
    t, elo, ci = tournament(canasta, a.agents, a.truth_pairs, a.truth_seed, a.profile, a.jobs,
                            os.path.join(work, "truth"))
    if not elo:
        fail("the long tournament has no ratings (an agent won or lost every deal pair)")
    return t, elo, ci


def runs_method(t):
    """How a tournament's rating intervals are made, as its tournament.json says."""
    return t.get("rating_intervals", "sandwich over each match's pairs apart (before format 2)")


def wilson(k, n):
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def report(a, long_run, truth, truth_ci, runs, method):
    print(f"{len(runs)} tournaments of {a.pairs} deal pairs a match (seeds {a.seed} to "
          f"{a.seed + a.tournaments - 1}), profile {a.profile}; the truth: {long_run.get('deals')} "
          f"deal pairs a match (seed {long_run.get('seed')}), intervals: {method}")
    print()
    print("| player | truth [95%] | intervals covering it [95%] | spread of the estimates (sd) | "
          "half-width / 1.96 | mean error |")
    print("| --- | --- | --- | --- | --- | --- |")
    for i, agent in enumerate(a.agents[1:], start=1):
        est = [r[0][i] for r in runs]
        covered = sum(lo <= truth[i] <= hi for lo, hi in (r[1][i] for r in runs))
        mean = sum(est) / len(est)
        sd = math.sqrt(sum((e - mean) ** 2 for e in est) / (len(est) - 1))
        half = sum((hi - lo) / 2 for lo, hi in (r[1][i] for r in runs)) / len(runs) / Z
        lo, hi = wilson(covered, len(runs))
        print(f"| `{agent}` | {truth[i]:+.1f} [{truth_ci[i][0]:+.1f}, {truth_ci[i][1]:+.1f}] | "
              f"{100 * covered / len(runs):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] | {sd:.2f} Elo | "
              f"{half:.2f} ({half / sd:.2f} of it) | {mean - truth[i]:+.2f} |")


def main():
    a = arguments()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    canasta = os.environ.get("CANASTA", os.path.join(root, "build", "sim", "cli", "canasta"))
    if not (os.path.isfile(canasta) and os.access(canasta, os.X_OK)):
        fail(f"{canasta} is not a program (bash scripts/build.sh, or CANASTA=PATH)")
    if a.truth and not os.path.isdir(a.truth):
        fail(f"--truth: no directory {a.truth}")
    work = tempfile.mkdtemp(prefix="rating_coverage.")
    try:
        # The agents and profile checked by the program itself, on two deal pairs.
        tournament(canasta, a.agents, 2, a.seed, a.profile, 1, os.path.join(work, "check"))
        long_run, truth, truth_ci = the_truth(a, canasta, work)

        def short(seed):
            out = os.path.join(work, f"t{seed}")
            t, elo, ci = tournament(canasta, a.agents, a.pairs, seed, a.profile, 1, out)
            shutil.rmtree(out, ignore_errors=True)
            return seed, elo, ci, runs_method(t)

        seeds = range(a.seed, a.seed + a.tournaments)
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            done = [r for r in pool.map(short, seeds)]
    finally:
        shutil.rmtree(work, ignore_errors=True)
    runs = [(elo, ci) for _, elo, ci, _ in done if elo]
    if len(runs) < 2:
        fail("fewer than two short tournaments have ratings")
    if a.csv:
        try:
            with open(a.csv, "w") as f:
                f.write("seed,agent,elo,lo,hi\n")
                for seed, elo, ci, _ in done:
                    for i, agent in enumerate(a.agents):
                        if elo:
                            f.write(f'{seed},"{agent}",{elo[i]:.6g},{ci[i][0]:.6g},{ci[i][1]:.6g}\n')
        except OSError as e:
            fail(f"cannot write {a.csv}: {e.strerror}")
    if len(runs) < len(done):
        print(f"({len(done) - len(runs)} short tournaments had no ratings: left out)")
    report(a, long_run, truth, truth_ci, runs, done[0][3])


if __name__ == "__main__":
    main()
