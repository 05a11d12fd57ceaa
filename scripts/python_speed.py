#!/usr/bin/env python3
"""The Python module's speed on one core: random-play deals driven step by
step from Python, and canasta.sim; beside the program's own figure.

    PYTHONPATH=build/python /usr/bin/python3 scripts/python_speed.py [build/sim/cli/canasta]
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import time

from script_io import fail


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("program", nargs="?", default="build/sim/cli/canasta",
                    help="the canasta program whose own speed is shown beside (default: %(default)s)")
    args = ap.parse_args()
    program = args.program
    if os.sep not in program:  # a file here, or else one on PATH
        program = os.path.join(".", program) if os.path.exists(program) else shutil.which(program) or program
    if not os.path.isfile(program) or not os.access(program, os.X_OK):
        fail(f"{args.program} is not a program (build it, or name the canasta program)")
    try:
        import canasta
    except ImportError as e:
        sys.exit(f"python_speed: no canasta module ({e}): build it, and run with PYTHONPATH=build/python")
    game = canasta.Game()
    rng = random.Random(1)
    deals = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 5:
        state = game.new_initial_state(seed=7, deal=deals)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
        deals += 1
    took = time.perf_counter() - start
    print(f"step by step from Python: {deals / took:,.0f} deals/s, {took / actions * 1e6:.2f} us an action")
    start = time.perf_counter()
    canasta.sim(deals=200000, threads=1)
    print(f"canasta.sim(deals=200000, threads=1): {200000 / (time.perf_counter() - start):,.0f} deals/s")
    try:
        out = subprocess.run([program, "sim", "--deals", "200000", "--threads", "1"],
                             capture_output=True, text=True).stdout
    except OSError as e:
        fail(f"cannot run {program}: {e.strerror}")
    speed = re.search(r"speed +(\d+) deals/s", out)
    if not speed:
        fail(f"{program} sim printed no speed (is it the canasta program?)")
    print("canasta sim --deals 200000 --threads 1:", speed.group(1), "deals/s")


if __name__ == "__main__":
    main()
