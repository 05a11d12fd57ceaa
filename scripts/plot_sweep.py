#!/usr/bin/python3
"""Draws `canasta tune` tables: the measured value with its 95% interval band
against the swept parameter, as a PNG (or the format of OUT's extension:
.pdf, .svg, ...; missing folders are made). A table that sweeps two parameters
gets one line per value of the second; further tables (the same sweep
against other opponents, say) are drawn beside the first with --also.

Usage: /usr/bin/python3 scripts/plot_sweep.py TABLE.csv OUT.png [--metric margin|win_share|elo]
           [--title TEXT] [--label TEXT] [--also TABLE2.csv=LABEL ...] [--logx]

Needs Debian's python3-matplotlib (apt-get install python3-matplotlib), which
serves Debian's /usr/bin/python3.
"""
import argparse

from script_io import fail, pyplot, read_table, save_figure


def read(path, metric):
    rows, keys = read_table(path, ("spec",), "a canasta tune table")
    if "spec" not in keys or keys.index("spec") == 0:
        fail(f"{path} has no swept parameter")
    params = keys[:keys.index("spec")]
    lo_key, hi_key = {"margin": ("margin_lo", "margin_hi"), "win_share": ("win_lo", "win_hi"),
                      "elo": ("elo_lo", "elo_hi")}[metric]
    series = {}
    try:
        for r in rows:
            key = r[params[1]] if len(params) > 1 else None
            s = series.setdefault(key, ([], [], [], []))
            for lst, k in zip(s, (params[0], metric, lo_key, hi_key)):
                lst.append(float(r[k]))
    except (KeyError, ValueError) as e:
        fail(f"{path} is not a canasta tune table ({e})")
    return params, series, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("table", help="CSV written by canasta tune --out")
    ap.add_argument("png", help="the image to write: OUT.png, or another extension matplotlib knows (.pdf, .svg)")
    ap.add_argument("--metric", choices=["margin", "win_share", "elo"], default="margin")
    ap.add_argument("--title", default=None)
    ap.add_argument("--label", default=None, help="the first table's name in the legend")
    ap.add_argument("--logx", action="store_true", help="a logarithmic x axis (budgets, say)")
    ap.add_argument("--also", action="append", default=[], metavar="TABLE=LABEL",
                    help="another table of the same sweep, drawn beside the first")
    args = ap.parse_args()
    plt = pyplot()
    tables = [(args.table, args.label)]
    for item in args.also:
        path, _, label = item.partition("=")
        tables.append((path, label or path))
    scale = 100.0 if args.metric == "win_share" else 1.0
    fig, ax = plt.subplots(figsize=(7.5, 4.5), dpi=120)
    first = None
    for path, label in tables:
        params, series, rows = read(path, args.metric)
        if first is None:
            first = (params, rows)
        elif params != first[0]:
            fail(f"{path} sweeps {params}, not {first[0]}")
        for key, (x, y, lo, hi) in series.items():
            name = " ".join(v for v in (label, f"{params[1]}={key}" if key is not None else None) if v)
            band = ax.fill_between(x, [v * scale for v in lo], [v * scale for v in hi], alpha=0.18)
            ax.plot(x, [v * scale for v in y], marker="o", markersize=3, label=name or args.metric.replace("_", " "),
                    color=band.get_facecolor()[0][:3])
    params, rows = first
    ax.axhline(50.0 if args.metric == "win_share" else 0.0, color="grey", linewidth=0.8)
    ax.set_xlabel(params[0])
    if args.logx:
        ax.set_xscale("log")
    ax.set_ylabel({"margin": "score margin per deal", "win_share": "deals won (%)", "elo": "Elo"}[args.metric])
    ax.set_title(args.title or f"{rows[0]['spec'].split(':')[0]}: {params[0]} sweep ({rows[0]['deals']} deals per point)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, title="shaded: 95% interval", title_fontsize=7)
    fig.tight_layout()
    save_figure(fig, args.png)


if __name__ == "__main__":
    main()
