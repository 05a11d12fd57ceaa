// The simulations and the readers of the Python module `canasta`
// (sim/doc/python.md), bound by module.cpp: canasta.sim (bind_sim.cpp) and
// read_records, read_samples and read_run (bind_readers.cpp).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include "canasta/experiment.h"

namespace canasta::python {

namespace py = pybind11;

void bind_sim(py::module_& m);
void bind_readers(py::module_& m);

// A run folder written by sim --out, as read_run returns it: {'summary':
// dict, 'rows': NumPy structured array, or None where the run kept none}.
py::dict read_run(const std::string& dir);

// The rows as a NumPy structured array over their own memory, which the
// array keeps alive; values per side have one entry per table side.
py::array rows_array(std::vector<DealRow>&& rows, int sides);
py::array rows_array(std::vector<GameRow>&& rows, int sides);

// json.loads(text).
py::object json_loads(const std::string& text);

}  // namespace canasta::python
