// Round robins: every pair of agent specs in duplicate over the same deals,
// and Bradley-Terry ratings on the Elo scale fitted to all the results
// (canasta/bradley_terry.h), with intervals clustered by deal index.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "canasta/agent.h"
#include "canasta/bradley_terry.h"
#include "canasta/experiment.h"
#include "canasta/pair_points.h"
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

// What a match has played: its positions, their tally, and its pairs one by
// one (c.deals of them, played exactly at the positions done; none at all
// before the first start).
struct MatchPlayed : Played {
  PairPoints points;
};

struct TournamentResult {
  // In and out: what each match of the schedule has played (the first agent
  // as A), or none to start; run again with a stopped tournament's, it
  // plays only what is missing.
  std::vector<MatchPlayed> matches;
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

}  // namespace canasta
