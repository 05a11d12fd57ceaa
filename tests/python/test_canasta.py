"""The Python module: the game API in OpenSpiel's shape, agents (the
project's and Python callables), simulations with NumPy rows, readers, and
errors as Python exceptions with the program's messages."""
import json
import os
import random
import re
import subprocess

import numpy as np
import pytest

import canasta

CANASTA = os.environ.get("CANASTA", "canasta")


def random_deal(game, seed, deal):
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed, deal=deal)
    while not state.is_terminal():
        assert state.current_player() in range(game.num_players())
        legal = state.legal_actions()
        assert len(legal) == len(set(legal)) > 0
        state.apply_action(rng.choice(legal))
    return state


def test_game_api():
    for profile in ["classic", "two-player,target=3000"]:
        game = canasta.Game(profile)
        assert game.profile == profile
        state = random_deal(game, 3, 0)
        assert state.current_player() == canasta.TERMINAL
        assert state.legal_actions() == []
        returns = state.returns()
        assert len(returns) == game.num_players()
        assert returns[0] == returns[game.num_players() // 2] if game.num_players() == 4 else True
        assert all(0 <= a < game.num_distinct_actions() for a in state.history())


def test_clone_and_serialize():
    game = canasta.Game()
    state = game.new_initial_state(seed=9)
    for _ in range(20):
        state.apply_action(state.legal_actions()[-1])
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[0])
    assert str(copy) != str(state)
    back = game.deserialize_state(state.serialize())
    assert str(back) == str(state)
    assert back.legal_actions() == state.legal_actions()
    with pytest.raises(ValueError):
        game.deserialize_state("canasta-state/1 00")
    with pytest.raises(ValueError):
        canasta.Game("two-player").deserialize_state(state.serialize())


def test_observation_and_notation():
    game = canasta.Game()
    state = game.new_initial_state(seed=2)
    obs = state.observation_tensor(0)
    assert obs.shape == (canasta.OBSERVATION_SIZE,) and obs.dtype == np.float32
    assert obs[:15].sum() == 11  # the seat's own hand: 11 cards
    assert "hand:" in state.information_state_string(0)
    for a in state.legal_actions():
        assert state.string_to_action(state.action_to_string(a)) == a
    with pytest.raises(ValueError, match="unknown action"):
        state.string_to_action("fly away")
    with pytest.raises(ValueError, match="no seat 7"):
        state.observation_tensor(7)
    with pytest.raises(ValueError, match="illegal action"):
        state.apply_action(state.string_to_action("discard 7"))


def test_hidden_cards_stay_hidden():
    # Two states that differ only in seat 1's cards look the same to seat 0.
    game = canasta.Game()
    a = game.new_initial_state(seed=4, deal=0)
    b = game.new_initial_state(seed=4, deal=0)
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert a.information_state_string(0) != a.information_state_string(1)


def test_agents_and_python_agents():
    game = canasta.Game()
    state = game.new_initial_state(seed=5)
    heuristic = canasta.Agent("heuristic:freeze=6")
    assert heuristic.act(state) in state.legal_actions()
    with pytest.raises(ValueError, match="unknown agent 'wizard'"):
        canasta.Agent("wizard")

    seen = []

    def first(view):
        seen.append(view.seat)
        assert view.observation_tensor().shape == (canasta.OBSERVATION_SIZE,)
        return view.legal_actions()[0]

    end = canasta.play_deal(game.new_initial_state(seed=6), ["heuristic", first, "random", first], seed=1)
    assert end.is_terminal() and seen and set(seen) <= {1, 3}

    def cheat(view):
        return 12345

    with pytest.raises(ValueError, match="illegal action"):
        canasta.play_deal(game.new_initial_state(seed=6), [cheat] * 4)


def test_sim_rows_and_summary(tmp_path):
    run = canasta.sim(side0="heuristic", side1="random", deals=500, seed=7, threads=2)
    rows, summary = run["rows"], run["summary"]
    assert summary["rows"] == len(rows) == 1000 and summary["status"] == "complete"
    assert rows.dtype.names[:3] == ("deal", "swapped", "end")
    a_score = np.where(rows["swapped"] == 1, rows["score"][:, 1] - rows["score"][:, 0], rows["score"][:, 0] - rows["score"][:, 1])
    assert summary["a_won"] == int((a_score > 0).sum())
    # The same numbers as the program's run.
    out = tmp_path / "run"
    subprocess.run([CANASTA, "sim", "--side0", "heuristic", "--side1", "random", "--deals", "500", "--seed", "7",
                    "--out", str(out)], check=True, capture_output=True)
    assert json.loads((out / "summary.json").read_text()) == summary
    back = canasta.read_run(str(out))
    assert back["summary"] == summary and np.array_equal(back["rows"], rows)
    games = canasta.sim(side0="heuristic", side1="random", games=6)
    assert len(games["rows"]) == 12 and "deals" in games["rows"].dtype.names
    with pytest.raises(ValueError, match="parameter 'c' of agent 'ismcts' needs a number"):
        canasta.sim(side0="ismcts:c=nan")


