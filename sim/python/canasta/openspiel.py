"""Canasta as an OpenSpiel game, registered with pyspiel when canasta is
imported (sim/doc/python.md, "Through OpenSpiel").

    import canasta, pyspiel
    game = pyspiel.load_game("canasta(profile=spanish-3p,target=3000,seed=9)")

The game's parameters are `profile` (a built-in profile, default classic),
`seed` (0 to 2^31 - 1, default 1) and every rule override of `canasta rules`,
each defaulting to the profile's own value: a whole number for a number, 0 or
1 for a flag (-1, the default: the profile's), a name for a choice ("": the
profile's). str(game) lists the profile and the rules that differ from it,
and loads back to an equal game.

Chance is explicit: a state starts at four chance nodes that draw the deal
number K, a byte at a time (high byte first, 256 equally likely outcomes
each), and the deck is then deal K of the game's seed, as `canasta sim` deals
it (dealer K mod players). So a state is its history: clone(), serialisation
and pickling keep it, and draw nothing. deal_actions(K) gives deal K's chance
actions.
"""
import pyspiel

from . import _canasta

DEAL_BYTES = 4  # chance nodes before the deal
OUTCOMES = 256  # outcomes of each: a byte of the deal number
MAX_SEED = 2**31 - 1  # OpenSpiel's integer parameters are 32-bit

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_UNIFORM = [(a, 1.0 / OUTCOMES) for a in range(OUTCOMES)]
_ALL_OUTCOMES = list(range(OUTCOMES))
_RULES = {p["name"]: p for p in _canasta.rule_parameters()}


def deal_actions(deal):
    """The chance actions that deal deal number `deal` (0 to 256^4 - 1) of the game's seed."""
    if not 0 <= deal < OUTCOMES**DEAL_BYTES:
        raise ValueError(f"a deal number is 0 to {OUTCOMES**DEAL_BYTES - 1}, not {deal}")
    return [deal >> (8 * i) & (OUTCOMES - 1) for i in reversed(range(DEAL_BYTES))]


def _parameter_specification():
    spec = {"profile": "classic", "seed": 1}
    for name, p in _RULES.items():
        spec[name] = "" if p["style"] == "choice" else -1  # the profile's own value
    return spec


_GAME_TYPE = pyspiel.GameType(
    short_name="canasta",
    long_name="Canasta",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_parameter_specification())


def _whole(name, value):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"parameter '{name}' wants a whole number, not {value!r}")
    return value


def _engine_spec(params):
    """The profile spec that the parameters name: the profile, then every rule not left at its default."""
    profile = params.pop("profile", "classic")
    if not isinstance(profile, str):
        raise ValueError(f"parameter 'profile' wants a profile name, not {profile!r}")
    spec = profile
    for name, value in params.items():
        rule = _RULES.get(name)
        if rule is None:
            raise ValueError(f"unknown parameter '{name}' (see canasta rules)")
        if rule["style"] == "choice":
            if not isinstance(value, str):
                raise ValueError(f"parameter '{name}' wants one of {', '.join(rule['choices'])}, not {value!r}")
            if value:
                spec += f",{name}={value}"
            continue
        value = _whole(name, int(value) if isinstance(value, bool) and rule["style"] == "flag" else value)
        if rule["style"] == "flag" and value not in (-1, 0, 1):
            raise ValueError(f"parameter '{name}' is 0 or 1 (-1: the profile's), not {value}")
        if value != -1:
            spec += f",{name}={value}"
    return spec


class CanastaGame(pyspiel.Game):
    """A rules profile and the seed of its deals."""

    def __init__(self, params=None):
        params = dict(params or {})
        seed = _whole("seed", params.pop("seed", 1))
        if not 0 <= seed <= MAX_SEED:
            raise ValueError(f"parameter 'seed' is 0 to {MAX_SEED}, not {seed}")
        engine = _canasta.Game(_engine_spec(params), seed)
        canonical = _canasta.profile_parameters(engine.profile)
        canonical["seed"] = seed
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_distinct_actions(),
            max_chance_outcomes=OUTCOMES,
            num_players=engine.num_players(),
            min_utility=engine.min_utility(),
            max_utility=engine.max_utility(),
            utility_sum=0.0,
            max_game_length=engine.max_game_length())
        super().__init__(_GAME_TYPE, info, canonical)
        self.engine = engine  # the module's own game: the same profile and seed

    def new_initial_state(self):
        """The start of a deal: its chance nodes, before the deal number is drawn."""
        return CanastaState(self)

    def max_chance_nodes_in_history(self):
        return DEAL_BYTES

    def make_py_observer(self, iig_obs_type=None, params=None):
        return CanastaObserver(self.engine.make_py_observer(iig_obs_type, params))


