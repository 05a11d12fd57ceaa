#!/usr/bin/env python3
"""Writes RESULTS/ladder.md from the ladders scripts/ladder.sh made
(RESULTS/ladder/PROFILE/: tournament/tournament.json, costs.csv,
machine.txt, whose "note:" line, if any, is printed with the machine), and
a plot per profile (Elo against cost per deal,
RESULTS/ladder/PROFILE/ladder.png) where matplotlib is installed. With no
argument it rewrites results/ladder.md and the plots under results/ladder/.

    python3 scripts/ladder_report.py [RESULTS]     # default: results
"""
import argparse
import csv
import json
import os
import sys

from script_io import fail

ORDER = ["classic", "two-player", "spanish"]


def read_ladder(path):
    try:
        with open(os.path.join(path, "tournament", "tournament.json")) as f:
            t = json.load(f)
        costs = {}
        with open(os.path.join(path, "costs.csv"), newline="") as f:
            for row in csv.DictReader(f):
                costs[row["player"]] = float(row["seconds_per_deal"])
        machine = {}
        with open(os.path.join(path, "machine.txt")) as f:
            for line in f:
                key, _, value = line.partition(":")
                machine[key.strip()] = value.strip()
    except OSError as e:
        fail(f"cannot read {e.filename}: {e.strerror}")
    except (KeyError, ValueError, TypeError) as e:
        fail(f"{path} is not a ladder of scripts/ladder.sh ({type(e).__name__}: {e})")
    return t, costs, machine


def cost_text(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def plot(t, costs, out, profile, machine):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"ladder_report: no matplotlib (apt-get install python3-matplotlib): {out} not redrawn", file=sys.stderr)
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for r in t["ratings"]:
        c = costs.get(r["agent"])
        if c is None:
            continue
        ax.errorbar([c], [r["elo"]], yerr=[[r["elo"] - r["lo"]], [r["hi"] - r["elo"]]], fmt="o", capsize=3)
        ax.annotate(r["agent"], (c, r["elo"]), textcoords="offset points", xytext=(6, -3), fontsize=7)
    ax.set_xscale("log")
    when = machine.get("costs", machine.get("date", "?")).split(",")[0]
    ax.set_xlabel(f"cost: seconds of one core per deal, the player at every seat (measured {when})")
    ax.set_ylabel("Elo (random = 0), 95% interval clustered by deal")
    ax.set_title(f"The players of the bench on {profile}: {t['deals']} deal pairs a match")
    ax.grid(alpha=0.3)
    fig.savefig(out + ".tmp.png", dpi=110, bbox_inches="tight")
    os.replace(out + ".tmp.png", out)
    return True


def section(p, t, costs, machine, base):
    """The lines of one profile's ladder, its plot drawn beside."""
    ratings = sorted(zip(t["agents"], t["ratings"]), key=lambda x: -x[1]["elo"])
    lines = [
        f"## {p}",
        "",
        f"- **Command**: `{machine.get('command', '?')}` (commit {machine.get('commit', '?')}); "
        f"the printout is [tournament.txt](ladder/{p}/tournament.txt), the files "
        f"[tournament.json](ladder/{p}/tournament/tournament.json) and [costs.csv](ladder/{p}/costs.csv)",
        f"- **Machine**: `nproc` {machine.get('nproc', '?')}, {machine.get('cpu', '?')}",
        f"- **Date**: {machine.get('date', '?')}; {t['deals']} deal pairs a match, seed {t['seed']}",
    ]
    if "costs" in machine:
        lines.append(f"- **Costs**, measured later on their own: {machine['costs']}")
    if "note" in machine:
        lines.append(f"- **Note**: {machine['note']}")
    lines += [
        "",
        "| player | Elo [95%] | cost per deal |",
        "| --- | --- | --- |",
    ]
    for agent, r in ratings:
        c = costs.get(agent)
        lines.append(
            f"| `{agent}` | {r['elo']:+.0f} [{r['lo']:+.0f}, {r['hi']:+.0f}] | {cost_text(c) if c else '?'} |")
    lines += ["", "The matches (the first player's margin a deal and share of the deals):", "",
              "| match | pairs | margin a deal [95%] | deals won [95%] |", "| --- | --- | --- | --- |"]
    for m in t["matches"]:
        a, b = t["agents"][m["a"]], t["agents"][m["b"]]
        mg, sh = m["margin"], m["share"]
        lines.append(f"| `{a}` against `{b}` | {m['pairs']} | {mg['mean']:+.1f} [{mg['lo']:+.1f}, {mg['hi']:+.1f}] | "
                     f"{100 * sh['mean']:.1f}% [{100 * sh['lo']:.1f}, {100 * sh['hi']:.1f}] |")
    png = os.path.join(base, p, "ladder.png")
    if plot(t, costs, png, p, machine) or os.path.exists(png):
        lines += ["", f"![The ladder on {p}](ladder/{p}/ladder.png)"]
    lines.append("")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", nargs="?", default="results",
                    help="the folder with ladder/ in it, where ladder.md is written (default: %(default)s)")
    results = ap.parse_args().results
    base = os.path.join(results, "ladder")
    if not os.path.isdir(base):
        fail(f"no folder {base} (bash scripts/ladder.sh PROFILE PAIRS makes a profile's ladder there)")
    profiles = [p for p in os.listdir(base) if os.path.exists(os.path.join(base, p, "tournament", "tournament.json"))]
    if not profiles:
        fail(f"no ladder in {base} (no PROFILE/tournament/tournament.json; bash scripts/ladder.sh PROFILE PAIRS makes one)")
    profiles.sort(key=lambda p: (ORDER.index(p) if p in ORDER else len(ORDER), p))
    lines = [
        "# The ladder: how strong each player is, and what it costs",
        "",
        "Every player against every other in duplicate over the same deals",
        "(`canasta tournament`), rated by Bradley-Terry on the Elo scale with",
        "`random` at 0; the 95% intervals are clustered by deal index, since",
        "every match plays the same deals",
        "([experiments](../sim/doc/experiments.md#tournaments)). The cost is the",
        "seconds of one core a deal takes with the player at every seat",
        "(self-play on one thread). `bash scripts/ladder.sh PROFILE PAIRS` re-makes",
        "a profile's ladder and this page.",
        "",
    ]
    for p in profiles:
        t, costs, machine = read_ladder(os.path.join(base, p))
        try:
            lines += section(p, t, costs, machine, base)
        except (KeyError, IndexError, ValueError, TypeError) as e:
            fail(f"{os.path.join(base, p)} is not a ladder of scripts/ladder.sh ({type(e).__name__}: {e})")
    out = os.path.join(results, "ladder.md")
    try:
        with open(out + ".tmp", "w") as f:
            f.write("\n".join(lines))
        os.replace(out + ".tmp", out)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror}")
    print(f"ladder_report: {out}")


if __name__ == "__main__":
    main()