def test_sim_at_a_table_of_three_sides(tmp_path):
    run = canasta.sim(profile="spanish-3p", side0="heuristic", side1="random", side2="basic", deals=40, seed=3)
    rows, summary = run["rows"], run["summary"]
    assert len(rows) == 6 * 40 and rows["score"].shape == (240, 3)  # every order of the three agents
    assert summary["config"]["side2"] == "basic"
    out = tmp_path / "three"
    subprocess.run([CANASTA, "sim", "--profile", "spanish-3p", "--side0", "heuristic", "--side1", "random",
                    "--side2", "basic", "--deals", "40", "--seed", "3", "--out", str(out)],
                   check=True, capture_output=True)
    back = canasta.read_run(str(out))
    assert back["summary"] == summary and np.array_equal(back["rows"], rows)


def test_read_run_without_rows(tmp_path):
    # sim --rows none keeps the summary alone: read_run gives it, with rows None.
    for args, kwargs in [(["--deals", "20"], {"deals": 20}), (["--games", "2"], {"games": 2})]:
        out = tmp_path / ("games" if "games" in kwargs else "deals")
        subprocess.run([CANASTA, "sim", *args, "--rows", "none", "--out", str(out)], check=True, capture_output=True)
        assert sorted(os.listdir(out)) == ["run.json", "summary.json"]
        back = canasta.read_run(str(out))
        assert back["rows"] is None
        assert back["summary"] == canasta.sim(**kwargs)["summary"]
    # A rows file that run.json names but that is gone is missing, not "no rows".
    out = tmp_path / "kept"
    subprocess.run([CANASTA, "sim", "--deals", "20", "--out", str(out)], check=True, capture_output=True)
    assert len(canasta.read_run(str(out))["rows"]) == 20
    (out / "deals.csv").unlink()
    with pytest.raises(FileNotFoundError, match="deals.csv"):
        canasta.read_run(str(out))


# What canasta sim refuses, canasta.sim refuses too (ValueError), instead of running something else.
REFUSED = [
    ({"deals": -1}, ["--deals", "-1"], "deals: value -1 not in range 1 to"),
    ({"deals": 0}, ["--deals", "0"], "deals: value 0 not in range 1 to"),
    ({"games": 0}, ["--games", "0"], "games: value 0 not in range 1 to"),
    ({"deals": 10, "games": 2}, ["--deals", "10", "--games", "2"], "deals excludes games"),
    ({"games": 2, "sprt": (0, 10)}, ["--games", "2", "--sprt", "0,10"], "games excludes sprt"),
    ({"shard": "0/2", "sprt": (0, 10)}, ["--shard", "0/2", "--sprt", "0,10"], "shard excludes sprt"),
    ({"seed": -1}, ["--seed", "-1"], "seed: value -1 not in range 0 to"),
    ({"threads": -1}, ["--threads", "-1"], "threads: value -1 not in range 0 to 1024"),
    ({"threads": 1025}, ["--threads", "1025"], "threads: value 1025 not in range 0 to 1024"),
    ({"seats": {7: "random"}}, ["--seat", "7=random"], "no seat 7 in a game of 4"),
    ({"side2": "basic"}, ["--side2", "basic"], "needs a table of three sides"),
]


@pytest.mark.parametrize("kwargs,args,message", REFUSED, ids=[" ".join(a) for _, a, _ in REFUSED])
def test_sim_refuses_what_the_program_refuses(tmp_path, kwargs, args, message):
    done = subprocess.run([CANASTA, "sim", *args, "--out", str(tmp_path / "run")], capture_output=True, text=True)
    assert done.returncode != 0 and not (tmp_path / "run").exists(), done.stdout
    with pytest.raises(ValueError, match=re.escape(message)):
        canasta.sim(**kwargs)


def test_sim_argument_types():
    with pytest.raises(TypeError, match="deals wants a whole number"):
        canasta.sim(deals=1.5)
    with pytest.raises(TypeError, match=r"seats maps seat numbers \(int\) to agent specs"):
        canasta.sim(deals=10, seats={"2": "heuristic"})
    with pytest.raises(TypeError, match=r"seats maps seat numbers \(int\) to agent specs"):
        canasta.sim(deals=10, seats=[2])
    with pytest.raises(ValueError, match="no seat -1"):  # a Python agent for no seat
        canasta.sim(deals=10, seats={-1: lambda view: view.legal_actions()[0]})
    # NumPy integers count as whole numbers; without deals or games, 10,000 deals.
    assert canasta.sim(deals=np.int64(3), seats={np.int64(2): "heuristic"})["summary"]["config"]["deals"] == 3
    assert len(canasta.sim(threads=1)["rows"]) == 10000


