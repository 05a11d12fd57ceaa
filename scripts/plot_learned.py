#!/usr/bin/env python3
"""The learning curve and the calibration of a value model, from the files
`canasta train --curve C.csv --calibration K.csv` writes. The image's format
is its name's extension (.png, .pdf, .svg, ...); missing folders are made.

    python3 scripts/plot_learned.py C.csv K.csv OUT.png [TITLE]
"""
import argparse

from script_io import fail, image_format, pyplot, read_table, save_figure


def rows(path, columns, option):
    """The rows of a CSV that has these columns (one of canasta train's OPTION files)."""
    table, _ = read_table(path, columns, f"the file of canasta train {option}")
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
    plt = pyplot()
    image_format(args.out)
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
    save_figure(fig, args.out, dpi=110)


if __name__ == "__main__":
    main()
