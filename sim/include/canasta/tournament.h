// Round robins: every pair of agent specs in duplicate, and Bradley-Terry
// ratings on the Elo scale fitted to all the results, with intervals over
// the deal pairs.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "canasta/agent.h"
#include "canasta/experiment.h"
#include "canasta/rules.h"
#include "canasta/stats.h"

namespace canasta {

struct TournamentConfig {
  Rules rules;
  std::vector<AgentSpec> agents;  // at least two
  uint64_t seed = 1;
  int64_t deals = 1000;  // deal pairs per match (each played twice); every match plays the same deals
  int threads = 0;
  Processes processes;  // spread over processes (MPI): each plays its block of every match
};

// The matches of a round robin, in the order they are played: (0,1), (0,2),
// ..., (0,k-1), (1,2), ...
std::vector<std::pair<int, int>> tournament_schedule(int agents);

struct PairResult {
  int a = 0, b = 0;  // indices into the agents
  Summary summary;   // a as A, b as B, over the pairs played
  bool complete = false;
};

struct Rating {
  double elo = 0, lo = 0, hi = 0;  // relative to the first agent, with a 95% interval
};

struct TournamentResult {
  // In and out: what each match of the schedule has played (the first agent
  // as A), or none to start; run again with a stopped tournament's, it
  // plays only what is missing.
  std::vector<Played> matches;
  std::vector<PairResult> pairs;  // the matches that played at least one pair
  std::vector<Rating> ratings;    // one per agent, the first fixed at 0; empty when there is no fit
  bool stopped = false;           // the stop ended it before the last match's end
};

struct TournamentHooks {
  const std::atomic<bool>* stop = nullptr;  // ends the match in progress (its finished pairs kept)
  std::function<void(int64_t)> progress;    // deals played so far in this call, from the workers
};

// Plays every match (what `out.matches` does not already hold), then fits
// the ratings. Returns false with a one-line error on a bad configuration
// or resume state.
bool run_tournament(const TournamentConfig& c, TournamentResult& out, std::string& error,
                    const TournamentHooks& hooks = {});

// A match's result for the fit: agent a's duplicate pairs against b, by what
// a scored in the deal and its twin.
struct MatchScore {
  int a = 0, b = 0;
  Pentanomial penta;
};

// Bradley-Terry maximum likelihood from every deal's score (a win 1, a draw
// 1/2), on the Elo scale, agent 0 fixed at 0. The 95% intervals come from
// the sandwich (robust) covariance over the deal pairs, the units that are
// independent: the deals of a pair are dealt alike and their results are
// correlated, which an interval that takes every deal as independent
// ignores. Returns false when the fit does not exist (an agent that won or
// lost everything, or a disconnected schedule).
bool fit_bradley_terry(int agents, std::span<const MatchScore> matches, std::vector<Rating>& out);

}  // namespace canasta
