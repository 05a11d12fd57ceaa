#include "canasta/tournament_files.h"

#include <fmt/format.h>

#include <atomic>
#include <filesystem>
#include <string_view>
#include <utility>
#include <vector>

#include "canasta/files.h"
#include "canasta/input_file.h"
#include "canasta/params.h"
#include "canasta/profile.h"
#include "canasta/run_folder.h"

namespace canasta {

namespace {

constexpr const char* kPairsFormat = "canasta-tournament-pairs/1";

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

// run.json's resume.matches into r.matches.
void read_matches(const StoppedRun& run, size_t matches, TournamentResult& r) {
  const Json& v = run.manifest;
  const Json* res = v.contains("resume") && v["resume"].is_object() ? &v["resume"] : nullptr;
  const auto bad = [&] {
    return InputError{printable(run.file) +
                      ": bad resume.matches (a tournament stopped by this version writes it)"};
  };
  if (!res || !res->contains("matches") || !(*res)["matches"].is_array() ||
      (*res)["matches"].size() != matches)
    throw bad();
  for (const Json& m : (*res)["matches"]) {
    MatchPlayed state;
    if (!read_done(m, state.done) || !read_tally(m, state.tally) ||
        state.tally.rows != 2 * ranges_size(state.done))
      throw bad();
    r.matches.push_back(std::move(state));
  }
}

}  // namespace

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

std::string pairs_text(const TournamentConfig& c, const TournamentResult& r) {
  const auto schedule = tournament_schedule(static_cast<int>(c.agents.size()));
  std::string out = std::string(kPairsFormat) + "\n";
  for (size_t m = 0; m < schedule.size(); ++m)
    out += fmt::format("{} {} {}\n", schedule[m].first, schedule[m].second,
                       pair_points_text(r.matches[m].points));
  return out;
}

void write_tournament_state(JsonWriter& w, const TournamentResult& r) {
  w.key("resume").begin_object().key("matches").begin_array();
  for (const Played& m : r.matches) {
    w.begin_object();
    write_done(w, m.done);
    write_tally(w, m.tally);
    w.end_object();
  }
  w.end_array().end_object();
}

TournamentResult read_tournament_resume(const StoppedRun& run, const TournamentConfig& c) {
  const auto schedule = tournament_schedule(static_cast<int>(c.agents.size()));
  TournamentResult r;
  read_matches(run, schedule.size(), r);
  const std::string pairs_path = run.dir + "/pairs.txt";
  std::error_code ec;
  if (std::filesystem::symlink_status(pairs_path, ec).type() == std::filesystem::file_type::not_found)
    throw InputError{printable(pairs_path) + " is missing (a tournament stopped by this version writes it)"};
  // A line a match: its two agents and a character a deal pair.
  const uint64_t cap = 64 + schedule.size() * (static_cast<uint64_t>(c.deals) + 64);
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
  if (!run_tournament(c, again, error, none) ||
      tournament_to_json(c, again) !=
          read_file(run.dir + "/tournament.json", kMaxJsonFile, "a tournament's results"))
    throw InputError{printable(run.dir) + ": run.json (its command, its resume state) and tournament.json " +
                     "do not belong to one run" + (error.empty() ? "" : " (" + error + ")")};
  return r;
}

}  // namespace canasta
