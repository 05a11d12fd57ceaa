// The readers of the module: records, sample files and run folders, each
// file taken within its format's size, raising as Python's open() does
// where a file is not there.
#include <fmt/format.h>
#include <pybind11/stl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "canasta/input_file.h"
#include "canasta/learn.h"
#include "canasta/params.h"
#include "canasta/policy_samples.h"
#include "canasta/profile.h"
#include "canasta/record.h"
#include "canasta/results.h"
#include "sim_bindings.h"

namespace canasta::python {

namespace {

// Raises the OSError that Python's open() raises for `err`, with `path` as
// its filename: FileNotFoundError for ENOENT, IsADirectoryError for EISDIR,
// NotADirectoryError for ENOTDIR, PermissionError for EACCES.
[[noreturn]] void raise_os_error(int err, const std::string& what, const std::string& path) {
  const py::object e = py::reinterpret_borrow<py::object>(PyExc_OSError)(err, what, path);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(e.ptr())), e.ptr());
  throw py::error_already_set();
}

// Raises as open() does where a file is missing, a folder or unreadable;
// `kind` says what was wanted. The readers below then take only a regular
// file, within their format's size (canasta/input_file.h): ValueError else.
void check_openable(const std::string& path, const char* kind) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_type type = fs::status(path, ec).type();
  if (type == fs::file_type::not_found) raise_os_error(ENOENT, std::strerror(ENOENT), path);
  if (type == fs::file_type::directory) raise_os_error(EISDIR, fmt::format("a folder, not {}", kind), path);
  if (::access(path.c_str(), R_OK) != 0) raise_os_error(errno, std::strerror(errno), path);
}

std::string read_text(const std::string& path, uint64_t max_bytes, const char* kind) {
  check_openable(path, kind);
  std::string text, error;
  if (!read_input_file(path, max_bytes, kind, text, error)) throw py::value_error(error);
  return text;
}

// Whether the manifest of a run's folder (run.json) names the file: a rows
// file it names is missing, one it does not name was not kept (--rows none).
bool manifest_names(const std::string& dir, const std::string& name) {
  std::string text, error;
  if (!read_input_file(dir + "/run.json", kMaxJsonFile, "a run manifest", text, error)) return false;
  try {
    const py::object manifest = json_loads(text);
    for (const py::handle file : manifest["files"])
      if (file["name"].cast<std::string>() == name) return true;
  } catch (const py::error_already_set&) {
  } catch (const py::cast_error&) {
  }
  return false;
}

py::list read_records(const std::string& path) {
  check_openable(path, "a record file");
  LineReader in;
  std::string line, error, read_error;
  if (!in.open(path, kMaxRecordLine, "a record file", read_error)) throw py::value_error(read_error);
  py::list out;
  while (in.next(line, read_error)) {
    if (line.empty()) continue;
    DealRecord rec;
    if (!parse_record(line, rec, error))
      throw py::value_error(fmt::format("{}:{}: {}", printable(path), in.line_number(), error));
    out.append(json_loads(line));
  }
  if (!read_error.empty()) throw py::value_error(read_error);
  return out;
}

py::dict read_samples(const std::string& path) {
  check_openable(path, "a sample file");
  SampleSet set;
  std::string error;
  if (!canasta::read_samples(path, set, error)) throw py::value_error(error);
  py::dict out;
  out["profile"] = profile_spec(set.rules);
  out["agents"] = set.agents;
  out["seed"] = set.seed;
  out["deal"] = py::array_t<int64_t>(static_cast<py::ssize_t>(set.deal.size()), set.deal.data());
  out["margin"] = py::array_t<float>(static_cast<py::ssize_t>(set.margin.size()), set.margin.data());
  out["x"] = py::array_t<float>(
      {static_cast<py::ssize_t>(set.size()), static_cast<py::ssize_t>(set.features)}, set.x.data());
  return out;
}

// A vector as a NumPy array of its own (a copy the array owns).
template <class T>
py::array_t<T> array_of(const std::vector<T>& v) {
  return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
}

py::dict read_policy_samples(const std::string& path) {
  check_openable(path, "a policy sample file");
  PolicySamples set;
  std::string error;
  if (!canasta::read_policy_samples(path, set, error)) throw py::value_error(error);
  py::dict out;
  out["profile"] = profile_spec(set.rules);
  out["agents"] = set.agents;
  out["seed"] = set.seed;
  out["actions"] = set.actions;
  out["deal"] = array_of(set.deal);
  out["margin"] = array_of(set.margin);
  out["played"] = array_of(set.played);
  out["offset"] = array_of(set.offset);
  out["ids"] = array_of(set.ids);
  out["visits"] = array_of(set.visits);
  out["x"] = py::array_t<float>(
      {static_cast<py::ssize_t>(set.size()), static_cast<py::ssize_t>(set.features)}, set.x.data());
  return out;
}

}  // namespace

py::dict read_run(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_type type = fs::status(dir, ec).type();
  if (type == fs::file_type::not_found) raise_os_error(ENOENT, std::strerror(ENOENT), dir);
  if (type != fs::file_type::directory)
    raise_os_error(ENOTDIR, "not a folder (read_run reads the folder of a sim --out)", dir);
  const std::string summary = read_text(dir + "/summary.json", kMaxSummaryFile, "a summary file");
  ExperimentConfig c;
  std::string error;
  if (!config_from_json(summary, c, error)) throw py::value_error(dir + ": " + error);
  py::dict out;
  out["summary"] = json_loads(summary);
  // A run with --rows none kept no rows: None (its summary is all there is).
  const std::string csv = rows_file_name(c);
  if (!fs::exists(dir + "/" + csv, ec) && !manifest_names(dir, csv)) {
    out["rows"] = py::none();
    return out;
  }
  const std::string text = read_text(dir + "/" + csv, rows_file_cap(c), "a rows file");
  if (c.games > 0) {
    std::vector<GameRow> rows;
    if (!game_rows_from_csv(text, rows, error, c.rules.teams)) throw py::value_error(dir + ": " + error);
    out["rows"] = rows_array(std::move(rows), c.rules.teams);
  } else {
    std::vector<DealRow> rows;
    if (!rows_from_csv(text, rows, error, c.rules.teams)) throw py::value_error(dir + ": " + error);
    out["rows"] = rows_array(std::move(rows), c.rules.teams);
  }
  return out;
}

void bind_readers(py::module_& m) {
  m.def("read_records", &read_records, py::arg("path"),
        "the records of a JSON Lines file, each checked, as dicts");
  m.def("read_samples", &read_samples, py::arg("path"),
        "a sample file of canasta selfplay: {'profile', 'agents', 'seed', 'deal', 'margin', 'x' (samples x "
        "features)}");
  m.def("read_policy_samples", &read_policy_samples, py::arg("path"),
        "a policy sample file of canasta selfplay --policy: {'profile', 'agents', 'seed', 'actions', 'deal', "
        "'margin', 'played', 'x' (samples x features), 'offset' (samples + 1), 'ids', 'visits'}: sample i's "
        "legal actions' ids and root visits are ids[offset[i]:offset[i+1]] and visits[...], the action "
        "played the played[i]-th of them");
  m.def(
      "read_run", &read_run, py::arg("dir"),
      "a directory written by sim --out: {'summary': dict, 'rows': NumPy structured array, or None when the "
      "run kept no rows (--rows none)}");
}

}  // namespace canasta::python
