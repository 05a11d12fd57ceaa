// The State class of the module: a deal in play, with OpenSpiel's State
// methods (sim/doc/python.md).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include "canasta/notation.h"
#include "canasta/position.h"
#include "py_game.h"

namespace canasta::python {

namespace {

using StateClass = py::class_<PyState>;

py::list id_list(const std::vector<int>& ids) {
  py::list out(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) PyList_SET_ITEM(out.ptr(), i, PyLong_FromLong(ids[i]));
  return out;
}

double seat_return(const PyState& s, int p) {
  return s.returns()[static_cast<size_t>(check_seat(s.s.rules, p))];
}

void bind_play(StateClass& state) {
  state.def("current_player", &PyState::current_player)
      .def(
          "legal_actions",
          [](const PyState& s, const py::object& player) {
            return s.lists_for(player) ? id_list(s.legal_actions()) : py::list();
          },
          py::arg("player") = py::none(),
          "the actor's legal action ids, ascending (none for another seat; ValueError for no seat)")
      .def(
          "legal_actions_mask",
          [](const PyState& s, const py::object& player) {
            std::vector<int> mask(static_cast<size_t>(s.ids().size()), 0);
            if (s.lists_for(player))
              for (int id : s.legal_actions()) mask[static_cast<size_t>(id)] = 1;
            return mask;
          },
          py::arg("player") = py::none())
      .def("apply_action", &PyState::apply_action, py::arg("action"))
      .def("undo_action", &PyState::undo_action, py::arg("player"), py::arg("action"))
      .def("child",
           [](const PyState& s, int64_t id) {
             PyState c = s;
             c.apply_action(id);
             return c;
           })
      .def("is_terminal", [](const PyState& s) { return s.s.over(); })
      .def("is_chance_node", [](const PyState&) { return false; })
      .def("is_simultaneous_node", [](const PyState&) { return false; })
      .def("is_player_node", [](const PyState& s) { return !s.s.over(); })
      .def("is_initial_state", [](const PyState& s) { return s.steps.empty(); })
      .def("chance_outcomes", [](const PyState&) { return std::vector<std::pair<int, double>>{}; })
      .def("returns", &PyState::returns,
           "each seat's side's deal score less the other sides' mean, at the end")
      .def("rewards", &PyState::returns, "the returns, received on the deal's last action")
      .def("player_return", &seat_return)
      .def("player_reward", &seat_return)
      .def("scores", &PyState::scores, "each side's deal score, as the deal stands")
      .def("num_players", [](const PyState& s) { return static_cast<int>(s.s.rules.players); })
      .def("num_distinct_actions", [](const PyState& s) { return s.ids().size(); })
      .def("get_game", [](const PyState& s) { return s.game; })
      .def("resample_from_infostate", &PyState::resample, py::arg("player"), py::arg("sampler"),
           "a state `player` cannot tell from this one, every other seat's hidden cards drawn again, now and "
           "in the past; `sampler` is OpenSpiel's callable giving numbers in [0, 1), or a seed");
}

void bind_history(StateClass& state) {
  state.def("move_number", [](const PyState& s) { return s.steps.size(); })
      .def("history",
           [](const PyState& s) {
             std::vector<int> out;
             for (const Step& step : s.steps) out.push_back(s.ids().id(step.action));
             return out;
           })
      .def("history_str",
           [](const PyState& s) {
             std::string out;
             for (const Step& step : s.steps)
               out += (out.empty() ? "" : " ") + std::to_string(s.ids().id(step.action));
             return out;
           })
      .def("full_history", [](const PyState& s) {
        std::vector<PlayerAction> out;
        for (const Step& step : s.steps) out.push_back({step.seat, s.ids().id(step.action)});
        return out;
      });
}

void bind_views(StateClass& state) {
  const ObsType observation{}, information{.perfect_recall = true};
  state
      .def(
          "observation_tensor",
          [=](const PyState& s, const py::object& p) { return s.tensor(p, observation); },
          py::arg("player") = py::none())
      .def(
          "information_state_tensor",
          [=](const PyState& s, const py::object& p) { return s.tensor(p, information); },
          py::arg("player") = py::none())
      .def(
          "observation_string", [=](const PyState& s, const py::object& p) { return s.text(p, observation); },
          py::arg("player") = py::none())
      .def(
          "information_state_string",
          [=](const PyState& s, const py::object& p) { return s.text(p, information); },
          py::arg("player") = py::none())
      .def("action_to_string", [](const PyState& s, int64_t id) { return action_to_string(s.action_of(id)); })
      .def("action_to_string",
           [](const PyState& s, int, int64_t id) { return action_to_string(s.action_of(id)); })
      .def("string_to_action", &PyState::id_of_text)
      .def("string_to_action",
           [](const PyState& s, int, const std::string& text) { return s.id_of_text(text); })
      .def("record_line", &PyState::record_line, "the finished deal's record, a line for canasta replay")
      .def("__str__", [](const PyState& s) { return position_to_string(s.s); });
}

void bind_copies(StateClass& state) {
  state.def("clone", [](const PyState& s) { return s; })
      .def("__copy__", [](const PyState& s) { return s; })
      .def("__deepcopy__", [](const PyState& s, const py::object&) { return s; })
      .def("serialize", &serialize_state)
      .def("__eq__",
           [](const PyState& a, const PyState& b) {
             return a.s.rules == b.s.rules && serialize_state(a) == serialize_state(b);
           })
      .def("__hash__", [](const PyState& s) { return py::hash(py::str(serialize_state(s))); })
      .def(py::pickle(
          [](const PyState& s) {
            return py::make_tuple(s.game->profile(), s.game->seed, serialize_state(s));
          },
          [](const py::tuple& t) {
            if (t.size() != 3) throw py::value_error("a pickled state is (profile, seed, text)");
            return deserialize_state(make_game(t[0].cast<std::string>(), t[1].cast<uint64_t>()),
                                     t[2].cast<std::string>());
          }));
}

}  // namespace

void bind_state_class(py::module_& m) {
  StateClass state(m, "State", "a deal in play");
  bind_play(state);
  bind_history(state);
  bind_views(state);
  bind_copies(state);
}

}  // namespace canasta::python
