// The Python module `canasta` (pybind11): the game in OpenSpiel's shape
// (game.cpp), simulations whose rows come back as NumPy arrays without a
// copy, and readers of records and result directories (sim/doc/python.md).
#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "bindings.h"
#include "canasta/agent.h"
#include "canasta/experiment.h"
#include "canasta/game.h"
#include "canasta/input_file.h"
#include "canasta/learn.h"
#include "canasta/notation.h"
#include "canasta/position.h"
#include "canasta/profile.h"
#include "canasta/record.h"
#include "canasta/replay.h"
#include "canasta/results.h"
#include "canasta/runner.h"
#include "canasta/stats.h"

namespace py = pybind11;
using namespace canasta;
using python::agent_or_raise;
using python::rules_or_raise;

namespace {

// A NumPy structured dtype over Row's memory: (name, offset, format) per field.
struct Field {
  const char* name;
  size_t offset;
  const char* format;
};

py::dtype dtype_of(const std::vector<Field>& fields, size_t itemsize) {
  py::list names, formats, offsets;
  for (const Field& f : fields) {
    names.append(f.name);
    formats.append(f.format);
    offsets.append(f.offset);
  }
  py::dict d;
  d["names"] = names;
  d["formats"] = formats;
  d["offsets"] = offsets;
  d["itemsize"] = itemsize;
  return py::dtype::from_args(d);
}

// Values per side have one entry per table side.
py::dtype deal_dtype(int sides) {
  const std::string n = "(" + std::to_string(sides) + ",)";
  const std::string i4 = n + "<i4", i1 = n + "i1", i2 = n + "<i2";
  return dtype_of({{"deal", offsetof(DealRow, deal), "<i8"},
                   {"swapped", offsetof(DealRow, swapped), "i1"},
                   {"end", offsetof(DealRow, end), "i1"},
                   {"out_seat", offsetof(DealRow, out_seat), "i1"},
                   {"concealed", offsetof(DealRow, concealed), "i1"},
                   {"turns", offsetof(DealRow, turns), "<i2"},
                   {"actions", offsetof(DealRow, actions), "<i2"},
                   {"score", offsetof(DealRow, score), i4.c_str()},
                   {"natural_canastas", offsetof(DealRow, natural_canastas), i1.c_str()},
                   {"mixed_canastas", offsetof(DealRow, mixed_canastas), i1.c_str()},
                   {"red_threes", offsetof(DealRow, red_threes), i1.c_str()},
                   {"opening_turn", offsetof(DealRow, opening_turn), i2.c_str()},
                   {"pickups", offsetof(DealRow, pickups), "<i2"},
                   {"pickup_cards", offsetof(DealRow, pickup_cards), "<i2"},
                   {"freezes", offsetof(DealRow, freezes), "<i2"},
                   {"blocks", offsetof(DealRow, blocks), "<i2"}},
                  sizeof(DealRow));
}

py::dtype game_dtype(int sides) {
  const std::string total = "(" + std::to_string(sides) + ",)<i4";
  std::vector<Field> fields{{"game", offsetof(GameRow, game), "<i8"},
                            {"swapped", offsetof(GameRow, swapped), "i1"},
                            {"end", offsetof(GameRow, end), "i1"},
                            {"winner", offsetof(GameRow, winner), "i1"},
                            {"total", offsetof(GameRow, total), total.c_str()}};
  for (const DealCountField& f : deal_count_fields()) {
    const auto offset = offsetof(GameRow, counts) +
                        static_cast<size_t>(reinterpret_cast<const char*>(
                                                &(static_cast<const DealCounts*>(nullptr)->*f.member)) -
                                            static_cast<const char*>(nullptr));
    fields.push_back({f.name.data(), offset, "<i8"});
  }
  return dtype_of(fields, sizeof(GameRow));
}

// The rows (DealRow or GameRow) as a NumPy array over their own memory,
// which the array keeps alive.
template <class Row>
py::array rows_array(std::vector<Row>&& rows, int sides) {
  const py::dtype dtype = std::is_same_v<Row, GameRow> ? game_dtype(sides) : deal_dtype(sides);
  auto* owned = new std::vector<Row>(std::move(rows));
  py::capsule keep(owned, [](void* p) { delete static_cast<std::vector<Row>*>(p); });
  return py::array(dtype, {static_cast<py::ssize_t>(owned->size())}, {static_cast<py::ssize_t>(sizeof(Row))},
                   owned->data(), keep);
}

py::object json_loads(const std::string& text) { return py::module_::import("json").attr("loads")(text); }

// A Python side appears in the summary's configuration by its callable's name.
void name_python_sides(py::dict& out, const std::array<std::string, 2>& names) {
  py::dict config = out["summary"]["config"];
  for (int side = 0; side < 2; ++side)
    if (!names[static_cast<size_t>(side)].empty())
      config[side ? "side1" : "side0"] = names[static_cast<size_t>(side)];
}

// The Python int of a whole number (a Python or NumPy integer; not a float
// or a string), for the argument `name`.
py::int_ whole_of(const py::object& o, const char* name) {
  PyObject* index = PyNumber_Index(o.ptr());
  if (!index) {
    PyErr_Clear();
    throw py::type_error(
        fmt::format("{} wants a whole number, not {}", name, printable(py::repr(o).cast<std::string>())));
  }
  return py::reinterpret_steal<py::int_>(index);
}

[[noreturn]] void out_of_range(const py::int_& n, const char* name, const std::string& range) {
  throw py::value_error(
      fmt::format("{}: value {} not in range {}", name, printable(py::repr(n).cast<std::string>()), range));
}

// A whole number from lo to hi, as the program's option `name` takes it.
int64_t whole_or_raise(const py::object& o, const char* name, int64_t lo, int64_t hi) {
  const py::int_ n = whole_of(o, name);
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(n.ptr(), &overflow);
  if (overflow || v < lo || v > hi) out_of_range(n, name, fmt::format("{} to {}", lo, hi));
  return v;
}

// A seed, 0 to 2^64 - 1, as --seed takes it.
uint64_t seed_or_raise(const py::object& o) {
  const py::int_ n = whole_of(o, "seed");
  const unsigned long long v = PyLong_AsUnsignedLongLong(n.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    out_of_range(n, "seed", fmt::format("0 to {}", UINT64_MAX));
  }
  return v;
}

// What `canasta sim` checks of its options before it plays (sim/cli/commands/sim.cpp):
// --deals and --games 1 to 2^40, excluding each other; --sprt excludes --games and
// --shard; --seed 0 or more; --threads 0 to 1024. The library checks the rest
// (check_config).
constexpr int64_t kMaxCount = int64_t{1} << 40;

py::dict run_sim(const std::string& profile, const py::object& side0, const py::object& side1,
                 const py::object& deals, const py::object& games, py::object duplicate,
                 const py::object& seed, const py::object& threads, const py::object& seats,
                 const std::string& shard, py::object sprt, const py::object& side2) {
  if (!deals.is_none() && !games.is_none()) throw py::value_error("deals and games exclude each other");
  if (!games.is_none() && !sprt.is_none())
    throw py::value_error("games excludes sprt (the sequential test runs deals)");
  if (!shard.empty() && !sprt.is_none()) throw py::value_error("shard excludes sprt");
  ExperimentConfig c;
  c.rules = rules_or_raise(profile);
  c.seed = seed_or_raise(seed);
  c.deals = deals.is_none() ? 10000 : whole_or_raise(deals, "deals", 1, kMaxCount);
  c.games = games.is_none() ? 0 : whole_or_raise(games, "games", 1, kMaxCount);
  c.threads = static_cast<int>(whole_or_raise(threads, "threads", 0, 1024));
  if (!py::isinstance<py::dict>(seats))
    throw py::type_error("seats maps seat numbers (int) to agent specs, e.g. {2: \"heuristic\"}");
  // The agents: specs go into the configuration, callables are Python
  // agents, made for their seats by the run (which then has one thread).
  std::array<py::object, kMaxSeats> callables;
  std::array<std::string, 2> names;
  const auto spec_of = [&](const py::object& o, int side, int seat) {
    if (py::isinstance<py::str>(o)) return agent_or_raise(o.cast<std::string>());
    if (!PyCallable_Check(o.ptr()))
      throw py::type_error("an agent is a spec string (\"heuristic:freeze=6\") or a callable taking a View");
    for (int s = 0; s < c.rules.players; ++s)
      if (seat == s || (seat < 0 && (c.rules.team_of(s) == side ||
                                     (side == 1 && c.rules.team_of(s) == 2 && side2.is_none()))))
        callables[static_cast<size_t>(s)] = o;  // side 1's agent plays side 2 too, unless side2 is given
    if (seat < 0)
      names[static_cast<size_t>(side)] = "python:" + py::str(o.attr("__name__")).cast<std::string>();
    return AgentSpec{};
  };
  c.side0 = spec_of(side0, 0, -1);
  c.side1 = spec_of(side1, 1, -1);
  if (!side2.is_none()) {
    if (!py::isinstance<py::str>(side2)) throw py::type_error("side2 is an agent spec string");
    c.side2 = agent_or_raise(side2.cast<std::string>());
  }
  for (const auto& [key, value] : seats.cast<py::dict>()) {
    if (!PyIndex_Check(key.ptr()) || py::isinstance<py::bool_>(key))
      throw py::type_error(
          fmt::format("seats maps seat numbers (int) to agent specs, e.g. {{2: \"heuristic\"}}, "
                      "not {}",
                      printable(py::repr(key).cast<std::string>())));
    // The seat before its agent: a callable for a seat that is none would have no place.
    const int seat =
        static_cast<int>(whole_or_raise(py::reinterpret_borrow<py::object>(key), "seat", INT_MIN, INT_MAX));
    if (seat < 0 || seat >= c.rules.players)
      throw py::value_error("no seat " + std::to_string(seat) + " in a game of " +
                            std::to_string(c.rules.players));
    c.seats.push_back({seat, spec_of(py::reinterpret_borrow<py::object>(value), -1, seat)});
  }
  RunHooks hooks;
  const bool python =
      std::any_of(callables.begin(), callables.end(), [](const py::object& o) { return bool(o); });
  if (python) {
    c.threads = 1;  // a Python agent holds the interpreter: one thread
    hooks.agent_for = [callables](int seat) -> std::unique_ptr<Agent> {
      const py::object& fn = callables[static_cast<size_t>(seat)];
      if (!fn) return nullptr;
      py::gil_scoped_acquire gil;
      return python::python_agent(fn.cast<py::function>());
    };
  }
  if (!shard.empty() && !parse_shard(shard, c.shard, c.shards))
    throw py::value_error(std::string("shard ") + kShardUsage);
  if (!sprt.is_none()) {
    const char* const usage =
        "sprt wants (elo0, elo1[, alpha, beta]) with elo0 < elo1 and 0 < alpha, beta < 0.5";
    std::vector<double> t;
    try {
      t = sprt.cast<std::vector<double>>();
    } catch (const py::cast_error&) {
      throw py::type_error(usage);
    }
    SprtConfig test;
    if (!sprt_of(t, test)) throw py::value_error(usage);
    c.sprt = test;
  }
  // The program's default (sides_differ); two callables differ unless they are the same object.
  const bool callables_given = !py::isinstance<py::str>(side0) || !py::isinstance<py::str>(side1);
  c.duplicate = !duplicate.is_none() ? duplicate.cast<bool>()
                : callables_given    ? !side0.is(side1)
                                     : sides_differ(c);
  std::string error;
  // What the library refuses (side2 at two sides, a test at three, ...), before any agent is made.
  if (!check_config(c, error)) throw py::value_error(error);
  py::dict out;
  // Runs deals or games without the GIL, then returns their summary and rows.
  const auto finish = [&](auto rows, const auto& run, const auto& summary_json) {
    bool ok;
    {
      py::gil_scoped_release release;
      ok = run(c, rows, error, hooks);
    }
    if (!ok) throw py::value_error(error);
    out["summary"] = json_loads(summary_json(rows));
    name_python_sides(out, names);
    out["rows"] = rows_array(std::move(rows), c.rules.teams);
  };
  if (c.games > 0)
    finish(std::vector<GameRow>{}, run_games, [&](const auto& rows) {
      return game_summary_to_json(c, summarize_games(tally_games(rows, RunShape::of(c)), c));
    });
  else
    finish(std::vector<DealRow>{}, run_deals,
           [&](const auto& rows) { return summary_to_json(c, summarize(tally(rows, RunShape::of(c)), c)); });
  return out;
}

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

}  // namespace

