"""The module's readers on files from strangers: the program's limits. A
FIFO, a device or a link to one is refused at once (never waited on, never
read without end), a sample count whose size would wrap is refused with a
ValueError, not a huge allocation, and a file beyond its format's size is
refused."""
import os
import struct
import subprocess

import pytest

import canasta

CANASTA = os.environ.get("CANASTA", "canasta")


def run(*args, cwd):
    subprocess.run([CANASTA, *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def test_special_files_are_refused_at_once(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    os.symlink("/dev/zero", tmp_path / "zero")
    for read in [canasta.read_records, canasta.read_samples]:
        for name in ["fifo", "zero"]:
            with pytest.raises(ValueError, match="not a"):
                read(str(tmp_path / name))
    run("sim", "--deals", "4", "--out", "r", cwd=tmp_path)
    os.remove(tmp_path / "r" / "summary.json")
    os.mkfifo(tmp_path / "r" / "summary.json")
    with pytest.raises(ValueError, match="FIFO"):
        canasta.read_run(str(tmp_path / "r"))
    os.remove(tmp_path / "r" / "summary.json")
    os.symlink("/dev/zero", tmp_path / "r" / "summary.json")
    with pytest.raises(ValueError, match="device"):
        canasta.read_run(str(tmp_path / "r"))


def test_a_sample_count_that_wraps(tmp_path):
    run("selfplay", "--deals", "4", "--out", "s.bin", cwd=tmp_path)
    with open(tmp_path / "s.bin", "r+b") as f:
        f.seek(8 + 4 + 4 + 4 + 8)  # magic, format, feature version, features, seed: the count
        f.write(struct.pack("<q", 2**62 + 1))
    with pytest.raises(ValueError, match="should hold"):
        canasta.read_samples(str(tmp_path / "s.bin"))


def test_a_summary_beyond_its_size(tmp_path):
    run("sim", "--deals", "4", "--out", "r", cwd=tmp_path)
    with open(tmp_path / "r" / "summary.json", "ab") as f:
        f.truncate(2 << 20)
    with pytest.raises(ValueError, match="more than"):
        canasta.read_run(str(tmp_path / "r"))


def test_policy_samples_read_and_checked(tmp_path):
    run("selfplay", "--policy", "--deals", "6", "--share", "0.5", "--out", "p.bin", cwd=tmp_path)
    s = canasta.read_policy_samples(str(tmp_path / "p.bin"))
    n = len(s["deal"])
    assert n > 0 and s["x"].shape[0] == n and len(s["offset"]) == n + 1
    assert s["offset"][-1] == len(s["ids"]) == len(s["visits"])
    for i in range(n):
        k = s["offset"][i + 1] - s["offset"][i]
        assert k >= 2 and s["played"][i] < k
        assert (s["ids"][s["offset"][i]:s["offset"][i + 1]] < s["actions"]).all()
    with open(tmp_path / "p.bin", "r+b") as f:
        f.seek(32)  # the count
        f.write(struct.pack("<q", 2**62))
    with pytest.raises(ValueError, match="claims"):
        canasta.read_policy_samples(str(tmp_path / "p.bin"))
