#!/usr/bin/python3
"""Where side A (the agent of --side0) loses its deals: the share of deals it
loses by the red-three difference, by the deal's length and by the side that
went out, from the deals.csv of a duplicate run (`canasta sim --side0 A --side1 B --out DIR`)
at a table of two sides (a table of three sides is refused).

Usage: python3 scripts/losses.py DIR/deals.csv
"""
import argparse
import collections

from script_io import fail, read_table

COLUMNS = ("swapped", "turns", "out_seat", "score0", "score1", "red_threes0", "red_threes1")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("deals", help="the deals.csv of a canasta sim run (--out DIR)")
    path = ap.parse_args().deals
    rows, columns = read_table(path, COLUMNS, "a deals.csv of canasta sim")
    if "score2" in columns:
        fail(f"{path} is a table of three sides: this script handles deals.csv of two sides only")
    by_reds = collections.defaultdict(lambda: [0, 0])
    by_turns = collections.defaultdict(lambda: [0, 0])
    by_out = collections.defaultdict(lambda: [0, 0])
    try:
        for r in rows:
            a = int(r["swapped"])  # A's table side
            lost = int(r[f"score{a}"]) < int(r[f"score{1 - a}"])
            reds = int(r[f"red_threes{1 - a}"]) - int(r[f"red_threes{a}"])
            turns = int(r["turns"]) // 8 * 8
            seat = int(r["out_seat"])  # -1: nobody went out
            out = "nobody" if seat < 0 else "A" if seat % 2 == a else "B"
            for table, key in ((by_reds, reds), (by_turns, turns), (by_out, out)):
                table[key][0] += 1
                table[key][1] += lost
    except (KeyError, ValueError, TypeError) as e:
        fail(f"{path} is not a deals.csv ({e})")
    print("red threes of B minus A   deals   A lost")
    for k in sorted(by_reds):
        n, lost = by_reds[k]
        print(f"{k:+25d} {n:7d} {100 * lost / n:7.1f}%")
    print("turns                     deals   A lost")
    for k in sorted(by_turns):
        n, lost = by_turns[k]
        print(f"{k:>11d}-{k + 7:<13d} {n:7d} {100 * lost / n:7.1f}%")
    print("went out                  deals   A lost")
    for k in ("A", "B", "nobody"):
        if k in by_out:
            n, lost = by_out[k]
            print(f"{k:>25s} {n:7d} {100 * lost / n:7.1f}%")


if __name__ == "__main__":
    main()
