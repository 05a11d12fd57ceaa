// The game and its states as the Python module holds them (sim/doc/python.md):
// a profile with the seed of its deals, and a deal in play with every step
// since its start. Bound by bind_game.cpp and bind_state.cpp.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

#include "canasta/action_ids.h"
#include "canasta/engine.h"
#include "observation.h"

namespace canasta::python {

namespace py = pybind11;

constexpr int kTerminalPlayer = -4;  // OpenSpiel's kTerminalPlayerId

// OpenSpiel's game type, with its names (the module's own game: its deck is
// shuffled when a state is made, sampled chance).
enum class Dynamics { kSequential, kSimultaneous, kMeanField };
enum class ChanceMode { kDeterministic, kExplicitStochastic, kSampledStochastic };
enum class Information { kOneShot, kPerfectInformation, kImperfectInformation };
enum class Utility { kZeroSum, kConstantSum, kGeneralSum, kIdentical };
enum class RewardModel { kRewards, kTerminal };

struct GameType {
  std::string short_name{"canasta"}, long_name = "Canasta";
  Dynamics dynamics = Dynamics::kSequential;
  ChanceMode chance_mode = ChanceMode::kSampledStochastic;
  Information information = Information::kImperfectInformation;
  Utility utility = Utility::kZeroSum;
  RewardModel reward_model = RewardModel::kTerminal;
  int max_num_players = kMaxSeats, min_num_players = 2;
  bool provides_information_state_string = true, provides_information_state_tensor = true,
       provides_observation_string = true, provides_observation_tensor = true,
       provides_factored_observation_string = false, default_loadable = true;
};

// A step of the history: (player, action).
struct PlayerAction {
  int player;
  int action;
};

// A game: a profile, and the seed of the deals new_initial_state() deals in turn.
struct PyGame {
  Rules rules;
  uint64_t seed = 1;
  int64_t next_deal = 0;
  const ActionIds* ids = nullptr;

  std::string profile() const;
  std::string name() const;
  // A bound on a return: one side's best deal score less another's worst.
  double margin_bound() const;
};
using GamePtr = std::shared_ptr<PyGame>;
GamePtr make_game(const std::string& spec, uint64_t seed);

int check_seat(const Rules& r, int seat);
// The id space of a profile (action_ids.h), made once.
const ActionIds& ids_for(const Rules& r);

// A deal in play: its start, and every step since. A deal of a seed knows
// its seed and index (and so has a record); a redrawn one (resampling) is
// only its deck.
struct PyState {
  GamePtr game;
  State s, start;
  uint64_t seed = 0;  // the single deal the start came from (records)
  int64_t deal = 0;
  DealStart dealt;
  bool from_deal = true;  // false for a redrawn deal
  mutable std::vector<int> legal;
  mutable bool legal_known = false;
  std::vector<Step> steps;

  static PyState of_deal(const GamePtr& g, uint64_t seed, int64_t deal);
  static PyState of_deck(const GamePtr& g, const Deck& deck, int dealer,
                         const std::array<int32_t, kMaxTeams>& scores);

  const ActionIds& ids() const { return *game->ids; }
  int current_player() const { return s.over() ? kTerminalPlayer : s.actor(); }
  // The seat `player` names, or the actor for None (ValueError at the end).
  int seat_or_current(const py::object& player) const;
  // Whether legal_actions(player) lists the actor's ids (for another seat: none).
  bool lists_for(const py::object& player) const;
  Action action_of(int64_t id) const;
  int id_of(Action a) const;
  int id_of_text(const std::string& text) const;

  const std::vector<int>& legal_actions() const;
  void apply_action(int64_t id);
  void undo_action(int player, int64_t id);
  std::vector<double> returns() const;
  std::vector<int> scores() const;
  DealSeen seen() const { return {s, dealt, steps}; }
  py::array_t<float> tensor(const py::object& player, ObsType type) const;
  std::string text(const py::object& player, ObsType type) const;
  std::string record_line() const;
  // A state `player` cannot tell from this one, every other seat's hidden
  // cards drawn again (redraw.h); `sampler` is OpenSpiel's callable giving
  // numbers in [0, 1), or an integer seed.
  PyState resample(int player, const py::object& sampler) const;

 private:
  void began();
  void play(Action a);
};

// Serialisation as text (canasta/state_text.h); a text refused raises
// ValueError with the reader's message.
std::string serialize_state(const PyState& p);
PyState deserialize_state(const GamePtr& g, const std::string& text);

// An observer (OpenSpiel's make_py_observer) of the kind `iig_obs_type`
// describes (anything with OpenSpiel's fields; None: the observation).
py::object make_observer(const GamePtr& g, const py::object& iig_obs_type, const py::object& params);

// Each part of the module's bindings.
void bind_types(py::module_& m);
void bind_game_class(py::module_& m);
void bind_state_class(py::module_& m);
void bind_observer(py::module_& m);
void bind_agents(py::module_& m);

}  // namespace canasta::python
