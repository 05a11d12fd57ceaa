// canasta tune: one or two agent parameters swept against a fixed opponent,
// or several tuned at once by SPSA (--spsa).
#include <fmt/format.h>

#include "../cli.h"
#include "../cluster.h"
#include "canasta/profile.h"
#include "canasta/spsa.h"
#include "canasta/sweep.h"
#include "canasta/text.h"

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

// The SPSA run of `canasta tune --spsa`.
int run_tune_spsa(SpsaConfig c, const std::string& out, const std::string& spec_out) {
  std::string error;
  if (!check_spsa(c, error)) throw InputError{error};
  fmt::print("canasta tune: SPSA on {} ({}), {} batches of {} deal pairs, {}, profile {}, seed {}\n",
             c.agent.to_string(),
             c.vs ? "each perturbation against " + c.vs->to_string() : "theta+ against theta-", c.batches,
             c.pairs, c.objective == SpsaObjective::kWin ? "deals won" : "margin / 1000",
             profile_spec(c.rules), c.seed);
  std::string csv = "batch,pairs,result";
  for (const SpsaParam& p : c.params) csv += "," + p.name;
  for (const SpsaParam& p : c.params) csv += ",c_" + p.name;
  csv += "\n";
  SpsaStep last;
  int64_t shown = -1;
  StopOnSignals signals;
  const bool ok = run_spsa(
      c,
      [&](const SpsaStep& s) {
        csv += fmt::format("{},{},{:.6g}", s.batch, s.pairs, s.result);
        for (double v : s.theta) csv += fmt::format(",{:.6g}", v);
        for (double v : s.c) csv += fmt::format(",{:.6g}", v);
        csv += "\n";
        last = s;
        const int64_t every = std::max<int64_t>(1, c.batches / 20);
        if (s.batch % every == every - 1 || s.batch + 1 == c.batches) {
          fmt::print("  batch {:>6}  pairs {:>9}  {}\n", s.batch + 1, s.pairs,
                     spsa_agent(c, s.theta).to_string());
          std::fflush(stdout);
          shown = s.batch;
        }
      },
      error, &stop_requested());
  if (!ok) throw InputError{error};
  if (last.theta.empty()) {
    fmt::print("  stopped before the first batch finished: nothing written\n");
    return stop_signal() ? 128 + stop_signal() : 0;
  }
  if (shown != last.batch)
    fmt::print("  batch {:>6}  pairs {:>9}  {}\n", last.batch + 1, last.pairs,
               spsa_agent(c, last.theta).to_string());
  const std::string final_spec = spsa_agent(c, last.theta).to_string();
  fmt::print("  final        {}\n", final_spec);
  const bool writer = cluster().rank == 0;  // under mpirun, rank 0 writes the files
  if (!out.empty() && writer) {
    write_atomically(out, csv);
    fmt::print("  trajectory   {}\n", out);
  }
  if (!spec_out.empty() && writer) {
    write_atomically(spec_out, final_spec + "\n");
    fmt::print("  final spec   {}\n", spec_out);
  }
  if (stop_signal()) {
    fmt::print("  stopped      by {} after {} of {} batches\n", signal_name(stop_signal()), last.batch + 1,
               c.batches);
    return 128 + stop_signal();
  }
  return 0;
}

}  // namespace

