// canasta tournament: a round robin in duplicate, with Bradley-Terry
// ratings; stopped by a signal, it keeps what finished and resumes.
#include "canasta/tournament.h"

#include <fmt/format.h>

#include <filesystem>
#include <optional>

#include "../cli.h"
#include "../cluster.h"
#include "canasta/input_file.h"
#include "canasta/profile.h"

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

// How the ratings' intervals are made (tournament.json, the printout).
constexpr const char* kRatingIntervals = "sandwich clustered by deal index";

// pairs.txt: a line naming its format, then each match of the schedule as
// "A B POINTS", POINTS its pairs one by one (pair_points_text).
constexpr const char* kPairsFormat = "canasta-tournament-pairs/1";

std::string pairs_text(const TournamentResult& r, const std::vector<std::pair<int, int>>& schedule) {
  std::string out = std::string(kPairsFormat) + "\n";
  for (size_t m = 0; m < schedule.size(); ++m)
    out += fmt::format("{} {} {}\n", schedule[m].first, schedule[m].second,
                       pair_points_text(r.matches[m].points));
  return out;
}

// Reads pairs.txt into each match's points; false when it is not the file
// of this schedule.
bool read_pairs(const std::string& text, const std::vector<std::pair<int, int>>& schedule,
                TournamentResult& r) {
  std::vector<std::string_view> lines;
  for (size_t p = 0; p < text.size();) {
    const size_t end = text.find('\n', p);
    if (end == std::string::npos) return false;  // every line ends with one
    lines.emplace_back(text.data() + p, end - p);
    p = end + 1;
  }
  if (lines.size() != schedule.size() + 1 || lines[0] != kPairsFormat || r.matches.size() != schedule.size())
    return false;
  for (size_t m = 0; m < schedule.size(); ++m) {
    const std::string head = fmt::format("{} {} ", schedule[m].first, schedule[m].second);
    if (!lines[m + 1].starts_with(head) ||
        !read_pair_points(lines[m + 1].substr(head.size()), r.matches[m].points))
      return false;
  }
  return true;
}

// tournament.json: the configuration, every match played and the ratings.
std::string tournament_to_json(const TournamentConfig& c, const TournamentResult& r) {
  std::string out;
  JsonWriter w(out);
  const auto interval = [&w](std::string_view name, const Interval& v) {
    w.key(name).begin_object().field("mean", v.mean).field("lo", v.lo).field("hi", v.hi).end_object();
  };
  w.begin_object().field("format", "canasta-tournament/2").field("profile", profile_spec(c.rules));
  w.field("seed", c.seed).field("deals", c.deals).key("agents").begin_array();
  for (const AgentSpec& a : c.agents) w.value(a.to_string());
  w.end_array().key("matches").begin_array();
  for (const PairResult& p : r.pairs) {
    w.begin_object().field("a", p.a).field("b", p.b).field("pairs", p.summary.score.penta.pairs());
    w.field("complete", p.complete);
    interval("margin", p.summary.margin);
    interval("share", p.summary.score.share);
    interval("elo", p.summary.score.elo);
    w.end_object();
  }
  w.end_array().field("rating_intervals", kRatingIntervals).key("ratings").begin_array();
  for (size_t i = 0; i < r.ratings.size(); ++i)
    w.begin_object()
        .field("agent", c.agents[i].to_string())
        .field("elo", r.ratings[i].elo)
        .field("lo", r.ratings[i].lo)
        .field("hi", r.ratings[i].hi)
        .end_object();
  w.end_array().end_object();
  out += '\n';
  return out;
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
  const auto schedule = tournament_schedule(static_cast<int>(c.agents.size()));
  const std::vector<std::pair<std::string, std::string>> files{{"tournament.json", tournament_to_json(c, r)},
                                                               {"pairs.txt", pairs_text(r, schedule)}};
  out->commit(files, status, 2 * pairs, {}, [&](JsonWriter& w) {
    if (!r.stopped) return;
    // What each match played, to be resumed (canasta tournament --resume),
    // with its pairs one by one in pairs.txt.
    w.key("resume").begin_object().key("matches").begin_array();
    for (const Played& m : r.matches) {
      w.begin_object();
      write_done(w, m.done);
      write_tally(w, m.tally);
      w.end_object();
    }
    w.end_array().end_object();
  });
  if (out->wanted() && r.stopped)
    fmt::print("  resume       canasta tournament --resume {}\n", printable(o.out, 400));
  return signal ? 128 + signal : 0;
}

