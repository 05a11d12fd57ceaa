"""Checks of resampled worlds shared by the tests of the module and of its
OpenSpiel registration: a resampled state is a deal of its own (its deck and
the same actions), and every seat's information state in it is the one that
deal gives that seat, not the one of the deal resampled."""
import re

import numpy as np

DEALT = 405  # the information state tensor's dealt hand: 15 numbers from here
KINDS = ["JK", "2", "3r", "3b", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def kind_counts(cards):
    """Card counts by kind (JK 2 3r 3b 4 ... A) of a hand as the notation writes it."""
    counts = [0] * len(KINDS)
    for card in cards.split():
        counts[KINDS.index(card)] += 1
    return counts


def replay(game, state):
    """The state's deal played again from its start, through the public API
    alone: each seat's hand at the start, and (seat, its hand) after each step."""
    head = state.serialize().rsplit("\n", 1)[0]  # everything but the actions
    world = game.deserialize_state(head + "\nactions")
    dealt = [world.view(seat).hand() for seat in range(game.num_players())]
    after = []
    for action in state.history():
        seat = world.current_player()
        world.apply_action(action)
        after.append((seat, world.view(seat).hand()))
    assert str(world) == str(state)
    return dealt, after


def check_seat_knows_its_world(game, state, seat, dealt, after):
    """The seat's information state (string and tensor) shows the cards of
    this deal: its dealt hand, and its hand after each of its own steps."""
    lines = state.information_state_string(seat).splitlines()
    assert lines[0].startswith(f"dealt: {dealt[seat]};"), (seat, lines[0], dealt[seat])
    for line, (actor, hand) in zip(lines[1:1 + len(after)], after):
        shown = re.search(r"; hand ([^;]*)$", line)
        assert (shown.group(1) if shown else None) == (hand if actor == seat else None), (seat, line, hand)
    tensor = state.information_state_tensor(seat)
    assert list(np.asarray(tensor)[DEALT:DEALT + len(KINDS)]) == kind_counts(dealt[seat])


def check_resampled(game, state, other, seat):
    """`other`, resampled from `state` by `seat`: the seat's view unchanged,
    and every seat's information state the one its own deal gives. Returns the
    seats whose hands differ from the resampled state's."""
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert np.array_equal(other.information_state_tensor(seat), state.information_state_tensor(seat))
    assert other.history() == state.history()
    dealt, after = replay(game, other)
    true_dealt, _ = replay(game, state)
    for q in range(game.num_players()):
        check_seat_knows_its_world(game, other, q, dealt, after)
    return [q for q in range(game.num_players()) if dealt[q] != true_dealt[q]]
