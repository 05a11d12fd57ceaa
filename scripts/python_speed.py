#!/usr/bin/env python3
"""The Python module's speed on one core: random-play deals driven step by
step from Python, directly and (where OpenSpiel's pyspiel imports) through
pyspiel.load_game("canasta"), optionally beside a Python OpenSpiel Canasta
(--peer, a checkout of jhtschultz/canasta-openspiel, run in its own
process); then what resample_from_infostate costs at every profile, and
canasta.sim and the program's own figure. The machine may be
busy: each round runs every loop in turn, and the figures are the rounds'
medians, with each speed's median ratio to the module's in the same round.

    PYTHONPATH=build/python:../shared/openspiel /usr/bin/python3 scripts/python_speed.py [build/sim/cli/canasta]
        [--rounds 3] [--seconds 3] [--peer DIR]
"""
import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

from script_io import fail

# The peer's game is registered as python_canasta by its package, also named
# canasta: it runs in a process of its own. A game of the peer is several
# deals (hands) to 5000; it counts the hands completed, over their own time.
PEER_LOOP = """
import random, sys, time
import pyspiel, canasta
game = pyspiel.load_game("python_canasta")
rng = random.Random(1)
hands = stuck = 0
busy = 0.0
end = time.perf_counter() + float(sys.argv[1])
while time.perf_counter() < end:
    state = game.new_initial_state()
    hand, began = state._hand_number, time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            action = rng.choices(actions, probs)[0]
        else:
            legal = state.legal_actions()
            if not legal:
                stuck += 1
                break
            action = rng.choice(legal)
        state.apply_action(action)
        if state._hand_number != hand or state.is_terminal():
            hands += 1
            busy += time.perf_counter() - began
            hand, began = state._hand_number, time.perf_counter()
print(hands / busy if busy else 0.0, hands, stuck)
"""


def module_deals(canasta, seconds):
    """Random deals step by step on the module's own game: deals a second, actions a deal."""
    game, rng, deals, actions = canasta.Game(), random.Random(1), 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed=7, deal=deals)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        deals += 1
    return deals / (time.perf_counter() - start), actions / deals


def resample_times(canasta, profile, deals):
    """resample_from_infostate on random deals of a profile, by a random seat at every step: seconds a call."""
    game, rng, times = canasta.Game(profile), random.Random(2), []
    for deal in range(deals):
        state = game.new_initial_state(seed=5, deal=deal)
        while not state.is_terminal():
            seat = rng.randrange(game.num_players())
            start = time.perf_counter()
            state.resample_from_infostate(seat, rng.randrange(2**32))
            times.append(time.perf_counter() - start)
            state.apply_action(rng.choice(state.legal_actions()))
    return times


def pyspiel_deals(pyspiel, seconds):
    """Random deals step by step through pyspiel, chance nodes by their outcomes."""
    game, rng, deals = pyspiel.load_game("canasta"), random.Random(1), 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]  # equally likely outcomes
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
        deals += 1
    return deals / (time.perf_counter() - start)


def peer_hands(peer, pyspiel_dir, seconds):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([peer, pyspiel_dir]))
    out = subprocess.run([sys.executable, "-c", PEER_LOOP, str(seconds)], capture_output=True, text=True, env=env)
    if out.returncode != 0:
        fail(f"the peer in {peer} did not run: {(out.stderr.strip().splitlines() or ['no output'])[-1]}")
    speed, hands, stuck = out.stdout.split()
    return float(speed), int(hands), int(stuck)


def program_speed(program):
    try:
        out = subprocess.run([program, "sim", "--deals", "200000", "--threads", "1"],
                             capture_output=True, text=True).stdout
    except OSError as e:
        fail(f"cannot run {program}: {e.strerror}")
    speed = re.search(r"speed +(\d+) deals/s", out)
    if not speed:
        fail(f"{program} sim printed no speed (is it the canasta program?)")
    return int(speed.group(1))


def parse():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program", nargs="?", default="build/sim/cli/canasta",
                    help="the canasta program whose own speed is shown beside (default: %(default)s)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of every loop in turn (default: %(default)s)")
    ap.add_argument("--seconds", type=float, default=3.0, help="seconds of each loop a round (default: %(default)s)")
    ap.add_argument("--peer", help="a checkout of the Python OpenSpiel Canasta jhtschultz/canasta-openspiel")
    args = ap.parse_args()
    if args.rounds < 1 or not args.seconds > 0:
        fail("--rounds wants at least 1 and --seconds more than 0")
    program = args.program
    if os.sep not in program:  # a file here, or else one on PATH
        program = os.path.join(".", program) if os.path.exists(program) else shutil.which(program) or program
    if not os.path.isfile(program) or not os.access(program, os.X_OK):
        fail(f"{args.program} is not a program (build it, or name the canasta program)")
    if args.peer and not os.path.isfile(os.path.join(args.peer, "canasta", "canasta_game.py")):
        fail(f"{args.peer} is no checkout of jhtschultz/canasta-openspiel (no canasta/canasta_game.py)")
    return args, program


def main():
    args, program = parse()
    try:
        import canasta
    except ImportError as e:
        sys.exit(f"python_speed: no canasta module ({e}): build it, and run with PYTHONPATH=build/python")
    pyspiel = sys.modules.get("pyspiel")
    if args.peer and not pyspiel:
        fail("--peer needs pyspiel (put OpenSpiel's module on PYTHONPATH)")
    rows = {"module": [], "pyspiel": [], "peer": []}
    for r in range(1, args.rounds + 1):
        module, length = module_deals(canasta, args.seconds)
        rows["module"].append((module, 1.0))
        line = f"round {r}: the module {module:,.0f} deals/s"
        if pyspiel:
            speed = pyspiel_deals(pyspiel, args.seconds)
            rows["pyspiel"].append((speed, speed / module))
            line += f"; through pyspiel {speed:,.0f} ({speed / module:.3f})"
        if args.peer:
            speed, hands, stuck = peer_hands(args.peer, os.path.dirname(pyspiel.__file__), args.seconds)
            rows["peer"].append((speed, speed / module))
            line += f"; the peer {speed:,.1f} deals/s ({speed / module:.4f}; {hands} deals, {stuck} games stuck)"
        print(line, flush=True)
    print(f"random-play deals step by step from Python, medians of {args.rounds} rounds of {args.seconds:g} s:")
    for name, label in [("module", "the module directly"), ("pyspiel", "through pyspiel"), ("peer", "the peer")]:
        if rows[name]:
            speed = statistics.median(s for s, _ in rows[name])
            ratio = statistics.median(q for _, q in rows[name])
            print(f"  {label}: {speed:,.1f} deals/s, {ratio:.4f} of the module's")
    print(f"  ({length:.0f} actions a deal in the module's loop)")
    print("resample_from_infostate, a random seat at every step of 30 random deals:")
    for profile in canasta.profiles():
        times = sorted(resample_times(canasta, profile, 30))
        print(f"  {profile}: median {statistics.median(times) * 1e6:.0f} us, "
              f"99th percentile {times[int(0.99 * len(times))] * 1e6:.0f} us, most {times[-1] * 1e3:.1f} ms")
    start = time.perf_counter()
    canasta.sim(deals=200000, threads=1)
    print(f"canasta.sim(deals=200000, threads=1): {200000 / (time.perf_counter() - start):,.0f} deals/s")
    print("canasta sim --deals 200000 --threads 1:", program_speed(program), "deals/s")


if __name__ == "__main__":
    main()
