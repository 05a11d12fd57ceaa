#!/usr/bin/python3
"""Two versions of an agent played against the same opponent on the same
deals, compared deal pair by deal pair: the difference in the share of deals
won and in the margin a deal, with a 95% interval over the pairs (the deals
they share). Each run is a duplicate run of two sides with the agent as
--side0 and the same --side1, --seed and profile (`canasta sim --side0 A
--side1 B --deals N --seed S --out DIR`); a run stopped early or a shard
counts the pairs both have finished. Where each deals.csv has its run's
summary.json beside it, two runs that differ in the profile, the seed or the
opponent (--side1 and the --seat overrides of its seats) are refused.

Usage: python3 scripts/paired_diff.py DIR_A/deals.csv DIR_B/deals.csv
"""
import argparse
import csv
import json
import math
import os

from script_io import fail


def pairs(path):
    """Deal index -> [share of the two deals won by --side0's agent, its mean margin]."""
    seen = {}
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            columns = reader.fieldnames or []
            for c in ("deal", "swapped", "score0", "score1"):
                if c not in columns:
                    fail(f"{path} is not a deals.csv of a duplicate run (no column {c!r}; give DIR/deals.csv)")
            if "score2" in columns:
                fail(f"{path} is a table of three sides: this script compares runs of two sides only")
            for r in reader:
                a = int(r["swapped"])  # the agent's table side in this twin
                mine, theirs = int(r[f"score{a}"]), int(r[f"score{1 - a}"])
                won = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                p = seen.setdefault(int(r["deal"]), [0.0, 0.0, 0])
                p[0] += won / 2
                p[1] += (mine - theirs) / 2
                p[2] += 1
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except (KeyError, ValueError, TypeError) as e:
        fail(f"{path} is not a deals.csv of a duplicate run of two sides ({e})")
    if not seen:
        fail(f"{path} has no deals (only its header)")
    return {k: p[:2] for k, p in seen.items() if p[2] == 2}


def config(path):
    """The settings of the run, from the summary.json beside its deals.csv; None where there is none."""
    try:
        with open(os.path.join(os.path.dirname(path), "summary.json")) as f:
            c = json.load(f)["config"]
        return c if isinstance(c, dict) else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def opponent_seats(c):
    """The --seat overrides of --side1's seats (the odd ones at a table of two sides)."""
    try:
        seats = sorted((int(s[0]), str(s[1])) for s in c.get("seats", []) if int(s[0]) % 2 == 1)
    except (TypeError, ValueError, IndexError):
        return str(c.get("seats"))
    return " ".join(f"{n}={spec}" for n, spec in seats) or "none"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("deals_a", help="DIR_A/deals.csv: the run of version A")
    ap.add_argument("deals_b", help="DIR_B/deals.csv: the run of version B")
    args = ap.parse_args()
    path_a, path_b = args.deals_a, args.deals_b
    a, b = pairs(path_a), pairs(path_b)
    ca, cb = config(path_a), config(path_b)
    for c, path in ((ca, path_a), (cb, path_b)):
        if c is not None and c.get("duplicate") is False:
            fail(f"{path} is of a run without duplicate play (--no-duplicate): it has no deal pairs")
    if ca is not None and cb is not None:
        differ = [f"{name} ({x} against {y})" for name, x, y in (
            ("profile", ca.get("profile"), cb.get("profile")),
            ("--seed", ca.get("seed"), cb.get("seed")),
            ("opponent --side1", ca.get("side1"), cb.get("side1")),
            ("opponent's --seat", opponent_seats(ca), opponent_seats(cb))) if x != y]
        if differ:
            fail(f"the two runs differ in {', '.join(differ)}: not the same deals against the same opponent")
    for p, path in ((a, path_a), (b, path_b)):
        if not p:
            fail(f"{path} has no deal played twice with the sides swapped (a run without duplicate play?)")
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        hint = "shards that share no deals?" if ca is not None and cb is not None else "same --seed and profile?"
        fail(f"the two runs share fewer than two deal pairs ({hint})")
    n = len(common)
    print(f"{n} deal pairs in both runs")
    for i, name, unit in ((0, "deals won", "%"), (1, "margin a deal", "")):
        scale = 100.0 if unit else 1.0
        d = [(a[k][i] - b[k][i]) * scale for k in common]
        mean = sum(d) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
        half = 1.96 * sd / math.sqrt(n)
        ma = sum(a[k][i] for k in common) / n * scale
        mb = sum(b[k][i] for k in common) / n * scale
        sign = "+" if not unit else ""
        print(f"{name:14} A {ma:{sign}.2f}{unit}  B {mb:{sign}.2f}{unit}  A - B {mean:+.2f}{unit} "
              f"[{mean - half:+.2f}, {mean + half:+.2f}]")


if __name__ == "__main__":
    main()
