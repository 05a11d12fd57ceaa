// canasta.sim: the program's simulations from Python, with its options as
// arguments and the rows as NumPy arrays without a copy; or, with resume,
// a run of the program stopped by a signal, finished in its folder as
// `canasta sim --resume` finishes it.
#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <climits>
#include <fstream>
#include <stdexcept>
#include <type_traits>

#include "bindings.h"
#include "canasta/cli/sim_options.h"
#include "canasta/files.h"
#include "canasta/params.h"
#include "canasta/results.h"
#include "canasta/resume.h"
#include "canasta/run_folder.h"
#include "canasta/run_options.h"
#include "canasta/stats.h"
#include "sim_bindings.h"

namespace canasta::python {

namespace {

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

// The arguments of canasta.sim, as given.
struct SimArgs {
  std::string profile;
  py::object side0, side1, deals, games, duplicate, seed, threads, seats;
  std::string shard;
  py::object sprt, side2;
};

// The options that exclude each other (run_options.h), named as the arguments.
void check_exclusions(const SimArgs& a) {
  const auto given = [&a](std::string_view name) {
    if (name == "deals") return !a.deals.is_none();
    if (name == "games") return !a.games.is_none();
    if (name == "sprt") return !a.sprt.is_none();
    if (name == "shard") return !a.shard.empty();
    throw std::logic_error("canasta.sim has no argument " + std::string(name));
  };
  for (const Exclusion& e : kExclusions)
    if (given(e.first) && given(e.second))
      throw py::value_error(fmt::format("{} excludes {}", e.first, e.second));
}

// The agents given as callables, seat by seat, made for their seats by the
// run (which then has one thread), and the name a summary gives each side
// that one plays.
struct PythonAgents {
  std::array<py::object, kMaxSeats> callables;
  std::array<std::string, 2> names;
  bool any() const {
    return std::any_of(callables.begin(), callables.end(), [](const py::object& o) { return bool(o); });
  }
};

// The sides and seats into `c`: specs go into the configuration, callables
// into the returned agents.
PythonAgents set_agents(ExperimentConfig& c, const SimArgs& a) {
  if (!py::isinstance<py::dict>(a.seats))
    throw py::type_error("seats maps seat numbers (int) to agent specs, e.g. {2: \"heuristic\"}");
  PythonAgents agents;
  const auto spec_of = [&](const py::object& o, int side, int seat) {
    if (py::isinstance<py::str>(o)) return agent_or_raise(o.cast<std::string>());
    if (!PyCallable_Check(o.ptr()))
      throw py::type_error("an agent is a spec string (\"heuristic:freeze=6\") or a callable taking a View");
    for (int s = 0; s < c.rules.players; ++s)
      if (seat == s || (seat < 0 && (c.rules.team_of(s) == side ||
                                     (side == 1 && c.rules.team_of(s) == 2 && a.side2.is_none()))))
        agents.callables[static_cast<size_t>(s)] =
            o;  // side 1's agent plays side 2 too, unless side2 is given
    if (seat < 0)
      agents.names[static_cast<size_t>(side)] = "python:" + py::str(o.attr("__name__")).cast<std::string>();
    return AgentSpec{};
  };
  c.side0 = spec_of(a.side0, 0, -1);
  c.side1 = spec_of(a.side1, 1, -1);
  if (!a.side2.is_none()) {
    if (!py::isinstance<py::str>(a.side2)) throw py::type_error("side2 is an agent spec string");
    c.side2 = agent_or_raise(a.side2.cast<std::string>());
  }
  for (const auto& [key, value] : a.seats.cast<py::dict>()) {
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
  return agents;
}

void set_sprt(ExperimentConfig& c, const py::object& sprt) {
  if (sprt.is_none()) return;
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

// The run's configuration from the arguments, refused where canasta sim
// refuses its options.
ExperimentConfig config_of(const SimArgs& a, PythonAgents& agents) {
  check_exclusions(a);
  ExperimentConfig c;
  c.rules = rules_or_raise(a.profile);
  c.seed = seed_or_raise(a.seed);
  c.deals = a.deals.is_none() ? kModuleDeals : whole_or_raise(a.deals, "deals", 1, kMaxCount);
  c.games = a.games.is_none() ? 0 : whole_or_raise(a.games, "games", 1, kMaxCount);
  c.threads = static_cast<int>(whole_or_raise(a.threads, "threads", 0, kMaxThreads));
  agents = set_agents(c, a);
  if (agents.any()) c.threads = 1;  // a Python agent holds the interpreter: one thread
  if (!a.shard.empty() && !parse_shard(a.shard, c.shard, c.shards))
    throw py::value_error(std::string("shard ") + kShardUsage);
  set_sprt(c, a.sprt);
  // The program's default (sides_differ); two callables differ unless they are the same object.
  const bool callables_given = !py::isinstance<py::str>(a.side0) || !py::isinstance<py::str>(a.side1);
  c.duplicate = !a.duplicate.is_none() ? a.duplicate.cast<bool>()
                : callables_given      ? !a.side0.is(a.side1)
                                       : sides_differ(c);
  std::string error;
  // What the library refuses (side2 at two sides, a test at three, ...), before any agent is made.
  if (!check_config(c, error)) throw py::value_error(error);
  return c;
}

// A summary.json and the run's status, from the tally of its rows.
std::pair<std::string, std::string> summary_of(const ExperimentConfig& c, const Tally& t) {
  if (c.games > 0) {
    const GameSummary s = summarize_games(t, c);
    return {game_summary_to_json(c, s), std::string(s.status)};
  }
  const Summary s = summarize(t, c);
  return {summary_to_json(c, s), std::string(s.status)};
}

// Plays the run of `a` and returns its summary and rows.
py::dict run_sim(const SimArgs& a) {
  PythonAgents agents;
  const ExperimentConfig c = config_of(a, agents);
  RunHooks hooks;
  if (agents.any())
    hooks.agent_for = [callables = agents.callables](int seat) -> std::unique_ptr<Agent> {
      const py::object& fn = callables[static_cast<size_t>(seat)];
      if (!fn) return nullptr;
      py::gil_scoped_acquire gil;
      return python_agent(fn.cast<py::function>());
    };
  py::dict out;
  std::string error;
  // Runs deals or games without the GIL, then returns their summary and rows.
  const auto finish = [&](auto rows, const auto& run) {
    bool ok;
    {
      py::gil_scoped_release release;
      ok = run(c, rows, error, hooks);
    }
    if (!ok) throw py::value_error(error);
    if constexpr (std::is_same_v<decltype(rows), std::vector<GameRow>>)
      out["summary"] =
          json_loads(game_summary_to_json(c, summarize_games(tally_games(rows, RunShape::of(c)), c)));
    else
      out["summary"] = json_loads(summary_to_json(c, summarize(tally(rows, RunShape::of(c)), c)));
    // A Python side appears in the summary's configuration by its callable's name.
    py::dict config = out["summary"]["config"];
    for (int side = 0; side < 2; ++side)
      if (!agents.names[static_cast<size_t>(side)].empty())
        config[side ? "side1" : "side0"] = agents.names[static_cast<size_t>(side)];
    out["rows"] = rows_array(std::move(rows), c.rules.teams);
  };
  if (c.games > 0)
    finish(std::vector<GameRow>{}, run_games);
  else
    finish(std::vector<DealRow>{}, run_deals);
  return out;
}

// With resume, the other arguments keep their defaults, threads aside.
void check_resume_alone(const SimArgs& a) {
  const auto is_str = [](const py::object& o, const char* text) {
    return py::isinstance<py::str>(o) && o.cast<std::string>() == text;
  };
  const std::pair<const char*, bool> given[] = {
      {"profile", a.profile != "classic"},
      {"side0", !is_str(a.side0, "random")},
      {"side1", !is_str(a.side1, "random")},
      {"deals", !a.deals.is_none()},
      {"games", !a.games.is_none()},
      {"duplicate", !a.duplicate.is_none()},
      {"seed", !a.seed.equal(py::int_(1))},
      {"seats", !py::isinstance<py::dict>(a.seats) || !a.seats.cast<py::dict>().empty()},
      {"shard", !a.shard.empty()},
      {"sprt", !a.sprt.is_none()},
      {"side2", !a.side2.is_none()}};
  for (const auto& [name, is_given] : given)
    if (is_given)
      throw py::value_error(fmt::format("resume takes no other argument than threads (not {})", name));
}

// Plays what the stopped run `run` did not, as its options `o` say, and
// writes its folder as the program does: summary.json, the rows (the
// stopped run's and the new ones, in order) and run.json, which keeps the
// run's own command.
void finish_stopped_run(const StoppedRun& run, const SimResume& r, const cli::SimOptions& o) {
  const ExperimentConfig& c = o.c;
  std::string error;
  if (!check_config(c, error)) throw InputError{error};
  RunFolder folder(run.dir);
  const std::string name = rows_file_name(c), fresh = folder.staging() + "/" + name;
  const int teams = c.rules.teams;
  std::ofstream rows;
  std::string text;  // the rows' lines, reused
  RunHooks hooks;
  if (o.files.rows) {
    rows.open(fresh, std::ios::binary);
    rows << (c.games > 0 ? game_rows_to_csv({}, teams) : rows_to_csv({}, teams));
    if (c.games > 0)
      hooks.game_rows = [&](std::span<const GameRow> batch) {
        text.clear();
        append_game_rows_csv(text, batch, teams);
        rows << text;
      };
    else
      hooks.deal_rows = [&](std::span<const DealRow> batch) {
        text.clear();
        append_rows_csv(text, batch, teams);
        rows << text;
      };
  }
  hooks.done = r.done;
  hooks.done_tally = &r.tally;
  Tally tallied;
  RunOutcome outcome;
  outcome.tally = &tallied;
  bool ok;
  {
    py::gil_scoped_release release;
    ok = c.games > 0 ? stream_games(c, outcome, error, hooks) : stream_deals(c, outcome, error, hooks);
  }
  if (!ok) throw InputError{error};
  if (o.files.rows && !rows.flush()) throw InputError{"cannot write '" + printable(fresh) + "'"};
  rows.close();
  if (!tallied.add_in_range(r.tally))
    throw InputError{"the stopped run's tally and the new rows add up beyond what a run can hold"};
  const auto [summary, status] = summary_of(c, tallied);
  std::vector<std::string> staged;
  if (o.files.rows) {
    merge_stopped_rows(r, fresh, name);
    staged.push_back(name);
  }
  folder.commit({{"summary.json", summary}}, {run.command, status, tallied.rows, ""}, staged,
                [&, status = status](JsonWriter& w) { write_sim_state(w, tallied, status, outcome.done); });
}

// canasta.sim(resume=DIR): the run stopped in DIR goes on to its end as its
// command said (canasta sim --resume DIR), on `threads` threads; returns
// what read_run then reads.
py::dict resume_sim(const std::string& dir, const py::object& threads) {
  const int n = static_cast<int>(whole_or_raise(threads, "threads", 0, kMaxThreads));
  const StoppedRun run = read_stopped_run(dir, "sim");
  const SimResume r = read_sim_resume(run);
  const cli::SimOptions o = cli::stopped_sim_options(run, n);
  if (!o.files.record.empty())
    throw InputError{printable(run.file) + ": the stopped run wrote records (--record '" +
                     printable(o.files.record) +
                     "'), which go on with the program only: canasta sim --resume " + printable(run.dir) +
                     " --record FILE"};
  check_sim_resume(run, r, o.c);
  finish_stopped_run(run, r, o);
  return read_run(run.dir);
}

}  // namespace

void bind_sim(py::module_& m) {
  // An error in a run folder or an option: ValueError, with the program's message.
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.message.c_str());
    }
  });
  static const std::string doc = fmt::format(
      "canasta sim (deals: {} unless deals or games is given): returns {{'summary': dict as summary.json, "
      "'rows': NumPy structured array of the rows}}; with resume=DIR, the run of the program stopped in DIR "
      "goes on to its end there, and the result is read_run(DIR)",
      kModuleDeals);
  m.def(
      "sim",
      [](const std::string& profile, const py::object& side0, const py::object& side1,
         const py::object& deals, const py::object& games, const py::object& duplicate,
         const py::object& seed, const py::object& threads, const py::object& seats, const std::string& shard,
         const py::object& sprt, const py::object& side2, const py::object& resume) {
        const SimArgs a{profile, side0,   side1, deals, games, duplicate,
                        seed,    threads, seats, shard, sprt,  side2};
        if (resume.is_none()) return run_sim(a);
        check_resume_alone(a);
        return resume_sim(py::str(resume).cast<std::string>(), threads);
      },
      py::arg("profile") = "classic", py::arg("side0") = "random", py::arg("side1") = "random",
      py::arg("deals") = py::none(), py::arg("games") = py::none(), py::arg("duplicate") = py::none(),
      py::arg("seed") = 1, py::arg("threads") = 0, py::arg("seats") = py::dict(), py::arg("shard") = "",
      py::arg("sprt") = py::none(), py::arg("side2") = py::none(), py::arg("resume") = py::none(),
      doc.c_str());
}

}  // namespace canasta::python
