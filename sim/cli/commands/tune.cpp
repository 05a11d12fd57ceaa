// canasta tune: one or two agent parameters swept against a fixed opponent,
// or several tuned at once by SPSA (--spsa).
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "../cli.h"
#include "../cluster.h"
#include "canasta/profile.h"
#include "canasta/spsa.h"
#include "canasta/sweep.h"
#include "canasta/text.h"
#include "canasta/tune_state.h"

namespace canasta::cli {

namespace {

// Reads "name=c,name=c" into the tuned parameters.
std::vector<SpsaParam> read_spsa_params(const std::string& text) {
  std::vector<SpsaParam> out;
  size_t p = 0;
  while (p <= text.size()) {
    const size_t comma = std::min(text.find(',', p), text.size());
    const std::string item = text.substr(p, comma - p);
    const size_t eq = item.find('=');
    SpsaParam param;
    if (eq == std::string::npos || eq == 0 || !text::to_number(item.substr(eq + 1), param.c) ||
        !(param.c > 0))
      throw CLI::ValidationError("--spsa",
                                 fmt::format("bad item '{}' (write name=c, c > 0: the perturbation, "
                                             "e.g. take_min=1,safety=20)",
                                             printable(item)));
    param.name = item.substr(0, eq);
    out.push_back(param);
    p = comma + 1;
  }
  return out;
}

// What `canasta tune` was given.
struct TuneOptions {
  std::vector<SweepPoint> points;
  std::string agent, out, spec_out, spsa, objective = "win", resume;
  ExperimentConfig base;
  int64_t batches = 200;
  double r_end = 0.002;
  CLI::Option* vs = nullptr;
};

// After a stop: the table so far and, with it, what a resume needs.
void keep_stopped(const std::string& out, TuneState& state) {
  if (out.empty() || cluster().rank != 0) return;
  state.command = command_line();
  write_atomically(out, state.table);
  write_tune_state(out, state);
  fmt::print("  table        {} (so far)\n  resume       canasta tune --resume {}\n", printable(out, 400),
             printable(out, 400));
}

// The end of a run that finished: the table, and no resume state left.
void keep_finished(const std::string& out, const std::string& table, const char* what) {
  if (out.empty() || cluster().rank != 0) return;  // under mpirun, rank 0 writes the files
  write_atomically(out, table);
  std::error_code ec;
  std::filesystem::remove(tune_state_path(out), ec);
  fmt::print("  {:<12} {}\n", what, printable(out, 400));
}

// The SPSA run of `canasta tune --spsa`.
int run_tune_spsa(SpsaConfig c, const std::string& out, const std::string& spec_out, TuneState state) {
  std::string error;
  if (!check_spsa(c, error)) throw InputError{error};
  fmt::print("canasta tune: SPSA on {} ({}), {} batches of {} deal pairs, {}, profile {}, seed {}\n",
             c.agent.to_string(),
             c.vs ? "each perturbation against " + c.vs->to_string() : "theta+ against theta-", c.batches,
             c.pairs, c.objective == SpsaObjective::kWin ? "deals won" : "margin / 1000",
             profile_spec(c.rules), c.seed);
  std::string header = "batch,pairs,result";
  for (const SpsaParam& p : c.params) header += "," + p.name;
  for (const SpsaParam& p : c.params) header += ",c_" + p.name;
  header += "\n";
  if (!spsa_state_fits(state, header, c))
    throw InputError{"the stopped SPSA run's state does not fit its command"};
  std::string& csv = state.table;
  if (csv.empty()) csv = header;
  SpsaStep last;
  c.first_batch = state.batches;
  if (state.batches > 0) {
    fmt::print("  resumed      {} of {} batches played before\n", state.batches, c.batches);
    c.resume_theta = state.theta;
    last.batch = state.batches - 1;
    last.pairs = state.batches * c.pairs;
    last.theta = state.theta;
  }
  int64_t shown = last.theta.empty() ? -1 : last.batch;
  StopOnSignals signals;
  Progress progress((c.batches - c.first_batch) * c.pairs * (c.vs ? 4 : 2), "deals");
  const bool ok = run_spsa(
      c,
      [&](const SpsaStep& s) {
        csv += fmt::format("{},{},{:.6g}", s.batch, s.pairs, s.result);
        for (double v : s.theta) csv += fmt::format(",{:.6g}", v);
        for (double v : s.c) csv += fmt::format(",{:.6g}", v);
        csv += "\n";
        last = s;
        progress((s.batch + 1 - c.first_batch) * c.pairs * (c.vs ? 4 : 2));
        const int64_t every = std::max<int64_t>(1, c.batches / 20);
        if (s.batch % every == every - 1 || s.batch + 1 == c.batches) {
          progress.clear();
          fmt::print("  batch {:>6}  pairs {:>9}  {}\n", s.batch + 1, s.pairs,
                     spsa_agent(c, s.theta).to_string());
          std::fflush(stdout);
          shown = s.batch;
        }
      },
      error, &stop_requested());
  progress.clear();
  if (!ok) throw InputError{error};
  if (last.theta.empty()) {
    fmt::print("  stopped before the first batch finished: nothing written\n");
    return stop_signal() ? 128 + stop_signal() : 0;
  }
  if (shown != last.batch)
    fmt::print("  batch {:>6}  pairs {:>9}  {}\n", last.batch + 1, last.pairs,
               spsa_agent(c, last.theta).to_string());
  const std::string final_spec = spsa_agent(c, last.theta).to_string();
  const bool stopped = stop_signal() != 0 && last.batch + 1 < c.batches;
  fmt::print("  {:<12} {}\n", stopped ? "so far" : "final", final_spec);
  if (stopped) {
    fmt::print("  stopped      by {} after {} of {} batches\n", signal_name(stop_signal()), last.batch + 1,
               c.batches);
    state.batches = last.batch + 1;
    state.theta = last.theta;
    keep_stopped(out, state);
    return 128 + stop_signal();
  }
  keep_finished(out, csv, "trajectory");
  if (!spec_out.empty() && cluster().rank == 0) {
    write_atomically(spec_out, final_spec + "\n");
    fmt::print("  final spec   {}\n", printable(spec_out, 400));
  }
  return stop_signal() ? 128 + stop_signal() : 0;
}

// A point's first cells in the table: its values, then its spec, quoted.
// Refused before any work where a value would begin a cell as a formula
// does in a spreadsheet (=, +, -, @) without being a number.
std::string sweep_row_start(const SweepPoint& p) {
  std::string out;
  for (const auto& [name, value] : p.values) {
    if (formula_like(value))
      throw InputError{"the value '" + printable(value) + "' of " + printable(name) +
                       " would begin a cell of the table as a spreadsheet formula: name it otherwise"};
    out += value + ",";
  }
  return out + "\"" + p.agent.to_string() + "\",";
}

// A sweep: every point against the fixed opponent, in duplicate.
int run_tune_sweep(const TuneOptions& o, TuneState state) {
  ExperimentConfig base = o.base;
  base.duplicate = true;
  std::string& csv = state.table;
  std::string header;
  for (const auto& [name, value] : o.points.front().values) header += name + ",";
  header += "spec,deals,margin,margin_lo,margin_hi,win_share,win_lo,win_hi,elo,elo_lo,elo_hi\n";
  const int64_t count = static_cast<int64_t>(o.points.size());
  std::vector<std::string> starts;
  for (const SweepPoint& p : o.points) starts.push_back(sweep_row_start(p));
  const bool resumed = state.points > 0 || ranges_size(state.point.done) > 0;
  if (!sweep_state_fits(state, starts, header, base.deals))
    throw InputError{"the stopped sweep's state does not fit its points"};
  if (csv.empty()) csv = header;
  fmt::print("canasta tune: {} against {}, {} deal pairs per point, profile {}, seed {}\n",
             printable(o.agent), base.side1.to_string(), base.deals, profile_spec(base.rules), base.seed);
  if (resumed) fmt::print("  resumed      {} of {} points played before\n", state.points, count);
  fmt::print("  {:<44} {:>26} {:>26} {:>22}\n", "spec", "margin per deal [95%]", "deals won [95%]",
             "Elo [95%]");
  StopOnSignals signals;
  Progress progress(2 * (base.deals * (count - state.points) - ranges_size(state.point.done)), "deals");
  int64_t played = 0;
  for (; state.points < count; ++state.points) {
    const SweepPoint& p = o.points[static_cast<size_t>(state.points)];
    ExperimentConfig c = base;
    c.side0 = p.agent;
    std::string error;
    RunHooks hooks;
    hooks.processes = cluster_processes();  // under mpirun, every point over all the ranks
    hooks.stop = &stop_requested();
    hooks.progress = [&](int64_t done) { progress((played + done) * cluster().size); };
    hooks.done = state.point.done;
    hooks.done_tally = &state.point.tally;
    Tally fresh;
    RunOutcome outcome;
    outcome.tally = &fresh;
    if (!stream_deals(c, outcome, error, hooks)) throw InputError{error};
    hooks.processes.add_up(fresh.words());
    played += fresh.rows;
    if (!state.point.tally.add_in_range(fresh))
      throw InputError{"the stopped point's tally and the new rows add up beyond what a run can hold"};
    state.point.done = outcome.done;
    if (ranges_size(state.point.done) < c.deals) break;  // stopped
    const Summary s = summarize(state.point.tally, c);   // with three sides: A against the mean of the others
    state.point = {};
    const std::string spec = p.agent.to_string();
    progress.clear();
    fmt::print(
        "  {:<44} {:+8.1f} [{:+7.1f}, {:+7.1f}] {:6.2f}% [{:5.2f}%, {:5.2f}%] {:+6.0f} [{:+5.0f}, "
        "{:+5.0f}]\n",
        spec, s.margin.mean, s.margin.lo, s.margin.hi, 100 * s.score.share.mean, 100 * s.score.share.lo,
        100 * s.score.share.hi, s.score.elo.mean, s.score.elo.lo, s.score.elo.hi);
    std::fflush(stdout);
    csv += starts[static_cast<size_t>(state.points)];
    csv += fmt::format("{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g}\n", s.rows,
                       s.margin.mean, s.margin.lo, s.margin.hi, s.score.share.mean, s.score.share.lo,
                       s.score.share.hi, s.score.elo.mean, s.score.elo.lo, s.score.elo.hi);
  }
  progress.clear();
  if (state.points < count) {
    fmt::print("  stopped      by {} in point {} of {} ({} of {} deal pairs played)\n",
               signal_name(stop_signal()), state.points + 1, count, ranges_size(state.point.done),
               base.deals);
    keep_stopped(o.out, state);
    return 128 + stop_signal();
  }
  keep_finished(o.out, csv, "table");
  return stop_signal() ? 128 + stop_signal() : 0;
}

void add_tune_options(CLI::App& sub, TuneOptions& o) {
  o.base.deals = 2000;
  sub.add_option_function<std::string>(
      "--agent",
      [&o](const std::string& text) {
        std::string error;
        if (!expand_sweep(text, o.points, error)) throw CLI::ValidationError("--agent", error);
        o.agent = text;
      },
      "agent spec with one or two ranges, e.g. 'heuristic:freeze={0..12..2}'; "
      "with --spsa, the start values, e.g. 'heuristic:take_min=1'");
  o.vs = add_agent_option(sub, "--vs", o.base.side1,
                          "the fixed opponent's spec: required, except with --spsa (without it the two "
                          "perturbations play each other)")
             ->default_str("");  // no default: required
  sub.add_option("--spsa", o.spsa,
                 "tune these parameters at once by SPSA: name=c,... (c: the perturbation at the end, in the "
                 "parameter's units)")
      ->check(named());
  sub.add_option("--batches", o.batches, "SPSA: batches (each one perturbation, --deals pairs)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30))
      ->capture_default_str();
  sub.add_option(
         "--r-end", o.r_end,
         "SPSA: a_end = r_end c^2, so that at the end a parameter moves about r_end c per unit of result")
      ->check(above_zero())
      ->capture_default_str();
  sub.add_option("--objective", o.objective,
                 "SPSA: what a deal pair scores: win (deals won minus lost) or margin")
      ->check(CLI::IsMember({"win", "margin"}))
      ->capture_default_str();
  sub.add_option("--spec-out", o.spec_out, "SPSA: write the final spec to this file")->check(named());
  sub.add_option("--deals,-n", o.base.deals, "deal pairs per point (duplicate); with --spsa, per batch")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40))
      ->capture_default_str();
  add_threads_option(sub, o.base.threads);
  add_seed_option(sub, o.base.seed, "seed (the same deals for every point)");
  add_profile_option(sub, o.base.rules);
  sub.add_option("--out,-o", o.out,
                 "write the table as CSV to this file (scripts/plot_sweep.py draws it); with --spsa, the "
                 "trajectory (scripts/plot_spsa.py); stopped by a signal, the table so far and "
                 "FILE.resume.json, to go on with --resume FILE")
      ->check(named());
}

int run_tune(const TuneOptions& o, TuneState state) {
  if (o.points.empty()) throw InputError{"--agent is required"};
  check_output_file("--out", o.out);
  check_output_file("--spec-out", o.spec_out);
  std::vector<const AgentSpec*> agents{&o.base.side1};
  for (const SweepPoint& p : o.points) agents.push_back(&p.agent);
  check_distinct_files({{"--out", o.out}, {"--spec-out", o.spec_out}}, files_read(agents));
  if (!o.spsa.empty()) {
    SpsaConfig c;
    c.rules = o.base.rules;
    if (o.points.size() != 1 || !o.points.front().values.empty())
      throw InputError{"with --spsa, --agent gives start values, not ranges"};
    c.agent = o.points.front().agent;
    c.params = read_spsa_params(o.spsa);
    if (o.vs->count() > 0) c.vs = o.base.side1;
    c.batches = o.batches;
    c.pairs = o.base.deals;
    c.r_end = o.r_end;
    c.objective = o.objective == "margin" ? SpsaObjective::kMargin : SpsaObjective::kWin;
    c.seed = o.base.seed;
    c.threads = o.base.threads;
    c.processes = cluster_processes();  // under mpirun, every batch over all the ranks
    return run_tune_spsa(c, o.out, o.spec_out, std::move(state));
  }
  if (o.vs->count() == 0) throw InputError{"--vs is required (the fixed opponent), except with --spsa"};
  return run_tune_sweep(o, std::move(state));
}

// `canasta tune --resume FILE [--threads N]`: the stopped run's command,
// read again from FILE.resume.json, with FILE as its table.
int resume_tune(const std::string& out, std::optional<int> threads, const std::string& spec_out_now) {
  TuneState state = read_tune_state(out);
  StoppedRun run;
  run.file = tune_state_path(out);
  run.command = state.command;
  CLI::App app;
  auto* sub = app.add_subcommand("tune");
  TuneOptions o;
  add_tune_options(*sub, o);
  parse_stopped_command(app, run, threads);
  command_line() = run.command;  // the state keeps the run's own command, to be resumed again
  o.out = out;                   // the table goes where it now is, the final spec where the user says now
  o.spec_out = output_named_now(run, "--spec-out", o.spec_out, spec_out_now);
  return run_tune(o, std::move(state));
}

}  // namespace

void add_tune(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<TuneOptions>();
  auto* sub = app.add_subcommand(
      "tune", "sweep one or two agent parameters against a fixed opponent, or tune several at once (--spsa)");
  add_tune_options(*sub, *o);
  sub->add_option("--resume", o->resume,
                  "go on with the tuning run stopped (by a signal) with this table (--out), to its end; with "
                  "--threads at most, and --spec-out FILE where the run was to write its final spec");
  sub->callback([o, sub, &exit_code] {
    const auto resume = [&](const std::string& table, std::optional<int> threads) {
      return resume_tune(table, threads, o->spec_out);
    };
    if (resumed(*sub, o->resume, o->base.threads, exit_code, resume, {"--spec-out"})) return;
    exit_code = run_tune(*o, {});
  });
}

}  // namespace canasta::cli
