#!/usr/bin/env python3
"""A comparison from Python, notebook style: three freezing thresholds of the
heuristic against the heuristic, in duplicate, each with its Elo interval,
and the running margin of the last one. Writes a PNG (or the format of the
output's extension: .pdf, .svg, ...), making its missing folders.

    PYTHONPATH=build/python /usr/bin/python3 scripts/compare_agents.py [out.png] [--deals N]

Needs the module (built with the project when Debian's python3-pybind11 and
python3-numpy are there) and python3-matplotlib.
"""
import argparse
import sys

from script_io import fail, image_format, optional, pyplot, save_figure

np = optional("numpy")
canasta = optional("canasta")

# %% Play: every point is a duplicate run against the same opponent, over the same deals.
args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
args.add_argument("out", nargs="?", default="compare_agents.png")
args.add_argument("--deals", type=int, default=4000)
opts = args.parse_args()
if opts.deals < 1:
    args.error("--deals must be at least 1")
if canasta is None:
    sys.exit("compare_agents: no canasta module: build it, and run with PYTHONPATH=build/python")
if np is None:
    fail("numpy is missing (apt-get install python3-numpy; run /usr/bin/python3)")
plt = pyplot()
image_format(opts.out)
points = [0, 4, 8]
runs = {f: canasta.sim(side0=f"heuristic:freeze={f}", side1="heuristic", deals=opts.deals, duplicate=True, seed=1)
        for f in points}

# %% Summaries: Elo over duplicate pairs with its 95% interval.
for f, run in runs.items():
    s = run["summary"]
    print(f"freeze={f:2d}: Elo {s['elo']['mean']:+6.1f} [{s['elo']['lo']:+6.1f}, {s['elo']['hi']:+6.1f}], "
          f"margin {s['margin']['mean']:+6.1f}, pairs {s['pentanomial'] if s['paired'] else '-'}")

# %% The rows are NumPy arrays: A's margin per deal, A on side 0 or on side 1 in the twin.
rows = runs[points[-1]]["rows"]
a_margin = np.where(rows["swapped"] == 1, rows["score"][:, 1] - rows["score"][:, 0],
                    rows["score"][:, 0] - rows["score"][:, 1])
running = np.cumsum(a_margin) / np.arange(1, len(a_margin) + 1)

# %% Plot.
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
elo = [runs[f]["summary"]["elo"] for f in points]
left.errorbar(points, [e["mean"] for e in elo], yerr=[[e["mean"] - e["lo"] for e in elo], [e["hi"] - e["mean"] for e in elo]],
              fmt="o-", capsize=4)
left.axhline(0, color="grey", lw=0.8)
left.set_xlabel("freeze: discard a wild card on a pile of at least this many cards (0: never)")
left.set_ylabel("Elo against heuristic (95%, over pairs)")
right.plot(running)
right.set_xlabel(f"deals played (freeze={points[-1]}, duplicate)")
right.set_ylabel("A's mean margin so far")
fig.tight_layout()
save_figure(fig, opts.out, dpi=110)
print("plot:", opts.out)
