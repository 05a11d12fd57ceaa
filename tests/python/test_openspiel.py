"""The game as OpenSpiel code sees it, in the style of OpenSpiel's random
simulation test: for random deals of every profile, at every step, clone,
serialisation, pickling and undo round trips, legal actions ascending and
unique, tensors of fixed shape that ignore hidden cards, returns only at the
end and zero-sum; resampled worlds in which every seat's information state
is its own; observers of every kind; serialised states refused when out of
range. Needs no OpenSpiel (test_pyspiel.py runs OpenSpiel's own checks)."""
import copy
import pickle
import random

import numpy as np
import pytest

import canasta
import worlds

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
    with pytest.raises(ValueError, match="bad dealer on its deal line: '9'"):
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


@pytest.mark.parametrize("profile", canasta.profiles())
def test_every_seat_knows_its_own_resampled_world(profile):
    # A resampled state is a deal of its own: replayed from its deck, each
    # seat's dealt hand and hand after each of its steps are those its
    # information state shows, and the resampling seat's view is unchanged.
    game = canasta.load_game("canasta", {"profile": profile})
    rng = random.Random("worlds " + profile)
    redrawn = checked = 0
    for deal in range(6):
        state = game.new_initial_state(seed=11, deal=deal)
        while not state.is_terminal():
            if rng.random() < 0.1:
                seat = rng.randrange(game.num_players())
                other = state.resample_from_infostate(seat, rng.random)
                redrawn += len(worlds.check_resampled(game, state, other, seat))
                checked += 1
                if other.history():  # a resampled deal is a deal: it can be undone
                    back = other.clone()
                    back.undo_action(other.full_history()[-1].player, other.history()[-1])
                    assert back.history() == other.history()[:-1]
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 20 and redrawn > checked * (game.num_players() - 1) / 2  # other seats' dealt hands change


def states_after(game, rng, wanted, deals):
    """States of random deals right after a step that `wanted(state, action)` picks."""
    found = []
    for deal in range(deals):
        state = game.new_initial_state(seed=21, deal=deal)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            hit = wanted(state, action)
            state.apply_action(action)
            if hit and not state.is_terminal():
                found.append(state.clone())
    return found


@pytest.mark.parametrize("profile,kind", [("classic", "ask"), ("two-player", "black threes")])
def test_resampling_keeps_what_a_bound_hand_showed(profile, kind):
    # A seat that asked "may I go out?" (and heard no), or melded black
    # threes (and must go out), held a hand few others could have held: its
    # past in every resampled world still makes each of its actions legal.
    game = canasta.load_game("canasta", {"profile": profile})
    rng = random.Random(kind)
    if kind == "ask":
        pick = lambda s, a: s.action_to_string(a) == "no"
    else:
        pick = lambda s, a: s.action_to_string(a).startswith("meld 3b")
    states = states_after(game, rng, pick, 150)[:6]
    assert states, f"no {kind} in 150 random deals"
    for state in states:
        for seat in range(game.num_players()):
            changed = set()
            for _ in range(3):
                other = state.resample_from_infostate(seat, rng.random)
                changed.update(worlds.check_resampled(game, state, other, seat))
            assert changed  # other seats' hands differ in some world