// `canasta tournament --resume DIR [--threads N]`.
int resume_tournament(const std::string& dir, const CLI::Option* threads_option, int threads) {
  const StoppedRun run = read_stopped_run(dir, "tournament");
  CLI::App app;
  auto* sub = app.add_subcommand("tournament");
  TournamentOptions o;
  add_tournament_options(*sub, o);
  parse_stopped_command(app, run, threads_option, threads);
  o.out = run.dir;  // the files go where the run now is
  o.c.processes = cluster_processes();
  TournamentResult r;
  const std::string& path = run.file;
  const Json& v = run.manifest;
  const Json* res = v.contains("resume") && v["resume"].is_object() ? &v["resume"] : nullptr;
  const auto bad = [&] {
    return InputError{printable(path) +
                      ": bad resume.matches (a tournament stopped by this version writes it)"};
  };
  if (!res || !res->contains("matches") || !(*res)["matches"].is_array() ||
      (*res)["matches"].size() != tournament_schedule(static_cast<int>(o.c.agents.size())).size())
    throw bad();
  for (const Json& m : (*res)["matches"]) {
    MatchPlayed state;
    if (!read_done(m, state.done) || !read_tally(m, state.tally) ||
        state.tally.rows != 2 * ranges_size(state.done))
      throw bad();
    r.matches.push_back(std::move(state));
  }
  const std::string pairs_path = run.dir + "/pairs.txt";
  const auto schedule = tournament_schedule(static_cast<int>(o.c.agents.size()));
  std::error_code ec;
  if (std::filesystem::symlink_status(pairs_path, ec).type() == std::filesystem::file_type::not_found)
    throw InputError{printable(pairs_path) + " is missing (a tournament stopped by this version writes it)"};
  // A line a match: its two agents and a character a deal pair.
  const uint64_t cap = 64 + schedule.size() * (static_cast<uint64_t>(o.c.deals) + 64);
  if (!read_pairs(read_file(pairs_path, cap, "a tournament's pairs"), schedule, r))
    throw InputError{printable(pairs_path) + ": not the pairs of this tournament's matches (" + kPairsFormat +
                     ")"};
  // The command, the matches' state and tournament.json must be one run's:
  // the tournament as it stands, computed again without playing, is the file
  // the stopped run wrote (as a sim's summary is checked against its tally).
  TournamentResult again = r;
  const std::atomic<bool> stopped{true};
  TournamentHooks none;
  none.stop = &stopped;
  std::string error;
  if (!run_tournament(o.c, again, error, none) ||
      tournament_to_json(o.c, again) !=
          read_file(run.dir + "/tournament.json", kMaxJsonFile, "a tournament's results"))
    throw InputError{printable(run.dir) + ": run.json (its command, its resume state) and tournament.json " +
                     "do not belong to one run" + (error.empty() ? "" : " (" + error + ")")};
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
    if (resumed(*sub, o->resume, exit_code, [&](const std::string& dir, const CLI::Option* t) {
          return resume_tournament(dir, t, o->c.threads);
        }))
      return;
    if (o->c.agents.size() < 2) throw InputError{"--agents: give two or more agent specs"};
    o->c.processes = cluster_processes();  // under mpirun, every match over all the ranks
    TournamentResult r;
    exit_code = run_tournament_command(*o, r);
  });
}

}  // namespace canasta::cli