def test_readers_raise_as_python_does(tmp_path):
    missing = str(tmp_path / "nothing.jsonl")
    for read in [canasta.read_records, canasta.read_samples, canasta.read_run]:
        with pytest.raises(FileNotFoundError) as e:
            read(missing)
        assert e.value.filename == missing
    with pytest.raises(IsADirectoryError, match="a folder, not a record file"):
        canasta.read_records(str(tmp_path))
    with pytest.raises(IsADirectoryError, match="a folder, not a sample file"):
        canasta.read_samples(str(tmp_path))
    with pytest.raises(NotADirectoryError, match="not a folder"):
        canasta.read_run(__file__)
    with pytest.raises(FileNotFoundError, match="summary.json"):  # a folder that holds no run
        canasta.read_run(str(tmp_path))


def test_legal_actions_of_a_player():
    # As in OpenSpiel: a seat not to act has no legal actions; a player that is no seat raises.
    state = canasta.Game().new_initial_state(seed=2)
    actor = state.current_player()
    for p in range(4):
        assert (state.legal_actions(p) == state.legal_actions()) == (p == actor)
        assert (sum(state.legal_actions_mask(p)) > 0) == (p == actor)
    for p in [4, 9, -1, canasta.TERMINAL]:
        with pytest.raises(ValueError, match=f"no seat {p} in a game of 4"):
            state.legal_actions(p)
        with pytest.raises(ValueError, match=f"no seat {p} in a game of 4"):
            state.legal_actions_mask(p)


def test_python_agent_in_a_sim():
    def greedy(view):
        legal = view.legal_actions()
        return legal[0]

    run = canasta.sim(side0=greedy, side1="random", deals=100, threads=2)
    assert run["summary"]["config"]["side0"] == "python:greedy"
    assert run["summary"]["config"]["duplicate"] is True
    assert len(run["rows"]) == 200


def test_records(tmp_path):
    # Random deals played from Python, recorded, replay clean with canasta replay.
    game = canasta.Game()
    path = tmp_path / "python.jsonl"
    path.write_text("".join(random_deal(game, 11, k).record_line() + "\n" for k in range(5)))
    done = subprocess.run([CANASTA, "replay", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "5 single deals" in done.stdout
    records = canasta.read_records(str(path))
    assert len(records) == 5 and records[0]["format"] == "canasta-record/1"
    with pytest.raises(ValueError, match="the deal is not over"):
        game.new_initial_state().record_line()
    (tmp_path / "bad.jsonl").write_text('{"format":"canasta-record/1"}\n')
    with pytest.raises(ValueError, match="bad.jsonl:1"):
        canasta.read_records(str(tmp_path / "bad.jsonl"))



HOSTILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "hostile")
# C0 and C1 controls (tab aside), DEL, bidi and zero-width characters, BOM.
UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]")


def test_hostile_records_are_refused(tmp_path):
    """Records from strangers (tests/hostile): each is refused with a
    ValueError on one printable line; a file name with controls in it is
    quoted printably too."""
    paths = [os.path.join(HOSTILE, f) for f in sorted(os.listdir(HOSTILE)) if f.endswith(".jsonl")]
    assert len(paths) >= 40
    sneaky = tmp_path / "evil\x1b[2J\u202e.jsonl"
    sneaky.write_bytes(open(paths[0], "rb").read())
    for path in paths + [str(sneaky)]:
        with pytest.raises(ValueError) as e:
            canasta.read_records(path)
        assert not UNSAFE.search(str(e.value)), repr(str(e.value))


def test_read_samples(tmp_path):
    path = tmp_path / "samples.bin"
    subprocess.run([CANASTA, "selfplay", "--deals", "50", "--per-deal", "2", "--out", str(path)],
                   check=True, capture_output=True)
    s = canasta.read_samples(str(path))
    assert s["profile"] == "classic" and s["agents"] == "heuristic against heuristic" and s["seed"] == 1
    assert s["x"].shape == (100, 322) and s["x"].dtype == np.float32
    assert len(s["margin"]) == len(s["deal"]) == 100 and set(s["deal"]) == set(range(50))
    # The features of a sample are those of the seat to act at that point of the deal.
    assert (s["x"][:, :15].sum(axis=1) >= 0).all()
    with pytest.raises(ValueError, match="is not a sample file"):
        canasta.read_samples(__file__)
