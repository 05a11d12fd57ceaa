#!/usr/bin/env python3
"""What scripts/ladder.sh reads from a tournament of canasta tournament (the
tournament.json of its folder): its players; the arguments that play again
the matches between some of them; whether a tournament played again gives
the same figures; whether a folder holds a tournament of given settings.

    python3 scripts/ladder_tournament.py agents TOURNAMENT_JSON
    python3 scripts/ladder_tournament.py replay-args TOURNAMENT_JSON [--strict] PLAYER...
    python3 scripts/ladder_tournament.py same-figures OLD_JSON NEW_JSON
    python3 scripts/ladder_tournament.py check-settings FOLDER PAIRS PROFILE PLAYER...

agents prints the players, one a line. replay-args prints, one a line, the
arguments of canasta tournament (--deals, --seed, --profile, --agents) that
play the tournament's matches between the PLAYERs it has, in its order
(with --strict, each PLAYER must be one of its players). same-figures
checks that every match of NEW has the margin and share it has in OLD.
check-settings checks that FOLDER/tournament.json is a tournament of these
players, PAIRS deal pairs and PROFILE. A check that fails, or bad input,
stops with one line and exit 2.
"""
import argparse
import json
import os

from script_io import fail


class Parser(argparse.ArgumentParser):
    """Bad arguments are one line and exit 2, as every other error here."""

    def error(self, message):
        fail(message)


def read_tournament(path):
    """The tournament.json at PATH, with the fields read here checked."""
    try:
        with open(path) as f:
            t = json.load(f)
        agents = t["agents"]
        if not isinstance(agents, list) or not all(isinstance(a, str) for a in agents):
            raise TypeError("'agents' is not a list of specs")
        for m in t["matches"]:
            if not all(isinstance(m[k], int) and 0 <= m[k] < len(agents) for k in ("a", "b")):
                raise ValueError("a match names no player")
            for k in ("margin", "share"):
                if k not in m:
                    raise KeyError(k)
        if not all(isinstance(t[k], int) for k in ("deals", "seed")) or not isinstance(t["profile"], str):
            raise TypeError("'deals', 'seed' or 'profile'")
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except (ValueError, KeyError, TypeError, IndexError) as e:
        fail(f"{path} is not a tournament.json of canasta tournament ({type(e).__name__}: {e})")
    return t


def replay_args(t, wanted, strict):
    unknown = [a for a in wanted if a not in t["agents"]]
    if strict and unknown:
        fail(f"CHECK_PLAYERS: {', '.join(unknown)} not among the tournament's players ({' '.join(t['agents'])})")
    have = [a for a in t["agents"] if a in wanted]
    if len(have) < 2:
        fail(f"fewer than two of the players to check ({' '.join(wanted)}) are in the tournament")
    return ["--deals", str(t["deals"]), "--seed", str(t["seed"]), "--profile", t["profile"], "--agents"] + have


def same_figures(old, new):
    def matches(t):
        return {(t["agents"][m["a"]], t["agents"][m["b"]]): (m["margin"], m["share"]) for m in t["matches"]}

    o, n = matches(old), matches(new)
    bad = [k for k in n if o.get(k) != n[k]]
    if bad:
        fail("this program does not play the tournament's games (%s); play it again" %
             ", ".join("%s against %s" % k for k in bad))
    if not n:
        fail("no match to check")
    return "%d match%s played again, the same figures" % (len(n), "" if len(n) == 1 else "es")


def check_settings(folder, t, pairs, profile, players):
    if (t["agents"], t["deals"], t["profile"]) != (players, pairs, profile):
        fail("%s holds a tournament of other settings (%s, %d deal pairs, %s): "
             "run the script with those to finish it, or remove that folder" %
             (folder, " ".join(t["agents"]), t["deals"], t["profile"]))


def main():
    ap = Parser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("agents", help="the tournament's players, one a line")
    p.add_argument("tournament")
    p = sub.add_parser("replay-args", help="the arguments that play the matches between PLAYERs again")
    p.add_argument("tournament")
    p.add_argument("--strict", action="store_true", help="every PLAYER must be one of the tournament's")
    p.add_argument("players", nargs="+")
    p = sub.add_parser("same-figures", help="every match of NEW gives the figures of OLD")
    p.add_argument("old")
    p.add_argument("new")
    p = sub.add_parser("check-settings", help="FOLDER holds a tournament of these settings")
    p.add_argument("folder")
    p.add_argument("pairs", type=int)
    p.add_argument("profile")
    p.add_argument("players", nargs="+")
    a = ap.parse_args()
    if a.command == "agents":
        print("\n".join(read_tournament(a.tournament)["agents"]))
    elif a.command == "replay-args":
        print("\n".join(replay_args(read_tournament(a.tournament), a.players, a.strict)))
    elif a.command == "same-figures":
        print(same_figures(read_tournament(a.old), read_tournament(a.new)))
    else:
        t = read_tournament(os.path.join(a.folder, "tournament.json"))
        check_settings(a.folder, t, a.pairs, a.profile, a.players)


if __name__ == "__main__":
    main()
