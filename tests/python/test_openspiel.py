"""The game as OpenSpiel code sees it, in the style of OpenSpiel's random
simulation test: for random deals of every profile, at every step, clone,
serialisation, pickling and undo round trips, legal actions ascending and
unique, tensors of fixed shape that ignore hidden cards, returns only at the
end and zero-sum."""
import copy
import pickle
import random

import numpy as np
import pytest

import canasta

DEALS = {"classic": 60, "two-player": 40}  # other profiles: 25 deals each


def check_step(game, state, rng, prev):
    n = game.num_distinct_actions()
    players = game.num_players()
    assert not state.is_chance_node() and not state.is_simultaneous_node()
    assert state.chance_outcomes() == []
    assert state.is_player_node() == (not state.is_terminal())
    assert state.move_number() == len(state.history()) <= game.max_game_length()
    assert [pa.action for pa in state.full_history()] == state.history()
    assert state.history_str() == " ".join(map(str, state.history()))
    # Copies and serialisation.
    text = state.serialize()
    back = game.deserialize_state(text)
    assert back == state and back.serialize() == text and back.history() == state.history()
    assert state.clone() == state and copy.deepcopy(state) == state
    assert pickle.loads(pickle.dumps(state)) == state
    # Tensors of fixed shape, for every seat.
    for p in range(players):
        assert state.observation_tensor(p).shape == (game.observation_tensor_size(),)
        assert state.information_state_tensor(p).shape == tuple(game.information_state_tensor_shape())
    if state.is_terminal():
        assert state.current_player() == canasta.TERMINAL and state.legal_actions() == []
        assert state.legal_actions(state.current_player()) == []  # as OpenSpiel code asks at the end
        assert all(state.legal_actions(p) == [] for p in range(players))
        return None
    actor = state.current_player()
    assert 0 <= actor < players
    assert state.returns() == [0.0] * players and state.rewards() == [0.0] * players
    legal = state.legal_actions()
    assert legal and legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < n
    assert legal == state.legal_actions(actor)
    assert all(state.legal_actions(p) == [] for p in range(players) if p != actor)
    with pytest.raises(ValueError, match=f"no seat {players}"):  # a player that is no seat, as observation_tensor
        state.legal_actions(players)
    mask = state.legal_actions_mask()
    assert len(mask) == n and [i for i, m in enumerate(mask) if m] == legal
    a = rng.choice(legal)
    assert state.string_to_action(state.action_to_string(a)) == a
    assert state.string_to_action(actor, state.action_to_string(actor, a)) == a
    # Hidden cards: a state the seat cannot tell apart, its hidden cards drawn again.
    seat = rng.randrange(players)
    other = state.resample_from_infostate(seat, rng.random)
    assert other.history() == state.history()
    assert np.array_equal(other.observation_tensor(seat), state.observation_tensor(seat))
    assert np.array_equal(other.information_state_tensor(seat), state.information_state_tensor(seat))
    assert other.observation_string(seat) == state.observation_string(seat)
    assert other.information_state_string(seat) == state.information_state_string(seat)
    if seat == actor:
        assert other.legal_actions() == legal
    assert game.deserialize_state(other.serialize()) == other
    # child, apply and undo agree.
    child = state.child(a)
    before = state.clone()
    state.apply_action(a)
    assert child == state
    if prev is not None and rng.random() < 0.2:
        undone = state.clone()
        undone.undo_action(actor, a)
        assert undone == before
    return str(other) != str(before)


@pytest.mark.parametrize("profile", canasta.profiles())
def test_random_simulation(profile):
    game = canasta.load_game("canasta", {"profile": profile})
    assert game.num_distinct_actions() <= 3000
    rng = random.Random(profile)
    resampled_differently = 0
    low, high = game.min_utility(), game.max_utility()
    for _ in range(DEALS.get(profile, 25)):
        state = game.new_initial_state()
        prev = None
        while True:
            differed = check_step(game, state, rng, prev)
            if differed is None:
                break
            resampled_differently += differed
            prev = state
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9 and state.rewards() == returns
        assert all(low <= r <= high for r in returns)
        assert any(r != 0 for r in returns) or len(set(state.scores())) == 1
        for p in range(game.num_players()):  # partners share their side's return
            assert returns[p] == returns[p % len(state.scores())]
            assert state.player_return(p) == returns[p]
    assert resampled_differently > 0  # the resampled hidden cards are not the same ones


