#!/usr/bin/env python3
"""The learning curve and the calibration of a value model, from the files
`canasta train --curve C.csv --calibration K.csv` writes. The image's format
is its name's extension (.png, .pdf, .svg, ...); missing folders are made.

    python3 scripts/plot_learned.py C.csv K.csv OUT.png [TITLE]
"""
import argparse
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.backend_bases import FigureCanvasBase  # noqa: E402


def fail(message):
    print(f"plot_learned: {message}", file=sys.stderr)
    sys.exit(2)


def rows(path, columns, option):
    """The rows of a CSV that has these columns (one of canasta train's OPTION files)."""
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            names = reader.fieldnames or []
            table = list(reader)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except (csv.Error, UnicodeDecodeError) as e:
        fail(f"{path} is not a CSV ({e})")
    missing = [c for c in columns if c not in names]
    if missing:
        fail(f"{path} is not the file of canasta train {option} (no column {missing[0]!r})")
    if not table:
        fail(f"{path} has no rows (only its header)")
    try:
        return [{c: float(r[c]) for c in columns} for r in table]
    except (TypeError, ValueError) as e:
        fail(f"{path}: bad value ({e})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("curve", help="the learning curve, canasta train --curve C.csv")
    ap.add_argument("calibration", help="the calibration, canasta train --calibration K.csv")
    ap.add_argument("out", help="the image to write (OUT.png; its extension picks the format)")
    ap.add_argument("title", nargs="?", default="value model")
    args = ap.parse_args()
    root, ext = os.path.splitext(args.out)
    fmt = ext[1:].lower() or "png"
    if fmt not in FigureCanvasBase.get_supported_filetypes():
        fail(f"{args.out}: matplotlib writes no {ext} images (.png, .pdf, .svg, ... instead)")
    curve = rows(args.curve, ("epoch", "train_loss", "held_loss"), "--curve")
    calibration = rows(args.calibration, ("predicted", "final"), "--calibration")
    title = args.title
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    epochs = [int(r["epoch"]) for r in curve]
    left.plot(epochs, [r["train_loss"] for r in curve], "o-", label="training loss")
    left.plot(epochs, [r["held_loss"] for r in curve], "s-", label="held-out loss")
    left.set_xlabel("epoch")
    left.set_ylabel("mean squared error / variance of the target")
    left.set_title(f"{title}: learning curve")
    left.legend()
    predicted = [r["predicted"] for r in calibration]
    final = [r["final"] for r in calibration]
    lo, hi = min(predicted + final), max(predicted + final)
    right.plot([lo, hi], [lo, hi], "k:", label="perfect calibration")
    right.plot(predicted, final, "o-", label="held-out deals, 20 bins")
    right.set_xlabel("predicted (final margin, or tanh(margin / S) with --squash S)")
    right.set_ylabel("mean of the same, held-out deals")
    right.set_title(f"{title}: calibration")
    right.legend()
    fig.tight_layout()
    tmp = f"{root}.tmp{ext}"
    try:
        if os.path.dirname(args.out):
            os.makedirs(os.path.dirname(args.out), exist_ok=True)
        fig.savefig(tmp, dpi=110, format=fmt)
        os.replace(tmp, args.out)
    except OSError as e:
        fail(f"cannot write {args.out}: {e.strerror}")


if __name__ == "__main__":
    main()