PYBIND11_MODULE(_canasta, m) {
  m.doc() = "Canasta: the rules engine, its agents and its simulator (sim/doc/python.md)";
  python::bind_game(m);

  m.def("sim", &run_sim, py::arg("profile") = "classic", py::arg("side0") = "random",
        py::arg("side1") = "random", py::arg("deals") = py::none(), py::arg("games") = py::none(),
        py::arg("duplicate") = py::none(), py::arg("seed") = 1, py::arg("threads") = 0,
        py::arg("seats") = py::dict(), py::arg("shard") = "", py::arg("sprt") = py::none(),
        py::arg("side2") = py::none(),
        "canasta sim (deals: 10000 unless deals or games is given): returns {'summary': dict as "
        "summary.json, 'rows': NumPy structured array of the rows}");

  m.def(
      "read_records",
      [](const std::string& path) {
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
      },
      py::arg("path"), "the records of a JSON Lines file, each checked, as dicts");

  m.def(
      "read_samples",
      [](const std::string& path) {
        check_openable(path, "a sample file");
        SampleSet set;
        std::string error;
        if (!read_samples(path, set, error)) throw py::value_error(error);
        py::dict out;
        out["profile"] = profile_spec(set.rules);
        out["agents"] = set.agents;
        out["seed"] = set.seed;
        out["deal"] = py::array_t<int64_t>(static_cast<py::ssize_t>(set.deal.size()), set.deal.data());
        out["margin"] = py::array_t<float>(static_cast<py::ssize_t>(set.margin.size()), set.margin.data());
        out["x"] = py::array_t<float>(
            {static_cast<py::ssize_t>(set.size()), static_cast<py::ssize_t>(set.features)}, set.x.data());
        return out;
      },
      py::arg("path"),
      "a sample file of canasta selfplay: {'profile', 'agents', 'seed', 'deal', 'margin', 'x' (samples x "
      "features)}");

  m.def(
      "read_run",
      [](const std::string& dir) {
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
        const std::string csv = c.games > 0 ? "games.csv" : "deals.csv";
        if (!fs::exists(dir + "/" + csv, ec) && !manifest_names(dir, csv)) {
          out["rows"] = py::none();
          return out;
        }
        const std::string text = read_text(dir + "/" + csv, rows_file_cap(c), "a rows file");
        if (c.games > 0) {
          std::vector<GameRow> rows;
          if (!game_rows_from_csv(text, rows, error, c.rules.teams))
            throw py::value_error(dir + ": " + error);
          out["rows"] = rows_array(std::move(rows), c.rules.teams);
        } else {
          std::vector<DealRow> rows;
          if (!rows_from_csv(text, rows, error, c.rules.teams)) throw py::value_error(dir + ": " + error);
          out["rows"] = rows_array(std::move(rows), c.rules.teams);
        }
        return out;
      },
      py::arg("dir"),
      "a directory written by sim --out: {'summary': dict, 'rows': NumPy structured array, or None when the "
      "run kept no rows (--rows none)}");
}
