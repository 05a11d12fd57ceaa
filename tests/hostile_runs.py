#!/usr/bin/env python3
"""Run folders, resume states, models and sample files from strangers.

A run folder, a tuning state, a model or a sample file that someone else
prepared is data: it must not choose where the program writes, put control
sequences on the terminal, make it compute with numbers that overflow, make
it read without end or wait on a FIFO. Each case below prepares one such
file from files the program wrote, runs the command that reads it, and
checks that the command refuses it with exit code 2 and one printable line
on stderr (or does the work safely where it says so), within the time limit,
and that nothing was written outside the case's own folder.

Then --mutations N random mutations of the same files (byte flips, numbers
at the limits, keys removed, text with controls, FIFOs, links to /dev/zero,
files cut short or grown): no crash, no sanitizer report, no hang, every
error one printable line.

    python3 hostile_runs.py CANASTA WORK_DIR [--mutations N] [--seed S] [--timeout SECONDS]
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

# What must never reach a terminal: C0 controls but tab and newline, DEL,
# C1 controls, bidi controls, zero-width characters, line separators, BOM.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f\u0080-\u009f\u00ad\u061c\u115f\u1160\u180b-\u180f\u200b-\u200f"
                    "\u2028-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\U000e0000-\U000e01ef]")
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|"
                       r"ThreadSanitizer|terminate called|Segmentation fault|Aborted")


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


class Runner:
    def __init__(self, canasta, work, timeout):
        self.canasta = canasta
        self.work = work
        self.timeout = timeout
        self.victim = os.path.join(work, "victim")

    def run(self, args, cwd):
        """Runs canasta ARGS in CWD: (exit code, stdout, stderr, seconds); exit code None on a hang."""
        start = time.monotonic()
        proc = subprocess.Popen([self.canasta] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            out, err = proc.communicate(timeout=self.timeout)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            rc = None
        return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), time.monotonic() - start

    def snapshot(self):
        """What the folder outside every case holds: names and contents."""
        found = {}
        for root, dirs, files in os.walk(self.victim):
            for name in dirs + files:
                path = os.path.join(root, name)
                found[path] = None if os.path.isdir(path) else open(path, "rb").read()
        return found


def stopped(runner, args, cwd, wait_for, settle):
    """Runs canasta ARGS and stops it with SIGTERM `settle` seconds after the
    file `wait_for` (a temporary of the run) appears; its exit code must say so."""
    proc = subprocess.Popen([runner.canasta] + args, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    pattern = wait_for.replace("PID", str(proc.pid))
    deadline = time.monotonic() + 120
    while not os.path.exists(os.path.join(cwd, pattern)):
        if proc.poll() is not None or time.monotonic() > deadline:
            fail(f"canasta {' '.join(args)}: did not start ({proc.poll()}): {proc.stderr.read().decode()}")
        time.sleep(0.02)
    time.sleep(settle)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate()
    if proc.returncode != 128 + signal.SIGTERM:
        fail(f"canasta {' '.join(args)}: ended before its stop ({proc.returncode}): {err.decode()}")


def sized(runner, make_args, cwd, start_n, seconds):
    """An N for which canasta make_args(N) takes `seconds` or a little more:
    doubled from start_n while a run is short, then scaled."""
    n = start_n
    while True:
        rc, _, err, took = runner.run(make_args(n), cwd)
        if rc != 0:
            fail(f"canasta {' '.join(make_args(n))}: {err}")
        if took >= seconds or n >= 1 << 30:
            return n
        n = n * 2 if took < seconds / 4 else int(n * seconds * 1.2 / took) + 1


def make_sources(runner, src):
    """The files the cases start from, each written by the program."""
    os.makedirs(src)
    run = lambda *args: runner.run(list(args), src)
    for args in (["sim", "--side0", "heuristic", "--side1", "random", "--deals", "60", "--shard", "0/2", "--out", "s0"],
                 ["sim", "--side0", "heuristic", "--side1", "random", "--deals", "60", "--shard", "1/2", "--out", "s1"],
                 ["sim", "--side0", "heuristic", "--side1", "random", "--deals", "60", "--shard", "0/2", "--rows",
                  "none", "--out", "n0"],
                 ["sim", "--side0", "heuristic", "--side1", "random", "--deals", "60", "--shard", "1/2", "--rows",
                  "none", "--out", "n1"],
                 ["selfplay", "--deals", "20", "--out", "s.bin"],
                 ["train", "s.bin", "--out", "m.bin", "--linear"],
                 ["play", "--seed", "5", "--record", "game.jsonl"]):
        rc, _, err, _ = run(*args)
        if rc != 0:
            fail(f"canasta {' '.join(args)}: {err}")
    # Stopped runs, sized so that what is left takes about a second here.
    sim = lambda n: ["sim", "--side0", "heuristic", "--side1", "random", "--threads", "2", "--deals", str(n)]
    n = sized(runner, lambda n: sim(n) + ["--out", "whole"], src, 2000, 1.4)
    shutil.rmtree(os.path.join(src, "whole"))
    stopped(runner, sim(n) + ["--out", "part", "--record", "rec.jsonl"], src, "rec.jsonl.tmpPID", 0.5)
    tour = lambda n: ["tournament", "--agents", "random", "basic", "heuristic", "--threads", "2", "--deals", str(n)]
    n = sized(runner, lambda n: tour(n) + ["--out", "twhole"], src, 200, 1.4)
    shutil.rmtree(os.path.join(src, "twhole"))
    stopped(runner, tour(n) + ["--out", "tpart"], src, "tpart.tmpPID", 0.5)
    sweep = lambda n: ["tune", "--agent", "heuristic:freeze={0..4..2}", "--vs", "random", "--threads", "2",
                       "--deals", str(n)]
    n = sized(runner, lambda n: sweep(n) + ["--out", "sw-whole.csv"], src, 200, 1.4)
    stopped(runner, sweep(n) + ["--out", "sw.csv"], src, "sw-whole.csv", 0.6)
    spsa = lambda n: ["tune", "--agent", "heuristic:take_min=1", "--spsa", "take_min=1", "--vs", "random",
                      "--deals", "2", "--threads", "2", "--batches", str(n)]
    n = sized(runner, lambda n: spsa(n) + ["--out", "sp-whole.csv", "--spec-out", "spec-whole.txt"], src, 50, 1.4)
    stopped(runner, spsa(n) + ["--out", "sp.csv", "--spec-out", "spec.txt"], src, "sp-whole.csv", 0.6)
    for f in ("part/run.json", "tpart/run.json", "sw.csv.resume.json", "sp.csv.resume.json"):
        if not os.path.exists(os.path.join(src, f)):
            fail(f"no stopped run's {f}")


# Each source: the files it is made of and the command that reads them.
READERS = {
    "sim": (["part", "rec.jsonl", "m.bin"], ["sim", "--resume", "part", "--record", "rec.jsonl"]),
    "tournament": (["tpart"], ["tournament", "--resume", "tpart"]),
    "sweep": (["sw.csv", "sw.csv.resume.json"], ["tune", "--resume", "sw.csv"]),
    "spsa": (["sp.csv", "sp.csv.resume.json"], ["tune", "--resume", "sp.csv", "--spec-out", "spec.txt"]),
    "merge": (["s0", "s1"], ["merge", "s0", "s1", "--out", "merged"]),
    "merge-tally": (["n0", "n1"], ["merge", "n0", "n1", "--out", "merged"]),
    "model": (["m.bin"], ["sim", "--side0", "value:eval=m.bin", "--side1", "random", "--deals", "2"]),
    "samples": (["s.bin"], ["train", "s.bin", "--out", "m2.bin", "--linear"]),
    "records": (["game.jsonl"], ["replay", "game.jsonl"]),
    "selfplay": (["m.bin"], ["selfplay", "--deals", "2", "--out", "out.bin"]),
}


def fresh_case(runner, src, name, files):
    case = os.path.join(runner.work, "cases", name)
    shutil.rmtree(case, ignore_errors=True)
    os.makedirs(case)
    for f in files:
        (shutil.copytree if os.path.isdir(os.path.join(src, f)) else shutil.copy)(os.path.join(src, f),
                                                                                  os.path.join(case, f))
    shutil.rmtree(runner.victim, ignore_errors=True)
    return case


def judge(runner, name, args, case, allowed=(2,), words=None):
    """Runs the case's command and checks it: (None when it passes, else why not; its exit code)."""
    before = runner.snapshot()
    rc, out, err, took = runner.run(args, case)
    shown = f"canasta {' '.join(args)} [{name}]"
    if rc is None:
        return f"{shown}: no answer within {runner.timeout} s", rc
    if SANITIZER.search(err) or rc < 0 or rc >= 128:
        return f"{shown}: exit {rc}: {err[-2000:]}", rc
    if rc not in allowed:
        return f"{shown}: exit {rc}, not {allowed}: {err[-500:]}", rc
    if rc != 0 and len(err.splitlines()) != 1:
        return f"{shown}: the error is not one line: {err[-500:]!r}", rc
    if UNSAFE.search(err) or UNSAFE.search(out):
        return f"{shown}: control or hidden characters reach the terminal: {(out + err)[-300:]!r}", rc
    if words and not re.search(words, err):
        return f"{shown}: the error does not say '{words}': {err}", rc
    if runner.snapshot() != before:
        return f"{shown}: wrote outside the paths it was given: {sorted(runner.snapshot())}", rc
    return None, rc