def test_load_game_and_parameters():
    assert canasta.registered_names() == ["canasta"]
    g = canasta.load_game("canasta(profile=two-player,target=3000,seed=9)")
    assert g.get_parameters() == {"profile": "two-player,target=3000", "seed": 9}
    assert str(g) == "canasta(profile=two-player,target=3000,seed=9)"
    assert canasta.load_game(str(g)).get_parameters() == g.get_parameters()
    d = canasta.load_game("canasta", {"profile": "two-player", "target": 3000, "seed": 9})
    assert d.get_parameters() == g.get_parameters()
    assert canasta.load_game("canasta").get_parameters() == {"profile": "classic", "seed": 1}
    assert pickle.loads(pickle.dumps(g)).get_parameters() == g.get_parameters()
    for bad, message in [("poker", "unknown game 'poker'"), ("canasta(profile=poker)", "unknown profile 'poker'"),
                         ("canasta(seed=x)", "parameter 'seed' wants a whole number"),
                         ("canasta(profile)", "key=value"), ("canasta(target=3)", "target")]:
        with pytest.raises(ValueError, match=message):
            canasta.load_game(bad)


def test_game_type_and_sizes():
    game = canasta.load_game("canasta")
    t = game.get_type()
    assert t.short_name == "canasta" and t.dynamics == canasta.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == canasta.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == canasta.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == canasta.GameType.Utility.ZERO_SUM and t.reward_model == canasta.GameType.RewardModel.TERMINAL
    assert t.provides_information_state_tensor and t.provides_observation_tensor
    assert game.num_players() == 4 and game.num_distinct_actions() == 1144 and game.max_chance_outcomes() == 0
    assert game.utility_sum() == 0 and game.min_utility() == -game.max_utility() < 0
    assert game.observation_tensor_shape() == [canasta.OBSERVATION_SIZE]
    assert game.information_state_tensor_size() == game.information_state_tensor_shape()[0]
    assert game.information_state_tensor_size() > game.observation_tensor_size()


def test_new_initial_state_deals_in_turn():
    game = canasta.load_game("canasta")
    deals = [str(game.new_initial_state()) for _ in range(20)]
    assert len(set(deals)) == 20
    assert str(canasta.load_game("canasta").new_initial_state()) == deals[0]  # reproducible
    assert str(game.new_initial_state(seed=1, deal=3)) == deals[3]
    # The same state serialises to the same text.
    texts = {game.new_initial_state(seed=5).serialize() for _ in range(50)}
    assert len(texts) == 1


def test_bad_ids_and_text_raise():
    game = canasta.load_game("canasta")
    state = game.new_initial_state(seed=2)
    for bad in [-1, game.num_distinct_actions(), 123456]:
        with pytest.raises(ValueError, match="no action id"):
            state.action_to_string(bad)
        with pytest.raises(ValueError, match="no action id"):
            state.apply_action(bad)
    with pytest.raises(ValueError, match="illegal action"):
        state.apply_action(state.string_to_action("discard 7"))
    with pytest.raises(ValueError, match="no action of this state to undo"):
        state.undo_action(0, 0)
    with pytest.raises(ValueError, match="not a state serialized"):
        game.deserialize_state("canasta-state/1 00")
    text = state.serialize()
    with pytest.raises(ValueError, match="another profile"):
        canasta.load_game("canasta(profile=two-player)").deserialize_state(text)
    with pytest.raises(ValueError, match="bad deal line"):
        game.deserialize_state(text.replace("deal 2 0 0", "deal 2 0 9"))
    with pytest.raises(ValueError, match="illegal action"):
        game.deserialize_state(text.replace("actions", "actions 1143"))


def test_observers():
    game = canasta.load_game("canasta")
    state = game.new_initial_state(seed=3)
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    plain = game.make_py_observer()
    plain.set_from(state, 1)
    assert np.array_equal(plain.tensor, state.observation_tensor(1))
    assert plain.dict["hand"].sum() == len(state.view(1).hand().split())
    assert plain.dict["melds"].shape == (3, 3, 15)
    assert plain.string_from(state, 1) == state.observation_string(1)
    recall = game.make_py_observer(canasta.IIGObservationType(perfect_recall=True))
    recall.set_from(state, 1)
    assert np.array_equal(recall.tensor, state.information_state_tensor(1))
    assert recall.dict["history"].shape == (game.max_game_length(), 51)
    assert recall.dict["history"][:, 0].sum() == state.move_number()  # one valid row a step
    assert recall.string_from(state, 1) == state.information_state_string(1)


def test_the_information_state_remembers_what_the_observation_forgets():
    # Two orders of the same discards leave the same table but different histories.
    game = canasta.load_game("canasta")
    state = game.new_initial_state(seed=4)
    assert state.observation_tensor(0).shape != state.information_state_tensor(0).shape
    a = state.clone()
    for _ in range(8):
        a.apply_action(a.legal_actions()[-1])
    assert a.information_state_tensor(0)[canasta.OBSERVATION_SIZE:].any()
    assert "seat" in a.information_state_string(0).splitlines()[1]
