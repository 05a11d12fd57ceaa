#include "canasta/tournament.h"

#include <cassert>

#include "canasta/experiment.h"
#include "canasta/stats.h"

namespace canasta {

namespace {

// A's points in a deal row of two sides: a win 2, a draw 1, a loss 0.
int a_points(const DealRow& r) {
  const int a = a_side_of(r.swapped, 2);
  return r.score[a] > r.score[1 - a] ? 2 : r.score[a] == r.score[1 - a] ? 1 : 0;
}

// Checks a stopped tournament's match `m` (from 1) against its deal pairs:
// its positions within them, and its pairs played at exactly those, with
// the points its tally counts. Starts a match that has none.
bool check_state(MatchPlayed& state, int64_t deals, size_t m, std::string& error) {
  const std::string match = "the stopped tournament's match " + std::to_string(m);
  for (const auto& [first, next] : state.done)
    if (first < 0 || next > deals || first >= next) {
      error = match + " names deal pairs it cannot hold";
      return false;
    }
  if (state.points.size() == 0 && state.done.empty()) state.points = PairPoints(deals);
  bool fits = state.points.size() == deals && state.points.played() == ranges_size(state.done) &&
              2 * state.points.total() == state.tally.group_score.sum;
  for (const auto& [first, next] : state.done)
    for (int64_t d = first; fits && d < next; ++d) fits = state.points.at(d) != PairPoints::kUnplayed;
  if (!fits) error = match + "'s pairs one by one are not those it played";
  return fits;
}

// Plays what match `state` (a against b) misses, until a stop; `played`
// counts the deals this call has played over the matches.
bool play_match(const TournamentConfig& c, int a, int b, MatchPlayed& state, int64_t& played,
                std::string& error, const TournamentHooks& hooks) {
  ExperimentConfig e;
  e.rules = c.rules;
  e.side0 = c.agents[static_cast<size_t>(a)];
  e.side1 = c.agents[static_cast<size_t>(b)];
  e.seed = c.seed;
  e.deals = c.deals;
  e.duplicate = true;
  e.threads = c.threads;
  PairPoints fresh(c.deals);
  RunHooks run;
  run.processes = c.processes;
  run.stop = hooks.stop;
  run.done = state.done;
  run.done_tally = &state.tally;
  // The rows come a pair at a time: twin 0, then twin 1, of one index.
  run.deal_rows = [&fresh](std::span<const DealRow> rows) {
    for (size_t i = 0; i + 1 < rows.size(); i += 2) {
      assert(rows[i].deal == rows[i + 1].deal && rows[i].swapped == 0 && rows[i + 1].swapped == 1);
      fresh.set(rows[i].deal, a_points(rows[i]) + a_points(rows[i + 1]));
    }
  };
  if (hooks.progress) run.progress = [&](int64_t done) { hooks.progress(played + done); };
  Tally tally;
  RunOutcome outcome;
  outcome.tally = &tally;
  if (!stream_deals(e, outcome, error, run)) return false;
  // Every process's part, summed: the match's on each of them.
  c.processes.add_up(tally.words());
  c.processes.add_up(fresh.words());
  played += tally.rows;
  state.tally.add(tally);
  state.points.add(fresh);
  state.done = outcome.done;
  return true;
}

}  // namespace

std::vector<std::pair<int, int>> tournament_schedule(int agents) {
  std::vector<std::pair<int, int>> out;
  for (int a = 0; a < agents; ++a)
    for (int b = a + 1; b < agents; ++b) out.emplace_back(a, b);
  return out;
}

bool run_tournament(const TournamentConfig& c, TournamentResult& out, std::string& error,
                    const TournamentHooks& hooks) {
  const int k = static_cast<int>(c.agents.size());
  if (k < 2) {
    error = "a tournament needs at least two agents";
    return false;
  }
  if (c.rules.teams != 2) {
    error = "a tournament rates pairs of agents: it needs a table of two sides";
    return false;
  }
  const std::vector<std::pair<int, int>> schedule = tournament_schedule(k);
  if (out.matches.empty()) out.matches.resize(schedule.size());
  if (out.matches.size() != schedule.size()) {
    error = "the stopped tournament had " + std::to_string(out.matches.size()) + " matches, this one has " +
            std::to_string(schedule.size());
    return false;
  }
  for (size_t m = 0; m < schedule.size(); ++m)
    if (!check_state(out.matches[m], c.deals, m + 1, error)) return false;
  out.pairs.clear();
  out.ratings.clear();
  out.stopped = false;
  std::vector<MatchScore> scores;
  int64_t played = 0;  // deals played in this call, over the matches
  for (size_t m = 0; m < schedule.size(); ++m) {
    const auto [a, b] = schedule[m];
    MatchPlayed& state = out.matches[m];
    const bool stop = hooks.stop && hooks.stop->load();
    if (ranges_size(state.done) < c.deals && !stop && !play_match(c, a, b, state, played, error, hooks))
      return false;
    const bool complete = ranges_size(state.done) == c.deals;
    out.stopped = out.stopped || !complete;
    if (state.tally.rows == 0) continue;
    out.pairs.push_back({a, b, summarize(state.tally, RunShape{.duplicate = true}), complete});
    scores.push_back({a, b, &state.points});
  }
  // The ratings come from what was played, where a finite fit exists: none
  // where an agent won or lost every deal pair (the matches still stand).
  if (!fit_bradley_terry(k, scores, out.ratings)) out.ratings.clear();
  return true;
}

}  // namespace canasta
