"""The game through real OpenSpiel (pyspiel): loaded by name after `import
canasta`, checked by OpenSpiel's random-simulation test on every profile
(with and without serialisation), saved and restored by OpenSpiel's own paths,
played by OpenSpiel's RL environment, its Python ISMCTS bot and evaluate_bots,
observed through every IIGObservationType, and resampled so that every seat's
information state is its own. Skipped where pyspiel does not import (the test
command puts ../shared/openspiel on PYTHONPATH where it exists)."""
import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="no pyspiel (OpenSpiel's Python module): OpenSpiel's checks of the game are skipped")
pytest.importorskip("absl", reason="no absl (python3-absl), which OpenSpiel's Python code imports")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts, random_agent, tabular_qlearner  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import canasta  # noqa: E402  (registers "canasta" with pyspiel)
import worlds  # noqa: E402

PROFILES = canasta.profiles()


def play_random(state, rng, steps=None):
    """Random actions (chance outcomes by their probabilities) until the end, or for `steps` actions."""
    while not state.is_terminal() and steps != 0:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps = None if steps is None else steps - 1
    return state


def test_loads_by_name_string_and_dict():
    game = pyspiel.load_game("canasta")
    assert str(game) == "canasta(profile=classic,seed=1)"
    t = game.get_type()
    assert t.short_name == "canasta" and t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM and t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game.num_players() == 4 and game.num_distinct_actions() == 1144 and game.max_chance_outcomes() == 256
    spanish = pyspiel.load_game("canasta(profile=spanish-3p,target=3000,seed=9)")
    assert spanish.num_players() == 3 and spanish.get_parameters()["target"] == 3000
    assert str(spanish) == "canasta(profile=spanish-3p,seed=9,target=3000)"
    assert pyspiel.load_game(str(spanish)) == spanish
    by_dict = pyspiel.load_game("canasta", {"profile": "spanish-3p", "target": 3000, "seed": 9})
    assert by_dict == spanish and by_dict.engine.profile == "spanish-3p,target=3000"
    assert pickle.loads(pickle.dumps(spanish)) == spanish
    # A profile spec with its overrides reads the same; its canonical string splits them.
    assert pyspiel.load_game("canasta", {"profile": "two-player,target=3000"}) == pyspiel.load_game(
        "canasta(profile=two-player,target=3000)")


def test_every_rule_is_a_parameter():
    spec = pyspiel.load_game("canasta").get_type().parameter_specification
    rules = canasta.rule_parameters()
    assert set(spec) == {"profile", "seed"} | {p["name"] for p in rules}
    assert canasta.profile_parameters("classic,target=3000") == {"profile": "classic", "target": 3000}
    for p in rules:  # each rule set to a value its profile does not have, through a game string and back
        if p["style"] == "choice":
            values = p["choices"]
        else:
            values = [0, 1] if p["style"] == "flag" else [int(p["lo"]), int(p["hi"])]
        tried = 0
        for base in ["classic", "spanish"]:
            for value in values:
                spec_text = f"{base},{p['name']}={value}"
                try:
                    expected = canasta.Game(spec_text).profile
                except ValueError:
                    continue  # a value this profile refuses (canasta rules)
                if expected == base:
                    continue  # the profile's own value
                game = pyspiel.load_game(f"canasta(profile={base},{p['name']}={value})")
                assert game.engine.profile == expected and pyspiel.load_game(str(game)) == game
                tried += 1
        assert tried, p["name"]


