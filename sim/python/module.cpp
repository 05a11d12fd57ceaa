// The Python module `canasta` (pybind11): the game in OpenSpiel's shape
// (bind_game.cpp), simulations whose rows come back as NumPy arrays without a
// copy (bind_sim.cpp), and readers of records and result directories
// (bind_readers.cpp); sim/doc/python.md.
#include <pybind11/pybind11.h>

#include "bindings.h"
#include "sim_bindings.h"

PYBIND11_MODULE(_canasta, m) {
  m.doc() = "Canasta: the rules engine, its agents and its simulator (sim/doc/python.md)";
  canasta::python::bind_game(m);
  canasta::python::bind_sim(m);
  canasta::python::bind_readers(m);
}
