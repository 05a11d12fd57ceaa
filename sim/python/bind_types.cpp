// OpenSpiel's small value types, with OpenSpiel's names, for code that runs
// without it: the game type and its enums, a step of the history, and what
// an observer shows (sim/doc/python.md).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include "py_game.h"

namespace canasta::python {

namespace {

void bind_enums(py::class_<GameType>& type) {
  py::enum_<Dynamics>(type, "Dynamics")
      .value("SEQUENTIAL", Dynamics::kSequential)
      .value("SIMULTANEOUS", Dynamics::kSimultaneous)
      .value("MEAN_FIELD", Dynamics::kMeanField);
  py::enum_<ChanceMode>(type, "ChanceMode")
      .value("DETERMINISTIC", ChanceMode::kDeterministic)
      .value("EXPLICIT_STOCHASTIC", ChanceMode::kExplicitStochastic)
      .value("SAMPLED_STOCHASTIC", ChanceMode::kSampledStochastic);
  py::enum_<Information>(type, "Information")
      .value("ONE_SHOT", Information::kOneShot)
      .value("PERFECT_INFORMATION", Information::kPerfectInformation)
      .value("IMPERFECT_INFORMATION", Information::kImperfectInformation);
  py::enum_<Utility>(type, "Utility")
      .value("ZERO_SUM", Utility::kZeroSum)
      .value("CONSTANT_SUM", Utility::kConstantSum)
      .value("GENERAL_SUM", Utility::kGeneralSum)
      .value("IDENTICAL", Utility::kIdentical);
  py::enum_<RewardModel>(type, "RewardModel")
      .value("REWARDS", RewardModel::kRewards)
      .value("TERMINAL", RewardModel::kTerminal);
}

void bind_game_type(py::module_& m) {
  py::class_<GameType> type(m, "GameType", "what kind of game it is, with OpenSpiel's fields");
  bind_enums(type);
  type.def_readonly("short_name", &GameType::short_name)
      .def_readonly("long_name", &GameType::long_name)
      .def_readonly("dynamics", &GameType::dynamics)
      .def_readonly("chance_mode", &GameType::chance_mode)
      .def_readonly("information", &GameType::information)
      .def_readonly("utility", &GameType::utility)
      .def_readonly("reward_model", &GameType::reward_model)
      .def_readonly("max_num_players", &GameType::max_num_players)
      .def_readonly("min_num_players", &GameType::min_num_players)
      .def_readonly("provides_information_state_string", &GameType::provides_information_state_string)
      .def_readonly("provides_information_state_tensor", &GameType::provides_information_state_tensor)
      .def_readonly("provides_observation_string", &GameType::provides_observation_string)
      .def_readonly("provides_observation_tensor", &GameType::provides_observation_tensor)
      .def_readonly("provides_factored_observation_string", &GameType::provides_factored_observation_string)
      .def_readonly("default_loadable", &GameType::default_loadable)
      .def_property_readonly("parameter_specification", [](const GameType&) {
        py::dict d;
        d["profile"] = "classic";
        d["seed"] = 1;
        return d;
      });
}

void bind_observation_type(py::module_& m) {
  py::enum_<PrivateInfo>(m, "PrivateInfoType", "whose cards an observer shows (OpenSpiel's PrivateInfoType)")
      .value("NONE", PrivateInfo::kNone)
      .value("SINGLE_PLAYER", PrivateInfo::kSinglePlayer)
      .value("ALL_PLAYERS", PrivateInfo::kAllPlayers);
  py::class_<ObsType>(m, "IIGObservationType",
                      "what an observer shows: public facts, whose cards, now or with perfect recall")
      .def(py::init([](bool perfect_recall, bool public_info, PrivateInfo private_info) {
             return ObsType{perfect_recall, public_info, private_info};
           }),
           py::arg("perfect_recall") = false, py::arg("public_info") = true,
           py::arg("private_info") = PrivateInfo::kSinglePlayer)
      .def_readonly("perfect_recall", &ObsType::perfect_recall)
      .def_readonly("public_info", &ObsType::public_info)
      .def_readonly("private_info", &ObsType::private_info);
}

}  // namespace

void bind_types(py::module_& m) {
  bind_game_type(m);
  bind_observation_type(m);
  py::class_<PlayerAction>(m, "PlayerAction", "a step of the history: (player, action)")
      .def_readonly("player", &PlayerAction::player)
      .def_readonly("action", &PlayerAction::action)
      .def("__eq__", [](const PlayerAction& a,
                        const PlayerAction& b) { return a.player == b.player && a.action == b.action; })
      .def("__repr__",
           [](const PlayerAction& a) { return fmt::format("PlayerAction({}, {})", a.player, a.action); });
}

}  // namespace canasta::python