@pytest.mark.parametrize("text,error,message", [
    ("canasta(target=5)", ValueError, "rule 'target': 5 is out of range"),
    ("canasta(seed=-1)", ValueError, "parameter 'seed' is 0 to 2147483647"),
    ("canasta(premiums=2)", ValueError, "parameter 'premiums' is 0 or 1"),
    ("canasta(profile=poker)", ValueError, "unknown profile 'poker'"),
    ("canasta(red3=sometimes)", ValueError, "rule 'red3' is one of"),
    ("canasta(colour=red)", pyspiel.SpielError, "Unknown parameter 'colour'"),
    ("canasta(premiums=true)", pyspiel.SpielError, "Wrong type for parameter premiums"),
])
def test_bad_parameters_are_refused(text, error, message):
    with pytest.raises(error, match=message):
        pyspiel.load_game(text)


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("serialize", [False, True])
def test_openspiel_random_simulation(profile, serialize):
    # OpenSpiel's own check, at every step of whole deals: legal actions sorted
    # and empty for the others, unique action strings, clones equal, every
    # observation of every seat of its size and finite, the mask, returns in
    # bounds and zero-sum at the end, and with `serialize` a serialisation
    # round trip through serialize_game_and_state.
    game = pyspiel.load_game("canasta", {"profile": profile, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=2, serialize=serialize, verbose=False)


def test_a_state_is_its_history():
    game = pyspiel.load_game("canasta(profile=two-player,seed=5)")
    first = game.new_initial_state()
    first.clone()
    first.clone()
    game.deserialize_state(first.serialize())
    assert str(game.new_initial_state()) == str(first)  # clones and loads draw no deal
    for deal in [0, 1, 7, 123456789, 256**4 - 1]:
        state = game.new_initial_state()
        for action in canasta.openspiel.deal_actions(deal):
            assert state.is_chance_node() and state.legal_actions() == list(range(256))
            state.apply_action(action)
        assert str(state) == str(canasta.Game("two-player", 5).new_initial_state(seed=5, deal=deal))
    with pytest.raises(ValueError, match="deal number"):
        canasta.openspiel.deal_actions(256**4)
    rng = random.Random(8)
    state = play_random(game.new_initial_state(), rng, 60)
    text = pyspiel.serialize_game_and_state(game, state)
    loaded_game, loaded = pyspiel.deserialize_game_and_state(text)
    assert loaded_game == game and str(loaded) == str(state) and loaded.history() == state.history()
    unpickled = pickle.loads(pickle.dumps(state))
    assert str(unpickled) == str(state) and unpickled.history() == state.history()
    assert unpickled.legal_actions() == state.legal_actions()
    child = state.child(state.legal_actions()[0])
    assert child.history() == state.history() + [state.legal_actions()[0]]
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(ValueError, match="illegal action"):
        state.clone().apply_action(illegal)


def test_rl_environment_random_agents_and_q_learning():
    env = rl_environment.Environment("canasta(profile=two-player)")
    env.seed(1)
    n = env.action_spec()["num_actions"]
    assert n == 1144 and env.observation_spec()["info_state"] == (pyspiel.load_game(
        "canasta(profile=two-player)").information_state_tensor_size(),)
    agents = [random_agent.RandomAgent(p, n) for p in range(2)]
    for _ in range(2):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([agents[seat].step(step).action])
        assert sum(step.rewards) == 0
    env = rl_environment.Environment("canasta(profile=two-player)",
                                     observation_type=rl_environment.ObservationType.OBSERVATION)
    env.seed(2)
    learners = [tabular_qlearner.QLearner(p, n) for p in range(2)]
    for _ in range(3):
        step = env.reset()
        while not step.last():
            seat = step.observations["current_player"]
            step = env.step([learners[seat].step(step).action])
        for learner in learners:
            learner.step(step)
    assert all(len(learner._q_values) > 10 for learner in learners)


class SearchBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTS bot, with the hooks evaluate_bots calls (it searches afresh at every step)."""

    def restart_at(self, state):
        pass

    def inform_action(self, state, player, action):
        pass


@pytest.mark.parametrize("profile,deals", [("two-player", 2), ("classic", 1)])
def test_ismcts_against_random(profile, deals):
    # Each search resamples the root world with resample_from_infostate and
    # asserts that the resampled root has the searcher's information state.
    game = pyspiel.load_game("canasta", {"profile": profile})
    rng = np.random.RandomState(4)
    bot = SearchBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 2.0, 10,
                    random_state=np.random.RandomState(2))
    for deal in range(deals):
        others = [pyspiel.make_uniform_random_bot(p, deal) for p in range(1, game.num_players())]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [bot] + others, rng)
        assert abs(sum(returns)) < 1e-6 and game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()


@pytest.mark.parametrize("profile", PROFILES)
def test_evaluate_bots(profile):
    game = pyspiel.load_game("canasta", {"profile": profile})
    bots = [pyspiel.make_uniform_random_bot(p, 10 + p) for p in range(game.num_players())]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(5))
    assert len(returns) == game.num_players() and abs(sum(returns)) < 1e-6
    assert game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()


KINDS = [(recall, public, private) for recall in (False, True) for public in (False, True)
         for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER,
                         pyspiel.PrivateInfoType.ALL_PLAYERS)]


@pytest.mark.parametrize("recall,public,private", KINDS)
def test_observation_of_every_kind(recall, public, private):
    # OpenSpiel's make_observation and its C++ observer over the game's
    # make_py_observer: the module's tensor and string of the same kind.
    game = pyspiel.load_game("canasta")
    kind = pyspiel.IIGObservationType(perfect_recall=recall, public_info=public, private_info=private)
    observation = make_observation(game, kind)
    same = canasta.IIGObservationType(perfect_recall=recall, public_info=public,
                                      private_info=canasta.PrivateInfoType(int(private)))
    mine = game.engine.make_py_observer(same)
    state = play_random(game.new_initial_state(), random.Random(9), 2)
    observation.set_from(state, 1)  # before the deal: the seat alone
    assert observation.tensor.sum() == 1 and "not dealt yet" in observation.string_from(state, 1)
    play_random(state, random.Random(9), 40)
    for seat in range(game.num_players()):
        observation.set_from(state, seat)
        mine.set_from(state.deal, seat)
        assert np.array_equal(observation.tensor, mine.tensor)
        assert observation.string_from(state, seat) == mine.string_from(state.deal, seat)
    assert list(observation.dict) == list(mine.dict)
    cpp = pyspiel._Observation(game, game.make_observer(kind, {}))  # OpenSpiel's C++ side of the same observer
    cpp.set_from(state, 2)
    mine.set_from(state.deal, 2)
    assert np.array_equal(np.frombuffer(cpp, np.float32), mine.tensor)
    assert state.information_state_tensor(2) == list(state.deal.information_state_tensor(2))
    assert state.observation_string(2) == state.deal.observation_string(2)


@pytest.mark.parametrize("profile", ["classic", "two-player", "spanish-6p3"])
def test_resampled_states_through_pyspiel(profile):
    # What OpenSpiel's ResampleInfostateTest asks (the seat's information state
    # and the player to move unchanged), and more: every seat's information
    # state in the resampled world is the one its own deal gives it.
    game = pyspiel.load_game("canasta", {"profile": profile})
    rng = random.Random(profile)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(2):
        state = game.new_initial_state()
        before_deal = state.resample_from_infostate(0, sampler)
        assert str(before_deal) == str(state) and before_deal.is_chance_node()
        play_random(state, rng, 4)
        while not state.is_terminal():
            if rng.random() < 0.15:
                seat = rng.randrange(game.num_players())
                other = state.resample_from_infostate(seat, sampler)
                assert other.current_player() == state.current_player() and other.history() == state.history()
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
                worlds.check_resampled(game.engine, state.deal, other.deal, seat)
                for q in range(game.num_players()):
                    assert other.information_state_string(q) == other.deal.information_state_string(q)
            play_random(state, rng, 1)