void add_tune(CLI::App& app, int& exit_code) {
  struct Options {
    std::vector<SweepPoint> points;
    std::string agent, out, spec_out, spsa, objective = "win";
    ExperimentConfig base;
    int64_t batches = 200;
    double r_end = 0.002;
    bool vs_given = false;
  };
  auto o = std::make_shared<Options>();
  o->base.deals = 2000;
  auto* sub = app.add_subcommand(
      "tune", "sweep one or two agent parameters against a fixed opponent, or tune several at once (--spsa)");
  sub->add_option_function<std::string>(
         "--agent",
         [o](const std::string& text) {
           std::string error;
           if (!expand_sweep(text, o->points, error)) throw CLI::ValidationError("--agent", error);
           o->agent = text;
         },
         "agent spec with one or two ranges, e.g. 'heuristic:freeze={0..12..2}'; "
         "with --spsa, the start values, e.g. 'heuristic:take_min=1'")
      ->required();
  auto* vs = add_agent_option(*sub, "--vs", o->base.side1,
                              "the fixed opponent's spec: required, except with --spsa (without it the two "
                              "perturbations play each other)");
  sub->add_option("--spsa", o->spsa,
                  "tune these parameters at once by SPSA: name=c,... (c: the perturbation at the end, in the "
                  "parameter's units)");
  sub->add_option("--batches", o->batches, "SPSA: batches (each one perturbation, --deals pairs)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 30))
      ->capture_default_str();
  sub->add_option(
         "--r-end", o->r_end,
         "SPSA: a_end = r_end c^2, so that at the end a parameter moves about r_end c per unit of result")
      ->check(above_zero())
      ->capture_default_str();
  sub->add_option("--objective", o->objective,
                  "SPSA: what a deal pair scores: win (deals won minus lost) or margin")
      ->check(CLI::IsMember({"win", "margin"}))
      ->capture_default_str();
  sub->add_option("--spec-out", o->spec_out, "SPSA: write the final spec to this file");
  sub->add_option("--deals,-n", o->base.deals, "deal pairs per point (duplicate); with --spsa, per batch")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40))
      ->capture_default_str();
  add_threads_option(*sub, o->base.threads);
  add_seed_option(*sub, o->base.seed, "seed (the same deals for every point)");
  add_profile_option(*sub, o->base.rules);
  sub->add_option(
      "--out,-o", o->out,
      "write the table as CSV to this file (scripts/plot_sweep.py draws it); with --spsa, the trajectory "
      "(scripts/plot_spsa.py)");
  sub->callback([o, vs, &exit_code] {
    o->vs_given = vs->count() > 0;
    if (!o->spsa.empty()) {
      SpsaConfig c;
      c.rules = o->base.rules;
      if (o->points.size() != 1 || !o->points.front().values.empty())
        throw InputError{"with --spsa, --agent gives start values, not ranges"};
      c.agent = o->points.front().agent;
      c.params = read_spsa_params(o->spsa);
      if (o->vs_given) c.vs = o->base.side1;
      c.batches = o->batches;
      c.pairs = o->base.deals;
      c.r_end = o->r_end;
      c.objective = o->objective == "margin" ? SpsaObjective::kMargin : SpsaObjective::kWin;
      c.seed = o->base.seed;
      c.threads = o->base.threads;
      c.processes = cluster_processes();  // under mpirun, every batch over all the ranks
      exit_code = run_tune_spsa(c, o->out, o->spec_out);
      return;
    }
    if (!o->vs_given) throw InputError{"--vs is required (the fixed opponent), except with --spsa"};
    ExperimentConfig base = o->base;
    base.duplicate = true;
    std::string csv;
    for (const auto& [name, value] : o->points.front().values) csv += name + ",";
    csv += "spec,deals,margin,margin_lo,margin_hi,win_share,win_lo,win_hi,elo,elo_lo,elo_hi\n";
    fmt::print("canasta tune: {} against {}, {} deal pairs per point, profile {}, seed {}\n",
               o->agent.c_str(), base.side1.to_string().c_str(), static_cast<long long>(base.deals),
               profile_spec(base.rules).c_str(), static_cast<unsigned long long>(base.seed));
    fmt::print("  {:<44} {:>26} {:>26} {:>22}\n", "spec", "margin per deal [95%]", "deals won [95%]",
               "Elo [95%]");
    for (const auto& p : o->points) {
      ExperimentConfig c = base;
      c.side0 = p.agent;
      std::vector<DealRow> rows;
      std::string error;
      RunHooks hooks;
      hooks.processes = cluster_processes();  // under mpirun, every point over all the ranks
      if (!run_deals(c, rows, error, hooks)) throw InputError{error};
      Tally t = tally(rows, c.duplicate, c.rules.teams);
      hooks.processes.add_up(t.words());
      const Summary s = summarize(t, c);  // with three sides: A against the mean of the others
      const std::string spec = p.agent.to_string();
      std::fputs(fmt::format("  {:<44} {:+8.1f} [{:+7.1f}, {:+7.1f}] {:6.2f}% [{:5.2f}%, {:5.2f}%] {:+6.0f} "
                             "[{:+5.0f}, {:+5.0f}]\n",
                             spec, s.margin.mean, s.margin.lo, s.margin.hi, 100 * s.score.share.mean,
                             100 * s.score.share.lo, 100 * s.score.share.hi, s.score.elo.mean, s.score.elo.lo,
                             s.score.elo.hi)
                     .c_str(),
                 stdout);
      std::fflush(stdout);
      for (const auto& [name, value] : p.values) csv += value + ",";
      csv +=
          fmt::format("\"{}\",{},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{:.6g}\n", spec,
                      s.rows, s.margin.mean, s.margin.lo, s.margin.hi, s.score.share.mean, s.score.share.lo,
                      s.score.share.hi, s.score.elo.mean, s.score.elo.lo, s.score.elo.hi);
    }
    if (!o->out.empty() && cluster().rank == 0) {  // under mpirun, rank 0 writes the file
      write_atomically(o->out, csv);
      fmt::print("  table        {}\n", o->out.c_str());
    }
    exit_code = 0;
  });
}

}  // namespace canasta::cli
