// canasta tune: one or two agent parameters swept against a fixed opponent.
#include <fmt/format.h>

#include "../cli.h"
#include "canasta/profile.h"
#include "canasta/sweep.h"

namespace canasta::cli {

void add_tune(CLI::App& app, int& exit_code) {
  struct Options {
    std::vector<SweepPoint> points;
    std::string agent, out;
    ExperimentConfig base;
  };
  auto o = std::make_shared<Options>();
  o->base.deals = 2000;
  auto* sub = app.add_subcommand("tune", "sweep one or two agent parameters against a fixed opponent");
  sub->add_option_function<std::string>(
         "--agent",
         [o](const std::string& text) {
           std::string error;
           if (!expand_sweep(text, o->points, error)) throw CLI::ValidationError("--agent", error);
           o->agent = text;
         },
         "agent spec with one or two ranges, e.g. 'heuristic:freeze={0..12..2}'")
      ->required();
  add_agent_option(*sub, "--vs", o->base.side1, "the fixed opponent's spec")->required();
  sub->add_option("--deals,-n", o->base.deals, "deal pairs per point (duplicate)")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40))
      ->capture_default_str();
  add_threads_option(*sub, o->base.threads);
  add_seed_option(*sub, o->base.seed, "seed (the same deals for every point)");
  add_profile_option(*sub, o->base.rules);
  sub->add_option("--out,-o", o->out, "write the table as CSV to this file (scripts/plot_sweep.py draws it)");
  sub->callback([o, &exit_code] {
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
      if (!run_deals(c, rows, error)) throw InputError{error};
      const Summary s = summarize(rows, true);
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
    if (!o->out.empty()) {
      write_atomically(o->out, csv);
      fmt::print("  table        {}\n", o->out.c_str());
    }
    exit_code = 0;
  });
}

}  // namespace canasta::cli