def test_serialized_states_out_of_range_are_refused():
    game = canasta.load_game("canasta")
    state = game.new_initial_state(seed=2, deal=3)
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    text = state.serialize()
    head, deck = text.splitlines()[2].rsplit(" ", 1)
    assert head == "deal 2 3 3 0 0"
    line = lambda middle, d=deck: text.replace(f"{head} {deck}", f"{middle} {d}")
    bad = [
        (line("deal 2 3 3 2147483647 0"), "score before the deal"),
        (line("deal 2 3 3 -2147483648 0"), "score before the deal"),
        (line("deal 2 3 3 5000 4000"), "game already over"),
        (line("deal 2 3 3 0 0x1"), "score before the deal"),
        (line("deal -1 3 3 0 0"), "bad seed"),
        (line("deal 18446744073709551616 3 3 0 0"), "bad seed"),
        (line("deal 2 -1 3 0 0"), "bad deal index"),
        (line("deal 2 9223372036854775808 3 0 0"), "bad deal index"),
        (line("deal 2 3 4 0 0"), "bad dealer"),
        (line("deal 2 3 3 0"), "bad score before the deal"),
        (line("deal 2 3 3 0 0", "0"), "deck of 1 cards"),
        (line("deal 2 3 3 0 0", deck[:-1]), "deck of 107 cards"),
        (line("deal 2 3 3 0 0", "e" + deck[1:]), "not the profile's pack"),
        (line("deal 2 3 3 0 0", "z" + deck[1:]), "not the profile's pack"),
        (line("deal 2 3 3 0 0", deck + " 7"), "more on its deal line"),
        (text + " 99999", "bad action id"),
        (text + " x", "bad action id"),
        (text + "\nmore", "more lines"),
        (text.rsplit("\n", 1)[0], "no actions line"),
        (text.replace("canasta-state/3", "canasta-state/9"), "not a state serialized by this version"),
    ]
    for wrong, message in bad:
        with pytest.raises(ValueError, match=message):
            game.deserialize_state(wrong)
    # Scores a game reaches: behind, ahead, below zero, tied at the target
    # (played on in classic; a draw, so over, in spanish).
    for scores in ["4995 -2300", "-30000 4990", "5200 5200"]:
        assert game.deserialize_state(line(f"deal 2 3 3 {scores}")).history() == state.history()
    spanish = canasta.load_game("canasta(profile=spanish)")
    other = spanish.new_initial_state(seed=2, deal=3).serialize().replace(" 3 3 0 0 ", " 3 3 5200 5200 ")
    with pytest.raises(ValueError, match="game already over"):
        spanish.deserialize_state(other)
    # The deal line of the previous version reads the same.
    assert game.deserialize_state(text.replace("canasta-state/3", "canasta-state/2")) == state
    with pytest.raises(ValueError, match="pickled state"):
        canasta.State.__new__(canasta.State).__setstate__(("classic", 1))


OBSERVER_KINDS = [(recall, public, private) for recall in (False, True) for public in (False, True)
                  for private in (canasta.PrivateInfoType.NONE, canasta.PrivateInfoType.SINGLE_PLAYER,
                                  canasta.PrivateInfoType.ALL_PLAYERS)]


@pytest.mark.parametrize("recall,public,private", OBSERVER_KINDS)
def test_observer_kinds(recall, public, private):
    # Public facts, the seat's own cards or every seat's, now or since the
    # deal began; each kind's tensor is its dict's pieces end to end, and
    # shows what its kind shows and nothing else.
    game = canasta.load_game("canasta")
    kind = canasta.IIGObservationType(perfect_recall=recall, public_info=public, private_info=private)
    observer = game.make_py_observer(kind)
    pieces = list(observer.dict)
    assert sum(v.size for v in observer.dict.values()) == observer.tensor.size
    own, everyone = private == canasta.PrivateInfoType.SINGLE_PLAYER, private == canasta.PrivateInfoType.ALL_PLAYERS
    if recall:
        rows = game.max_game_length()
        width = (36 if public else 0) + (15 if private != canasta.PrivateInfoType.NONE else 0)
        assert ("history" in pieces) == (width > 0) and ("dealt_red_threes" in pieces) == public
        assert ("dealt_hand" in pieces) == own and ("dealt_hands" in pieces) == everyone
        if width:
            assert observer.dict["history"].shape == (rows, width)
    else:
        assert ("hand" in pieces) == own and ("hands" in pieces) == everyone and ("pile" in pieces) == public
        assert pieces[-2:] == ["seat", "actor"] if public else pieces[-1] == "seat"
    rng = random.Random(f"{recall} {public} {private}")
    state = game.new_initial_state(seed=4, deal=1)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(game.num_players()):
        observer.set_from(state, seat)
        tensor, text = observer.tensor.copy(), observer.string_from(state, seat)
        assert ("hand:" in text) == own and ("hand of seat" in text) == everyone and ("pile:" in text) == public
        for by in range(game.num_players()):  # worlds the kind cannot tell apart keep its tensor and string
            other = state.resample_from_infostate(by, rng.random)
            observer.set_from(other, seat)
            same = not everyone and (by == seat or not own)
            if same:
                assert np.array_equal(observer.tensor, tensor) and observer.string_from(other, seat) == text
    default = game.make_py_observer(canasta.IIGObservationType(perfect_recall=recall))
    default.set_from(state, 2)
    expected = state.information_state_tensor(2) if recall else state.observation_tensor(2)
    assert np.array_equal(default.tensor, expected)