class CanastaState(pyspiel.State):
    """A deal: its chance nodes, then the deal in play (the module's State, `deal`)."""

    def __init__(self, game):
        super().__init__(game)
        self._number = 0  # the deal number's bytes drawn so far
        self._drawn = 0
        self.deal = None  # the module's State once the deal number is drawn

    # The methods OpenSpiel's C++ side calls (the underscored ones only from there).

    def current_player(self):
        deal = self.deal
        return _CHANCE if deal is None else deal.current_player()

    def _legal_actions(self, player):
        return self.deal.legal_actions()

    def chance_outcomes(self):
        return list(_UNIFORM) if self.deal is None else []

    def _apply_action(self, action):
        deal = self.deal
        if deal is not None:
            deal.apply_action(action)
            return
        if not 0 <= action < OUTCOMES:
            raise ValueError(f"a chance outcome is a byte of the deal number, 0 to {OUTCOMES - 1}, not {action}")
        self._number = self._number * OUTCOMES + action
        self._drawn += 1
        if self._drawn == DEAL_BYTES:
            self.deal = self.get_game().engine.new_initial_state(deal=self._number)

    def _action_to_string(self, player, action):
        if player == _CHANCE:
            return f"deal number byte {self._drawn + 1} of {DEAL_BYTES}: {action}"
        return self.get_game().engine.action_to_string(action)

    def is_terminal(self):
        deal = self.deal
        return deal is not None and deal.is_terminal()

    def returns(self):
        deal = self.deal
        return [0.0] * self.num_players() if deal is None else deal.returns()

    def rewards(self):
        return self.returns()

    def __str__(self):
        if self.deal is None:
            return f"deal number: {self._drawn} of {DEAL_BYTES} bytes drawn"
        return str(self.deal)

    # The same answers straight from Python, without a round trip through C++.

    def is_chance_node(self):
        return self.deal is None

    def is_player_node(self):
        deal = self.deal
        return deal is not None and not deal.is_terminal()

    def legal_actions(self, player=None):
        deal = self.deal
        if deal is not None:
            return deal.legal_actions(player)
        if player is None or player == _CHANCE:
            return list(_ALL_OUTCOMES)
        if not 0 <= player < self.num_players():
            raise ValueError(f"no seat {player} in a game of {self.num_players()}")
        return []

    def legal_actions_mask(self, player=None):
        deal = self.deal
        if deal is not None:
            return deal.legal_actions_mask(player)
        return [1] * OUTCOMES if player is None or player == _CHANCE else [0] * OUTCOMES

    def resample_from_infostate(self, player, sampler):
        """A state `player` cannot tell from this one, every other seat's hidden cards drawn again, now and in
        the past (the module's resample_from_infostate). Its history keeps this state's chance actions, which
        no longer name its deal."""
        other = self.clone()
        if self.deal is not None:
            other.deal = self.deal.resample_from_infostate(player, sampler)
        elif not 0 <= player < self.num_players():
            raise ValueError(f"no seat {player} in a game of {self.num_players()}")
        return other


class CanastaObserver:
    """An observer of the kind an IIGObservationType names (OpenSpiel's PyObserver interface)."""

    def __init__(self, observer):
        self._observer = observer
        self.tensor = observer.tensor
        self.dict = observer.dict

    def set_from(self, state, player):
        self._observer.set_from(state.deal, player)

    def string_from(self, state, player):
        return self._observer.string_from(state.deal, player)


pyspiel.register_game(_GAME_TYPE, CanastaGame)
