// Agents from Python: the project's agents by spec, Python callables as
// agents (each given a View), and whole deals played by them
// (sim/doc/python.md).
#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>

#include "bindings.h"
#include "canasta/notation.h"
#include "canasta/runner.h"
#include "py_game.h"

namespace canasta::python {

namespace {

// What one seat sees of a deal, taken when the view is made (a Python agent
// may keep it; it holds nothing the seat could not see).
struct PyView {
  int seat = 0;
  const ActionIds* ids;
  std::vector<int> legal;
  std::vector<float> obs;
  std::string text, hand;

  explicit PyView(const View& v)
      : seat(v.seat()), ids(&ids_for(v.rules())), obs(kObservationSize), text(observation_string(v)) {
    ActionList list;
    v.legal_actions(list);
    for (Action a : list) legal.push_back(ids->id(a));
    canasta::observation_tensor(v, obs.data());
    hand = cards_to_string(v.hand());
  }
};

class PyAgent final : public Agent {
 public:
  explicit PyAgent(py::function fn) : fn_(std::move(fn)) {}
  Action act(const View& v, Rng&) override {
    py::gil_scoped_acquire gil;
    PyView view(v);
    const auto id = fn_(view).cast<int64_t>();
    if (std::find(view.legal.begin(), view.legal.end(), id) == view.legal.end())
      throw py::value_error(fmt::format("a Python agent chose an illegal action: {}", id));
    return ids_for(v.rules()).action(static_cast<int>(id));
  }

 private:
  py::function fn_;
};

// Records each step of a deal that agents play into the state.
struct KeepSteps : PlayObserver {
  PyState& s;
  Step step{};
  explicit KeepSteps(PyState& state) : s(state) {}
  void before(const State&, int seat, Action a) {
    step.seat = static_cast<int8_t>(seat);
    step.action = a;
  }
  void after(const State& now) {
    step.red3_after = now.red3[step.seat];
    step.hand_after = now.hand[step.seat];
    s.steps.push_back(step);
  }
};

PyState play_deal_with(const PyState& start, const py::list& agents, uint64_t seed) {
  if (static_cast<int>(agents.size()) != start.s.rules.players)
    throw py::value_error("play_deal wants one agent per seat");
  std::vector<std::unique_ptr<Agent>> owned;
  for (const auto& o : agents) {
    if (py::isinstance<py::str>(o))
      owned.push_back(make_agent(agent_or_raise(o.cast<std::string>())));
    else if (PyCallable_Check(o.ptr()))
      owned.push_back(python_agent(py::reinterpret_borrow<py::function>(o)));
    else
      throw py::type_error("an agent is a spec string (\"heuristic:freeze=6\") or a callable taking a View");
  }
  PyState s = start;
  Rng rng(seed);
  play_deal(
      s.s, [&](int seat) -> Agent& { return *owned[static_cast<size_t>(seat)]; }, rng, KeepSteps(s));
  s.legal_known = false;
  return s;
}

}  // namespace

AgentSpec agent_or_raise(const std::string& spec) {
  AgentSpec a;
  std::string error;
  if (!parse_agent_spec(spec, a, error)) throw py::value_error(error);
  return a;
}

std::unique_ptr<Agent> python_agent(py::function fn) { return std::make_unique<PyAgent>(std::move(fn)); }

void bind_agents(py::module_& m) {
  py::class_<PyView>(m, "View", "what one seat sees of a deal, taken when it was made")
      .def_readonly("seat", &PyView::seat)
      .def("legal_actions", [](const PyView& v) { return v.legal; })
      .def("observation_tensor",
           [](const PyView& v) { return py::array_t<float>(v.obs.size(), v.obs.data()); })
      .def("observation_string", [](const PyView& v) { return v.text; })
      .def("hand", [](const PyView& v) { return v.hand; })
      .def("action_to_string", [](const PyView& v, int64_t id) {
        if (id < 0 || id >= v.ids->size()) throw py::value_error(fmt::format("no action id {}", id));
        return action_to_string(v.ids->action(static_cast<int>(id)));
      });
  // State.view(seat), here beside the View it makes.
  py::reinterpret_borrow<py::class_<PyState>>(m.attr("State")).def("view", [](const PyState& s, int seat) {
    return PyView(View(s.s, check_seat(s.s.rules, seat)));
  });
  py::class_<Agent>(m, "Agent", "an agent of the project, from its spec")
      .def(py::init([](const std::string& spec) { return make_agent(agent_or_raise(spec)); }),
           py::arg("spec"))
      .def(
          "act",
          [](Agent& a, const PyState& s, uint64_t seed) {
            if (s.s.over()) throw py::value_error("the deal is over");
            Rng rng(seed);
            return s.id_of(a.act(View(s.s, s.s.actor()), rng));
          },
          py::arg("state"), py::arg("seed") = 0, "the action id the agent plays for the actor of `state`");
  m.def("play_deal", &play_deal_with, py::arg("state"), py::arg("agents"), py::arg("seed") = 0,
        "plays the deal to its end with one agent per seat (a spec, or a callable taking a View)");
}

}  // namespace canasta::python
