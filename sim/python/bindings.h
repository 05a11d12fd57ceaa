// The parts of the Python module `canasta` (sim/doc/python.md), bound by
// module.cpp: the game in OpenSpiel's shape (bind_game.cpp and the files it
// names) and the simulations.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "canasta/agent.h"
#include "canasta/rules.h"

namespace canasta::python {

namespace py = pybind11;

Rules rules_or_raise(const std::string& spec);
AgentSpec agent_or_raise(const std::string& spec);
// An agent written in Python: `fn(view) -> action id`.
std::unique_ptr<Agent> python_agent(py::function fn);
// The game, its states, views, observers and agents.
void bind_game(py::module_& m);

}  // namespace canasta::python
