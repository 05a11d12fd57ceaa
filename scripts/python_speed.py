#!/usr/bin/env python3
"""The Python module's speed on one core: random-play deals driven step by
step from Python, and canasta.sim; beside the program's own figure.

    PYTHONPATH=build/python /usr/bin/python3 scripts/python_speed.py [build/sim/cli/canasta]
"""
import random
import re
import subprocess
import sys
import time

import canasta

program = sys.argv[1] if len(sys.argv) > 1 else "build/sim/cli/canasta"
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
out = subprocess.run([program, "sim", "--deals", "200000", "--threads", "1"], capture_output=True, text=True).stdout
print("canasta sim --deals 200000 --threads 1:", re.search(r"speed +(\d+) deals/s", out).group(1), "deals/s")