def fnv1a(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return f"{h:016x}"


def edit_json(path, change):
    with open(path) as f:
        value = json.load(f)
    change(value)
    with open(path, "w") as f:
        json.dump(value, f, separators=(",", ":"))


def replace_arg(command, old, new):
    return [new if a == old else a for a in command]


def cases(runner):
    """(name, source, command or None for the source's, setup(case), allowed exit codes, words)."""
    victim = runner.victim
    out = []

    def add(name, source, setup, command=None, allowed=(2,), words=None):
        out.append((name, source, setup, command, allowed, words))

    # 1. A stored --record outside the run folder (a file that holds as many
    # lines as the stopped run's records), also through a link.
    def record_elsewhere(case):
        os.makedirs(victim, exist_ok=True)
        shutil.copy(os.path.join(case, "rec.jsonl"), victim + "/records.txt")
        edit_json(os.path.join(case, "part/run.json"),
                  lambda v: v.update(command=replace_arg(v["command"], "rec.jsonl", victim + "/records.txt")))
    add("record-elsewhere", "sim", record_elsewhere, ["sim", "--resume", "part"], words="--record")
    def record_link(case):
        os.makedirs(victim, exist_ok=True)
        shutil.copy(os.path.join(case, "rec.jsonl"), victim + "/records.txt")
        os.symlink(victim + "/records.txt", os.path.join(case, "link.jsonl"))
        edit_json(os.path.join(case, "part/run.json"),
                  lambda v: v.update(command=replace_arg(v["command"], "rec.jsonl", "link.jsonl")))
    add("record-through-link", "sim", record_link, ["sim", "--resume", "part"], words="--record")
    # 2. A stored --spec-out elsewhere.
    def spec_elsewhere(case):
        edit_json(os.path.join(case, "sp.csv.resume.json"),
                  lambda v: v.update(command=replace_arg(v["command"], "spec.txt", victim + "/x/spec.txt")))
    add("spec-out-elsewhere", "spsa", spec_elsewhere, ["tune", "--resume", "sp.csv"], words="--spec-out")
    # 3. Text that hides on a terminal: in an agent spec, a stored command, a file name.
    open_c1 = "m\u009b.bin"
    def c1_model(case):
        shutil.copy(os.path.join(case, "m.bin"), os.path.join(case, open_c1))
    add("eval-c1", "model", c1_model, ["sim", "--side0", "value:eval=" + open_c1, "--deals", "2"])
    add("eval-bidi", "model", lambda case: None, ["sim", "--side0", "value:eval=m\u202e.bin", "--deals", "2"])
    add("eval-zero-width", "model", lambda case: None, ["sim", "--side0", "value:eval=m\u200b.bin", "--deals", "2"])
    add("tune-agent-c1", "model", c1_model,
        ["tune", "--agent", "value:eval={" + open_c1 + ",m.bin}", "--vs", "random", "--deals", "2"])
    def shard_spec(case):
        path = os.path.join(case, "s0/summary.json")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace('"side1":"random"', '"side1":"value:eval=x\\u202e.bin"'))
    add("merge-shard-spec", "merge", shard_spec)
    def stored_agent(case):
        edit_json(os.path.join(case, "sp.csv.resume.json"),
                  lambda v: v.update(command=replace_arg(v["command"], "heuristic:take_min=1",
                                                         "heuristic:take_min=1\u009b")))
    add("stored-agent-c1", "spsa", stored_agent)
    title = "x\x1b]0;PWNED\x07.jsonl"
    def replay_name(case):
        with open(os.path.join(case, "game.jsonl")) as f:
            record = json.loads(f.readline())
        record["result"]["deal_score"] = [s + 5 for s in record["result"]["deal_score"]]
        record["result"]["totals"] = [s + 5 for s in record["result"]["totals"]]
        with open(os.path.join(case, title), "w") as f:
            f.write(json.dumps(record) + "\n")
    add("replay-name-escape", "records", replay_name, ["replay", title], allowed=(1, 2))
    # 4. A formula at the start of a CSV cell.
    def formula_file(case):
        shutil.copy(os.path.join(case, "m.bin"), os.path.join(case, "=cmd|calc!A0"))
    add("csv-formula", "model", formula_file,
        ["tune", "--agent", "value:eval={=cmd|calc!A0,m.bin}", "--vs", "random", "--deals", "2", "--out",
         "t.csv"], words="other characters")
    def dash_file(case):
        shutil.copy(os.path.join(case, "m.bin"), os.path.join(case, "-m.bin"))
    add("csv-formula-dash", "model", dash_file,
        ["tune", "--agent", "value:eval={-m.bin,m.bin}", "--vs", "random", "--deals", "2", "--out", "t.csv"],
        words="formula")
    def table_formula(case):
        row = '=cmd|calc!A0,"heuristic:freeze=0",2,1,1,1,0.5,0.4,0.6,0,-10,10\n'
        edit_json(os.path.join(case, "sw.csv.resume.json"),
                  lambda v: v.update(table=v["table"].split("\n")[0] + "\n" + row, points=1))
        with open(os.path.join(case, "sw.csv.resume.json")) as f:
            table = json.load(f)["table"]
        with open(os.path.join(case, "sw.csv"), "w") as f:
            f.write(table)
    add("stored-table-formula", "sweep", table_formula)
    # 5. Numbers beyond 64 bits, sums that would overflow, counts that do not add up.
    big = 2 ** 63 - 1
    def done_overflow(file, key):
        def setup(case):
            def change(v):
                target = v["resume"] if "resume" in v else v
                if key == "matches":
                    target["matches"][0]["done"] = [[0, 2 ** 62], [2 ** 62, big]]
                else:
                    target["point"]["done"] = [[0, 2 ** 62], [2 ** 62, big]]
            edit_json(os.path.join(case, file), change)
        return setup
    add("sweep-done-overflow", "sweep", done_overflow("sw.csv.resume.json", "point"))
    add("tournament-done-overflow", "tournament", done_overflow("tpart/run.json", "matches"))
    def tally_limit(file):
        def setup(case):
            edit_json(os.path.join(case, file), lambda v: v.update(tally=[big] * len(v["tally"])))
        return setup
    add("shard-tally-limits", "merge-tally", tally_limit("n0/run.json"))
    add("resume-tally-limits", "sim", tally_limit("part/run.json"))
    def tally_sum(case):
        for d in ("n0", "n1"):
            edit_json(os.path.join(case, d, "run.json"),
                      lambda v: v.update(tally=[(2 ** 62 if i == 0 else w) for i, w in enumerate(v["tally"])]))
    add("shard-tallies-sum", "merge-tally", tally_sum)
    def spsa_batches(case):
        edit_json(os.path.join(case, "sp.csv.resume.json"), lambda v: v.update(batches=2 ** 62))
    add("spsa-batches-beyond", "spsa", spsa_batches)
    # 6. A sample count whose size wraps; a model that claims a huge layer.
    def sample_count(case):
        path = os.path.join(case, "s.bin")
        with open(path, "r+b") as f:
            f.seek(8 + 4 + 4 + 4 + 8)
            f.write(struct.pack("<q", 2 ** 62 + 1))
    add("sample-count-wraps", "samples", sample_count)
    # 7. Dangling links as outputs.
    def curve_link(case):
        os.symlink("m2.bin", os.path.join(case, "c.csv"))
    add("curve-link-to-model", "samples", curve_link,
        ["train", "s.bin", "--out", "m2.bin", "--linear", "--curve", "c.csv"], words="also")
    def dir_link(case):
        os.symlink("DIR", os.path.join(case, "L"))
    add("record-link-into-out", "model", dir_link, ["sim", "--deals", "5", "--record", "L/summary.json", "--out", "DIR"])
    # 8. Row indices repeated, negative, huge, of another shard.
    def rows_edit(change):
        def setup(case):
            os.remove(os.path.join(case, "s0/run.json"))  # no checksums: the rows themselves are checked
            path = os.path.join(case, "s0/deals.csv")
            with open(path) as f:
                lines = f.read().splitlines()
            lines = change(lines)
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
        return setup
    add("rows-repeated", "merge", rows_edit(lambda l: l[:1] + [l[1]] + l[1:]), words="twice")
    add("rows-negative", "merge", rows_edit(lambda l: l[:1] + ["-2" + l[1][l[1].index(","):]] + l[2:]))
    add("rows-huge", "merge", rows_edit(lambda l: l[:1] + [str(big) + l[1][l[1].index(","):]] + l[2:]))
    add("rows-other-shard", "merge", rows_edit(lambda l: l[:1] + ["1" + l[1][l[1].index(","):]] + l[2:]))
    # 9. Special files: FIFOs, devices, links to them, files beyond their size.
    def fifo(path):
        def setup(case):
            p = os.path.join(case, path)
            (shutil.rmtree if os.path.isdir(p) else os.remove)(p)
            os.mkfifo(p)
        return setup
    def to_zero(path):
        def setup(case):
            p = os.path.join(case, path)
            os.remove(p)
            os.symlink("/dev/zero", p)
        return setup
    add("fifo-summary", "merge", fifo("s0/summary.json"))
    add("fifo-rows", "merge", fifo("s0/deals.csv"))
    add("fifo-run-json", "sim", fifo("part/run.json"))
    add("fifo-state", "sweep", fifo("sw.csv.resume.json"))
    add("fifo-records", "sim", fifo("rec.jsonl"))
    add("zero-summary", "merge", to_zero("s0/summary.json"))
    add("zero-rows", "merge", to_zero("s0/deals.csv"))
    add("zero-run-json", "sim", to_zero("part/run.json"))
    add("zero-model", "model", to_zero("m.bin"))
    add("zero-samples", "samples", to_zero("s.bin"))
    add("zero-records", "records", to_zero("game.jsonl"))
    add("zero-tournament", "tournament", to_zero("tpart/tournament.json"))
    add("fifo-pairs", "tournament", fifo("tpart/pairs.txt"))
    def pairs_unlisted(case):
        edit_json(os.path.join(case, "tpart/run.json"),
                  lambda v: v.update(files=[e for e in v["files"] if e["name"] != "pairs.txt"]))
        with open(os.path.join(case, "tpart/pairs.txt"), "ab") as f:
            f.truncate(1 << 40)
    add("pairs-sparse-unlisted", "tournament", pairs_unlisted)
    def grown(path, size):
        def setup(case):
            with open(os.path.join(case, path), "ab") as f:
                f.truncate(size)
        return setup
    add("summary-too-large", "merge", grown("s0/summary.json", 2 << 20))
    add("model-too-large", "model", grown("m.bin", 32 << 20))
    add("record-line-too-long", "records", grown("game.jsonl", 20 << 20))
    # A stopped run's rows: a link, a file run.json does not list, forged rows.
    def rows_link(case):
        os.makedirs(victim, exist_ok=True)
        with open(victim + "/secret.txt", "w") as f:
            f.write("a private line\n")
        os.remove(os.path.join(case, "part/deals.csv"))
        os.symlink(victim + "/secret.txt", os.path.join(case, "part/deals.csv"))
        edit_json(os.path.join(case, "part/run.json"), lambda v: v.pop("files"))
    add("resume-rows-link", "sim", rows_link)
    def rows_forged(case):
        path = os.path.join(case, "part/deals.csv")
        with open(path, "a") as f:
            f.write("=HYPERLINK(1),0,0\n")
        size = os.path.getsize(path)
        edit_json(os.path.join(case, "part/run.json"), lambda v: [
            e.update(bytes=size, fnv1a64=fnv1a(open(path, "rb").read())) for e in v["files"]
            if e["name"] == "deals.csv"])
    add("resume-rows-forged", "sim", rows_forged)
    def rows_repeated(case):
        path = os.path.join(case, "part/deals.csv")
        with open(path) as f:
            lines = f.read().splitlines()
        with open(path, "w") as f:
            f.write("\n".join(lines[:2] + lines[1:-1]) + "\n")  # a row twice, the last one gone
        edit_json(os.path.join(case, "part/run.json"), lambda v: [
            e.update(bytes=os.path.getsize(path), fnv1a64=fnv1a(open(path, "rb").read())) for e in v["files"]
            if e["name"] == "deals.csv"])
    add("resume-rows-repeated", "sim", rows_repeated)
    add("resume-rows-sparse", "sim", grown("part/deals.csv", 1 << 40))
    add("merge-rows-sparse", "merge", lambda case: (os.remove(os.path.join(case, "s0/run.json")),
                                                   grown("s0/deals.csv", 64 << 30)(case)))
    def records_link(case):
        os.makedirs(victim, exist_ok=True)
        shutil.copy(os.path.join(case, "rec.jsonl"), victim + "/records.txt")
        os.symlink(victim + "/records.txt", os.path.join(case, "link.jsonl"))
    add("resume-records-link", "sim", records_link, ["sim", "--resume", "part", "--record", "link.jsonl"])
    # A tuning table in a shared folder that is a link elsewhere.
    def table_link(case):
        os.makedirs(victim, exist_ok=True)
        shutil.move(os.path.join(case, "sw.csv"), victim + "/table.csv")
        os.symlink(victim + "/table.csv", os.path.join(case, "sw.csv"))
    add("tune-table-link", "sweep", table_link)
    # JSON nested without end, within the size caps.
    def nested(case):
        with open(os.path.join(case, "sw.csv.resume.json"), "w") as f:
            f.write("[" * (8 << 20))
    add("state-nested", "sweep", nested)
    # Temporaries planted beside an output: links, a FIFO.
    def planted_links(case):
        os.makedirs(victim, exist_ok=True)
        for name in ("notes.txt", "notes2.txt"):
            with open(victim + "/" + name, "w") as f:
                f.write("mine\n")
        os.symlink(victim + "/notes.txt", os.path.join(case, "out.bin.tmp"))
    add("selfplay-temporary-link", "selfplay", planted_links, allowed=(0,))
    add("selfplay-temporary-fifo", "selfplay", lambda case: os.mkfifo(os.path.join(case, "out.bin.tmp")),
        allowed=(0,))
    def train_link(case):
        planted_links(case)
        os.symlink(victim + "/notes2.txt", os.path.join(case, "m2.bin.tmp"))
    add("train-temporary-link", "samples", train_link, allowed=(0,))
    # An output over a model an agent reads.
    add("selfplay-over-its-model", "selfplay", lambda case: None,
        ["selfplay", "--side0", "value:eval=m.bin", "--deals", "2", "--out", "m.bin"], words="also")
    add("record-over-a-model", "model", lambda case: None,
        ["sim", "--side0", "value:eval=m.bin", "--deals", "2", "--record", "m.bin"], words="also")
    # Names with characters that show as nothing, a name with escapes at a human seat.
    add("invisible-name", "records", lambda case: None,
        ["replay", "x\u00ad\u3164\u115f\ufe0f\u180e\U000e0100.jsonl"])
    add("human-record-name", "records", lambda case: None,
        ["play", "--human", "0", "--record", "x\x1b]0;PWNED\x07.jsonl"], allowed=(0,))
    # Two shards whose tallies each hold a word at its limit.
    def tally_words(case):
        for d in ("n0", "n1"):
            edit_json(os.path.join(case, d, "run.json"),
                      lambda v: v.update(tally=v["tally"][:-3] + [2 ** 61, 0, 0]))
    add("shard-tally-words", "merge-tally", tally_words)
    # And a run's own paths, unchanged: resumed as the user names them.
    add("resume-as-named", "sim", lambda case: None, allowed=(0,))
    return out


