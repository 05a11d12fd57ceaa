#!/usr/bin/env python3
"""The learning curve and the calibration of a value model, from the files
`canasta train --curve C.csv --calibration K.csv` writes.

    python3 scripts/plot_learned.py C.csv K.csv OUT.png [TITLE]
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    curve, calibration = rows(sys.argv[1]), rows(sys.argv[2])
    title = sys.argv[4] if len(sys.argv) > 4 else "value model"
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    epochs = [int(r["epoch"]) for r in curve]
    left.plot(epochs, [float(r["train_loss"]) for r in curve], "o-", label="training loss")
    left.plot(epochs, [float(r["held_loss"]) for r in curve], "s-", label="held-out loss")
    left.set_xlabel("epoch")
    left.set_ylabel("mean squared error / variance of the target")
    left.set_title(f"{title}: learning curve")
    left.legend()
    predicted = [float(r["predicted"]) for r in calibration]
    final = [float(r["final"]) for r in calibration]
    lo, hi = min(predicted + final), max(predicted + final)
    right.plot([lo, hi], [lo, hi], "k:", label="perfect calibration")
    right.plot(predicted, final, "o-", label="held-out deals, 20 bins")
    right.set_xlabel("predicted (final margin, or tanh(margin / S) with --squash S)")
    right.set_ylabel("mean of the same, held-out deals")
    right.set_title(f"{title}: calibration")
    right.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[3], dpi=110)


if __name__ == "__main__":
    main()
