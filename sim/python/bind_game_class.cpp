// The Game class of the module: a profile and the seed of its deals, with
// OpenSpiel's Game methods (sim/doc/python.md).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <optional>

#include "canasta/notation.h"
#include "py_game.h"

namespace canasta::python {

namespace {

std::string action_text(const PyGame& g, int64_t id) {
  if (id < 0 || id >= g.ids->size())
    throw py::value_error(fmt::format("no action id {} (ids are 0..{})", id, g.ids->size() - 1));
  return action_to_string(g.ids->action(static_cast<int>(id)));
}

PyState new_state(const GamePtr& g, std::optional<uint64_t> seed, std::optional<int64_t> deal) {
  if (deal && *deal < 0) throw py::value_error("a deal index is 0 or more");
  if (!seed && !deal) return PyState::of_deal(g, g->seed, g->next_deal++);
  return PyState::of_deal(g, seed.value_or(g->seed), deal.value_or(0));
}

void bind_sizes(py::class_<PyGame, GamePtr>& game) {
  game.def("num_players", [](const PyGame& g) { return static_cast<int>(g.rules.players); })
      .def("num_distinct_actions", [](const PyGame& g) { return g.ids->size(); })
      .def("max_chance_outcomes", [](const PyGame&) { return 0; })
      .def("max_game_length", [](const PyGame& g) { return max_game_length(g.rules); })
      .def("min_utility", [](const PyGame& g) { return -g.margin_bound(); })
      .def("max_utility", [](const PyGame& g) { return g.margin_bound(); })
      .def("utility_sum", [](const PyGame&) { return 0.0; })
      .def("observation_tensor_shape", [](const PyGame&) { return std::vector<int>{kObservationSize}; })
      .def("observation_tensor_size", [](const PyGame&) { return kObservationSize; })
      .def("information_state_tensor_shape",
           [](const PyGame& g) { return std::vector<int>{information_state_size(g.rules)}; })
      .def("information_state_tensor_size", [](const PyGame& g) { return information_state_size(g.rules); });
}

}  // namespace

void bind_game_class(py::module_& m) {
  py::class_<PyGame, GamePtr> game(m, "Game", "a rules profile: canasta.Game(\"two-player,target=3000\")");
  game.def(py::init(&make_game), py::arg("profile") = "classic", py::arg("seed") = 1)
      .def_property_readonly("profile", &PyGame::profile)
      .def_property_readonly("seed", [](const PyGame& g) { return g.seed; })
      .def("get_type", [](const PyGame&) { return GameType{}; })
      .def("get_parameters",
           [](const PyGame& g) {
             py::dict d;
             d["profile"] = g.profile();
             d["seed"] = g.seed;
             return d;
           })
      .def("new_initial_state", &new_state, py::arg("seed") = py::none(), py::arg("deal") = py::none(),
           "a single deal: the next deal of the game's seed, or deal `deal` (default 0) of `seed` "
           "(dealer: deal mod players)")
      .def("deserialize_state", &deserialize_state, py::arg("text"))
      .def("make_py_observer", &make_observer, py::arg("iig_obs_type") = py::none(),
           py::arg("params") = py::none())
      .def("action_to_string", &action_text, py::arg("action"))
      .def(
          "action_to_string", [](const PyGame& g, int, int64_t id) { return action_text(g, id); },
          py::arg("player"), py::arg("action"))
      .def("__str__", &PyGame::name)
      .def("__repr__", &PyGame::name)
      .def(py::pickle([](const PyGame& g) { return py::make_tuple(g.profile(), g.seed); },
                      [](const py::tuple& t) {
                        if (t.size() != 2) throw py::value_error("a pickled game is (profile, seed)");
                        return make_game(t[0].cast<std::string>(), t[1].cast<uint64_t>());
                      }));
  bind_sizes(game);
}

}  // namespace canasta::python
