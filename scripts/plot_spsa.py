#!/usr/bin/python3
"""Draws an SPSA trajectory (`canasta tune --spsa ... -o TRAJ.csv`): every tuned
parameter against the deal pairs played, one panel each, optionally with a
second run's trajectory (for example one started from bad values) beside it.
The image's format is OUT's extension (.png, .pdf, .svg, ...); missing
folders are made.

Usage: /usr/bin/python3 scripts/plot_spsa.py TRAJ.csv OUT.png [--other TRAJ2.csv]
                                             [--labels A B] [--title TEXT]

Needs Debian's python3-matplotlib (apt-get install python3-matplotlib), which
serves Debian's /usr/bin/python3.
"""
import argparse
import math

from script_io import fail, pyplot, read_table, save_figure


def read(path):
    rows, _ = read_table(path, ("pairs",), "an SPSA trajectory")
    params = [k for k in rows[0] if k not in ("batch", "pairs", "result") and not k.startswith("c_")]
    try:
        pairs = [int(r["pairs"]) for r in rows]
        theta = {p: [float(r[p]) for r in rows] for p in params}
    except (KeyError, ValueError) as e:
        fail(f"{path}: bad value ({e})")
    return pairs, theta


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trajectory", help="CSV written by canasta tune --spsa --out")
    ap.add_argument("png", help="the image to write: OUT.png, or another extension matplotlib knows (.pdf, .svg)")
    ap.add_argument("--other", help="a second trajectory of the same parameters")
    ap.add_argument("--labels", nargs=2, default=["run 1", "run 2"])
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    plt = pyplot()
    runs = [read(args.trajectory)]
    if args.other:
        runs.append(read(args.other))
        if set(runs[1][1]) != set(runs[0][1]):
            fail("the two trajectories tune different parameters")
    params = list(runs[0][1])
    cols = min(3, len(params))
    rows = math.ceil(len(params) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 2.8 * rows), squeeze=False)
    for i, p in enumerate(params):
        ax = axes[i // cols][i % cols]
        for j, (pairs, theta) in enumerate(runs):
            ax.plot(pairs, theta[p], label=args.labels[j] if len(runs) > 1 else None, linewidth=1)
        ax.set_title(p, fontsize=10)
        ax.set_xlabel("deal pairs", fontsize=8)
        ax.tick_params(labelsize=8)
        ax.grid(alpha=0.3)
    for i in range(len(params), rows * cols):
        axes[i // cols][i % cols].axis("off")
    if len(runs) > 1:
        axes[0][0].legend(fontsize=8)
    if args.title:
        fig.suptitle(args.title, fontsize=11)
    fig.tight_layout()
    save_figure(fig, args.png, dpi=110)


if __name__ == "__main__":
    main()
