"""canasta.sim(resume=DIR): a run of the program stopped by a signal goes on
from Python to the files of the uninterrupted run, byte for byte; what the
program refuses to resume, the module refuses too."""
import json
import os
import signal
import subprocess
import time

import pytest

import canasta

CANASTA = os.environ.get("CANASTA", "canasta")


def stopped_run(cwd, args, out, settle=0.5):
    """Runs canasta ARGS --out OUT and stops it with SIGTERM `settle` seconds
    after it started: the rows it kept, or None where it had finished first."""
    proc = subprocess.Popen([CANASTA, *args, "--out", out], cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    staging = os.path.join(cwd, f"{out}.tmp{proc.pid}")  # made before the first deal is played
    deadline = time.monotonic() + 60
    while not os.path.exists(staging) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(settle)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate()
    assert proc.returncode in (0, 128 + signal.SIGTERM), err.decode()
    with open(os.path.join(cwd, out, "run.json")) as f:
        manifest = json.load(f)
    return manifest["rows"] if manifest["status"] == "partial" else None


def stopped_midway(cwd, make_args, n, out):
    """The run of make_args(N) stopped after some rows and before its end, N
    doubled where it ended first; returns its arguments."""
    settle = 0.5
    while True:
        rows = stopped_run(cwd, make_args(n), out, settle)
        if rows:
            return make_args(n)
        if rows is None:
            n *= 2
        else:
            settle *= 2


def resumed_from_python(tmp_path, make_args, n, files, before=lambda: None):
    """The run of make_args(N) stopped midway, then resumed by
    canasta.sim(resume=...): the files `files` are those of the whole run;
    returns what canasta.sim returned. `before` runs before the resume."""
    args = stopped_midway(tmp_path, make_args, n, "part")
    subprocess.run([CANASTA, *args, "--out", "full"], cwd=tmp_path, check=True, stdout=subprocess.DEVNULL)
    before()
    back = canasta.sim(resume=str(tmp_path / "part"), threads=1)
    for name in files:
        assert (tmp_path / "part" / name).read_bytes() == (tmp_path / "full" / name).read_bytes(), name
    with open(tmp_path / "part" / "run.json") as f:
        manifest = json.load(f)
    # run.json keeps the stopped run's own command.
    assert manifest["status"] == "complete" and manifest["command"][1:] == [*args, "--out", "part"]
    assert back["summary"] == json.loads((tmp_path / "full" / "summary.json").read_text())
    return back


def test_a_stopped_run_resumed_from_python(tmp_path):
    def rows_changed_then_mended():
        # The stopped run's rows are checked before they are carried on, as the program checks them.
        rows = tmp_path / "part" / "deals.csv"
        kept = rows.read_bytes()
        rows.write_bytes(kept[:-10])
        with pytest.raises(ValueError, match="deals.csv"):
            canasta.sim(resume=str(tmp_path / "part"))
        rows.write_bytes(kept)

    back = resumed_from_python(
        tmp_path, lambda n: ["sim", "--side0", "heuristic", "--side1", "random", "--threads", "2", "--deals", str(n)],
        20000, ["summary.json", "deals.csv"], rows_changed_then_mended)
    assert len(back["rows"]) == back["summary"]["rows"]
    assert len(canasta.read_run(str(tmp_path / "full"))["rows"]) == len(back["rows"])


def test_whole_games_without_rows(tmp_path):
    back = resumed_from_python(
        tmp_path, lambda n: ["sim", "--side0", "heuristic", "--side1", "heuristic:take_min=5", "--threads", "2",
                             "--rows", "none", "--games", str(n)], 500, ["summary.json"])
    assert back["rows"] is None and not (tmp_path / "part" / "games.csv").exists()


def test_what_cannot_be_resumed(tmp_path):
    subprocess.run([CANASTA, "sim", "--deals", "20", "--out", "done"], cwd=tmp_path, check=True,
                   stdout=subprocess.DEVNULL)
    with pytest.raises(ValueError, match="nothing to resume"):
        canasta.sim(resume=str(tmp_path / "done"))
    with pytest.raises(ValueError, match="not a run directory"):
        canasta.sim(resume=str(tmp_path))
    with pytest.raises(ValueError, match=r"resume takes no other argument than threads \(not deals\)"):
        canasta.sim(resume=str(tmp_path / "done"), deals=5)
    # A run that kept records: those go on with the program, which names the file anew.
    stopped_midway(tmp_path, lambda n: ["sim", "--side0", "heuristic", "--deals", str(n), "--record", "r.jsonl"],
                   4000, "rec")
    before = (tmp_path / "rec" / "run.json").read_bytes()
    with pytest.raises(ValueError, match="--record"):
        canasta.sim(resume=str(tmp_path / "rec"))
    assert (tmp_path / "rec" / "run.json").read_bytes() == before
