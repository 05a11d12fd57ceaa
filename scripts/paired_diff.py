#!/usr/bin/python3
"""Two versions of an agent played against the same opponent on the same
deals, compared deal pair by deal pair: the difference in the share of deals
won and in the margin a deal, with a 95% interval over the pairs (the deals
they share). Each run is a duplicate run with the agent as --side0 and the
same --side1, --seed and profile (`canasta sim --side0 A --side1 B --deals N
--seed S --out DIR`); a run stopped early or a shard counts the pairs both
have finished.

Usage: python3 scripts/paired_diff.py DIR_A/deals.csv DIR_B/deals.csv
"""
import csv
import math
import sys


def pairs(path):
    """Deal index -> [share of the two deals won by --side0's agent, its mean margin]."""
    seen = {}
    try:
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                a = int(r["swapped"])  # the agent's table side in this twin
                mine, theirs = int(r[f"score{a}"]), int(r[f"score{1 - a}"])
                won = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
                p = seen.setdefault(int(r["deal"]), [0.0, 0.0, 0])
                p[0] += won / 2
                p[1] += (mine - theirs) / 2
                p[2] += 1
    except OSError as e:
        sys.exit(f"paired_diff: cannot read {path}: {e.strerror}")
    except (KeyError, ValueError) as e:
        sys.exit(f"paired_diff: {path} is not a deals.csv of a duplicate run of two sides ({e})")
    return {k: p[:2] for k, p in seen.items() if p[2] == 2}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    a, b = pairs(sys.argv[1]), pairs(sys.argv[2])
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        sys.exit("paired_diff: the two runs share fewer than two deal pairs (same --seed and profile?)")
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
