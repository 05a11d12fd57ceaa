// canasta tournament: a round robin in duplicate, with Bradley-Terry ratings.
#include "canasta/tournament.h"

#include <fmt/format.h>

#include "../cli.h"
#include "../cluster.h"
#include "canasta/profile.h"

namespace canasta::cli {

void add_tournament(CLI::App& app, int& exit_code) {
  struct Options {
    TournamentConfig c;
    std::vector<std::string> names;  // as written, for the table
  };
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("tournament", "round robin of agent specs in duplicate, with ratings");
  sub->add_option_function<std::vector<std::string>>(
         "--agents,-a",
         [o](const std::vector<std::string>& specs) {
           for (const std::string& text : specs) {
             o->c.agents.push_back(agent_or_throw("--agents", text));
             o->names.push_back(o->c.agents.back().to_string());
           }
         },
         "two or more agent specs")
      ->required()
      ->expected(2, 64);
  sub->add_option("--deals,-n", o->c.deals, "deal pairs per match")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40))
      ->capture_default_str();
  add_threads_option(*sub, o->c.threads);
  add_seed_option(*sub, o->c.seed, "seed");
  add_profile_option(*sub, o->c.rules);
  sub->callback([o, &exit_code] {
    TournamentConfig& c = o->c;
    c.processes = cluster_processes();  // under mpirun, every match over all the ranks
    const auto& names = o->names;
    TournamentResult r;
    std::string error;
    if (!run_tournament(c, r, error)) throw InputError{error};
    fmt::print(
        "canasta tournament: {} agents, round robin in duplicate, {} deal pairs per match,"
        " profile {}, seed {}\n",
        c.agents.size(), static_cast<long long>(c.deals), profile_spec(c.rules).c_str(),
        static_cast<unsigned long long>(c.seed));
    for (const auto& p : r.pairs)
      fmt::print("  {:<28} vs {:<28} margin {:+8.1f} [{:+7.1f}, {:+7.1f}]  won {:6.2f}%\n",
                 names[static_cast<size_t>(p.a)].c_str(), names[static_cast<size_t>(p.b)].c_str(),
                 p.summary.margin.mean, p.summary.margin.lo, p.summary.margin.hi,
                 100 * p.summary.score.share.mean);
    fmt::print(
        "  ratings (Bradley-Terry, Elo scale, relative to {}; 95% intervals treat deals as independent)\n",
        names[0].c_str());
    for (size_t i = 0; i < names.size(); ++i)
      fmt::print("  {:<28} {:+7.1f} [{:+7.1f}, {:+7.1f}]\n", names[i].c_str(), r.ratings[i].elo,
                 r.ratings[i].lo, r.ratings[i].hi);
    exit_code = 0;
  });
}

}  // namespace canasta::cli