# Mutations: each makes one change to one file of a case.
EXTREMES = [2 ** 63 - 1, -2 ** 63, 2 ** 64, 2 ** 62, -1, 0, 1, 2 ** 40, 2 ** 40 + 1, 1.5, -0.0, 1e308, "", None,
            [], {}, True, "x" * 70000, "a\u009bb", "\u202ex", "\x1b[2J", "=cmd|calc!A0", "../../victim/x",
            "/dev/zero"]


def mutate_json(value, rng, victim):
    leaves = []

    def walk(v, parent, key):
        leaves.append((parent, key))
        if isinstance(v, dict):
            for k in list(v):
                walk(v[k], v, k)
        elif isinstance(v, list):
            for i in range(len(v)):
                walk(v[i], v, i)
    walk(value, None, None)
    parent, key = rng.choice(leaves[1:] or leaves)
    if parent is None:
        return rng.choice(EXTREMES)
    choice = rng.random()
    if choice < 0.15 and isinstance(parent, dict):
        del parent[key]
    elif choice < 0.25 and isinstance(parent, list):
        parent.insert(key, parent[key])
    elif choice < 0.35 and isinstance(parent[key], str) and parent[key].startswith(("-", "/")) is False:
        parent[key] = victim + "/" + rng.choice(["x", "y/z", "records.txt"])
    else:
        parent[key] = rng.choice(EXTREMES)
    return value


