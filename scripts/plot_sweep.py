#!/usr/bin/python3
"""Draws a `canasta tune` table: the measured value with its 95% interval band
against the swept parameter, as a PNG.

Usage: /usr/bin/python3 scripts/plot_sweep.py TABLE.csv OUT.png [--metric margin|win_share|elo] [--title TEXT]

Needs Debian's python3-matplotlib (apt-get install python3-matplotlib), which
serves Debian's /usr/bin/python3.
"""
import argparse
import csv
import os
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table", help="CSV written by canasta tune --out")
    ap.add_argument("png", help="PNG file to write")
    ap.add_argument("--metric", choices=["margin", "win_share", "elo"], default="margin")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_sweep: matplotlib is missing (apt-get install python3-matplotlib; run /usr/bin/python3)")
    try:
        with open(args.table, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"plot_sweep: cannot read {args.table}: {e.strerror}")
    if not rows:
        sys.exit("plot_sweep: the table is empty")
    param = list(rows[0].keys())[0]
    if param == "spec":
        sys.exit("plot_sweep: the table has no swept parameter")
    lo_key, hi_key = {"margin": ("margin_lo", "margin_hi"), "win_share": ("win_lo", "win_hi"),
                      "elo": ("elo_lo", "elo_hi")}[args.metric]
    try:
        x = [float(r[param]) for r in rows]
        y = [float(r[args.metric]) for r in rows]
        lo = [float(r[lo_key]) for r in rows]
        hi = [float(r[hi_key]) for r in rows]
    except (KeyError, ValueError) as e:
        sys.exit(f"plot_sweep: not a canasta tune table ({e})")
    scale = 100.0 if args.metric == "win_share" else 1.0
    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=120)
    ax.fill_between(x, [v * scale for v in lo], [v * scale for v in hi], alpha=0.25, label="95% interval")
    ax.plot(x, [v * scale for v in y], marker="o", label=args.metric.replace("_", " "))
    ax.axhline(50.0 if args.metric == "win_share" else 0.0, color="grey", linewidth=0.8)
    ax.set_xlabel(param)
    ax.set_ylabel({"margin": "score margin per deal", "win_share": "deals won (%)", "elo": "Elo"}[args.metric])
    ax.set_title(args.title or f"{rows[0]['spec'].split(':')[0]}: {param} sweep ({rows[0]['deals']} deals per point)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    tmp = args.png + ".tmp.png"
    fig.savefig(tmp)
    os.replace(tmp, args.png)


if __name__ == "__main__":
    main()
