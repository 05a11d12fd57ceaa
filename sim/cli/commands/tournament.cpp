// canasta tournament: a round robin in duplicate, with Bradley-Terry
// ratings; stopped by a signal, it keeps what finished and resumes.
#include "canasta/tournament.h"

#include <fmt/format.h>

#include <optional>

#include "../cli.h"
#include "../cluster.h"
#include "canasta/profile.h"
#include "canasta/tournament_files.h"

namespace canasta::cli {

namespace {

struct TournamentOptions {
  TournamentConfig c;
  std::string out, resume;
};

void add_tournament_options(CLI::App& sub, TournamentOptions& o) {
  sub.add_option_function<std::vector<std::string>>(
         "--agents,-a",
         [&o](const std::vector<std::string>& specs) {
           for (const std::string& text : specs) o.c.agents.push_back(agent_or_throw("--agents", text));
         },
         "two or more agent specs; the ratings are relative to the first")
      ->expected(2, 64);
  sub.add_option("--deals,-n", o.c.deals, "deal pairs per match (every match plays the same deals)")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40))
      ->capture_default_str();
  add_threads_option(sub, o.c.threads);
  add_seed_option(sub, o.c.seed, "seed");
  add_profile_option(sub, o.c.rules);
  sub.add_option("--out,-o", o.out,
                 "write tournament.json (every match and the ratings) and run.json into this directory")
      ->check(named());
}

// Plays the tournament (what `r.matches` does not hold yet), prints it and
// writes its directory.
int run_tournament_command(const TournamentOptions& o, TournamentResult& r) {
  StopOnSignals signals;  // a first signal ends the match in progress, keeping its finished pairs
  const TournamentConfig& c = o.c;
  const bool writer = cluster().rank == 0;  // under mpirun, rank 0 prints and writes
  std::optional<OutDir> out;
  on_every_rank([&] { out.emplace(writer ? o.out : std::string()); });
  const int64_t matches = static_cast<int64_t>(tournament_schedule(static_cast<int>(c.agents.size())).size());
  int64_t before = 0;
  for (const Played& m : r.matches) before += ranges_size(m.done);
  Progress progress(2 * (matches * c.deals - before), "deals");
  TournamentHooks hooks;
  hooks.stop = &stop_requested();
  hooks.progress = [&progress](int64_t done) { progress(done * cluster().size); };
  std::string error;
  const bool ok = run_tournament(c, r, error, hooks);
  progress.clear();
  if (!ok) throw InputError{error};
  fmt::print(
      "canasta tournament: {} agents, round robin in duplicate, {} deal pairs per match, profile {}, seed "
      "{}\n",
      c.agents.size(), c.deals, profile_spec(c.rules), c.seed);
  if (before > 0) fmt::print("  resumed      {} deal pairs played before\n", before);
  std::vector<std::string> names;
  for (const AgentSpec& a : c.agents) names.push_back(a.to_string());
  for (const PairResult& p : r.pairs)
    fmt::print("  {:<28} vs {:<28} margin {:+8.1f} [{:+7.1f}, {:+7.1f}]  won {:6.2f}%{}\n",
               names[static_cast<size_t>(p.a)], names[static_cast<size_t>(p.b)], p.summary.margin.mean,
               p.summary.margin.lo, p.summary.margin.hi, 100 * p.summary.score.share.mean,
               p.complete ? "" : fmt::format(" ({} of {} pairs)", p.summary.score.penta.pairs(), c.deals));
  if (r.ratings.empty()) {
    fmt::print("  ratings      none{} (no finite fit: an agent won or lost every deal pair)\n",
               r.stopped ? " yet" : "");
  } else {
    fmt::print("  ratings (Bradley-Terry, Elo scale, relative to {}; 95% intervals: {}){}\n", names[0],
               kRatingIntervals, r.stopped ? ", of the pairs played" : "");
    for (size_t i = 0; i < names.size(); ++i)
      fmt::print("  {:<28} {:+7.1f} [{:+7.1f}, {:+7.1f}]\n", names[i], r.ratings[i].elo, r.ratings[i].lo,
                 r.ratings[i].hi);
  }
  const int signal = stop_signal();
  if (signal)
    fmt::print("  stopped      by {}: the numbers above hold the deal pairs that finished\n",
               signal_name(signal));
  if (!writer) return signal ? 128 + signal : 0;
  const std::string status = r.stopped ? "partial" : "complete";
  int64_t pairs = 0;
  for (const Played& m : r.matches) pairs += ranges_size(m.done);
  const std::vector<std::pair<std::string, std::string>> files{{"tournament.json", tournament_to_json(c, r)},
                                                               {"pairs.txt", pairs_text(c, r)}};
  // What each match played, to be resumed (canasta tournament --resume),
  // with its pairs one by one in pairs.txt.
  out->commit(files, status, 2 * pairs, {}, [&](JsonWriter& w) {
    if (r.stopped) write_tournament_state(w, r);
  });
  if (out->wanted() && r.stopped)
    fmt::print("  resume       canasta tournament --resume {}\n", printable(o.out, 400));
  return signal ? 128 + signal : 0;
}

// `canasta tournament --resume DIR [--threads N]`.
int resume_tournament(const std::string& dir, std::optional<int> threads) {
  const StoppedRun run = read_stopped_run(dir, "tournament");
  CLI::App app;
  auto* sub = app.add_subcommand("tournament");
  TournamentOptions o;
  add_tournament_options(*sub, o);
  parse_stopped_command(app, run, threads);
  command_line() = run.command;  // run.json keeps the run's own command, to be resumed again
  o.out = run.dir;               // the files go where the run now is
  o.c.processes = cluster_processes();
  TournamentResult r = read_tournament_resume(run, o.c);
  return run_tournament_command(o, r);
}

}  // namespace

void add_tournament(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<TournamentOptions>();
  auto* sub = app.add_subcommand("tournament", "round robin of agent specs in duplicate, with ratings");
  add_tournament_options(*sub, *o);
  sub->add_option("--resume", o->resume,
                  "go on with the tournament stopped in this directory (by a signal) to its end; with "
                  "--threads at most");
  sub->callback([o, sub, &exit_code] {
    if (resumed(*sub, o->resume, o->c.threads, exit_code, resume_tournament)) return;
    if (o->c.agents.size() < 2) throw InputError{"--agents: give two or more agent specs"};
    o->c.processes = cluster_processes();  // under mpirun, every match over all the ranks
    TournamentResult r;
    exit_code = run_tournament_command(*o, r);
  });
}

}  // namespace canasta::cli