def mutate_bytes(data, rng):
    data = bytearray(data)
    kind = rng.randrange(6)
    if not data or kind == 0:
        return bytes(data[: rng.randrange(len(data) + 1)])
    at = rng.randrange(len(data))
    if kind == 1:
        data[at] ^= 1 << rng.randrange(8)
    elif kind == 2:
        data[at:at] = rng.choice([b"\x00", b"\xff" * 8, b"\n", b",", b"\xc2\x9b", b"9" * 30, b"-"])
    elif kind == 3 and len(data) >= at + 8:
        data[at:at + 8] = struct.pack("<q", rng.choice([2 ** 63 - 1, -2 ** 63, 2 ** 62 + 1, -1, 1 << 40]))
    elif kind == 4 and len(data) >= at + 4:
        data[at:at + 4] = struct.pack("<I", rng.choice([0xffffffff, 0x7fffffff, 0, 1 << 20]))
    else:
        line_start = data.rfind(b"\n", 0, at) + 1
        line_end = data.find(b"\n", at)
        line_end = len(data) if line_end < 0 else line_end + 1
        data[line_start:line_start] = data[line_start:line_end]
    return bytes(data)


def mutate(case, files, rng, victim):
    """One change to one file of the case; returns what it did."""
    paths = []
    for f in files:
        p = os.path.join(case, f)
        if os.path.isdir(p):
            paths += [os.path.join(p, n) for n in sorted(os.listdir(p))]
        else:
            paths.append(p)
    path = rng.choice(paths)
    name = os.path.relpath(path, case)
    special = rng.random()
    if special < 0.04:
        os.remove(path)
        os.mkfifo(path)
        return f"{name}: a FIFO"
    if special < 0.08:
        os.remove(path)
        os.symlink(rng.choice(["/dev/zero", "/dev/urandom", "/dev/null", victim + "/gone", "."]), path)
        return f"{name}: {os.readlink(path)}"
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".json") and rng.random() < 0.7:
        try:
            value = json.loads(data)
            data = json.dumps(mutate_json(value, rng, victim), separators=(",", ":")).encode()
            with open(path, "wb") as f:
                f.write(data)
            return f"{name}: a JSON value"
        except (ValueError, RecursionError):
            pass
    with open(path, "wb") as f:
        f.write(mutate_bytes(data, rng))
    return f"{name}: bytes"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("canasta")
    parser.add_argument("work")
    parser.add_argument("--mutations", type=int, default=0, help="random mutations to try after the cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=20, help="seconds a command may take")
    a = parser.parse_args()
    runner = Runner(os.path.realpath(a.canasta), os.path.realpath(a.work), a.timeout)
    shutil.rmtree(runner.work, ignore_errors=True)
    os.makedirs(runner.work)
    src = os.path.join(runner.work, "src")
    make_sources(runner, src)
    failures = []
    all_cases = cases(runner)
    for name, source, setup, command, allowed, words in all_cases:
        files, default = READERS[source]
        case = fresh_case(runner, src, name, files)
        setup(case)
        why, _ = judge(runner, name, command or default, case, allowed, words)
        if why:
            failures.append(why)
    rng = random.Random(a.seed)
    tried, answers = {}, {}
    for i in range(a.mutations):
        source = rng.choice(sorted(READERS))
        files, command = READERS[source]
        case = fresh_case(runner, src, "mutation", files)
        what = mutate(case, files, rng, runner.victim)
        why, rc = judge(runner, f"mutation {i}: {what}", command, case, allowed=(0, 1, 2))
        tried[source] = tried.get(source, 0) + 1
        answers[str(rc)] = answers.get(str(rc), 0) + 1
        if why:
            failures.append(why)
        if (i + 1) % 100 == 0:
            print(f"hostile_runs: {i + 1} of {a.mutations} mutations, {len(failures)} failures", flush=True)
    for why in failures:
        print("FAIL: " + why, file=sys.stderr)
    if failures:
        sys.exit(1)
    print(f"hostile_runs: {len(all_cases)} hostile cases refused or done safely; {a.mutations} mutations "
          f"({', '.join(f'{k} {v}' for k, v in sorted(tried.items()))}; exit codes "
          f"{', '.join(f'{k}: {v}' for k, v in sorted(answers.items()))}): no crash, no sanitizer report, "
          f"no hang over {a.timeout:g} s, every error one printable line")


if __name__ == "__main__":
    main()
