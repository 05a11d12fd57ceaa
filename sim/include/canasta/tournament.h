// Round robins: every pair of agent specs in duplicate, and Bradley-Terry
// ratings on the Elo scale fitted to all the results.
#pragma once

#include <cstdint>
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
  int64_t deals = 1000;  // deal pairs per match (each played twice)
  int threads = 0;
  Processes processes;  // spread over processes (MPI): each plays its block of every match
};

struct PairResult {
  int a = 0, b = 0;  // indices into the agents
  Summary summary;   // a as A, b as B
};

struct Rating {
  double elo = 0, lo = 0, hi = 0;  // relative to the first agent, with a 95% interval
};

struct TournamentResult {
  std::vector<PairResult> pairs;
  std::vector<Rating> ratings;  // one per agent, the first fixed at 0
};

bool run_tournament(const TournamentConfig& c, TournamentResult& out, std::string& error);

// Bradley-Terry maximum likelihood from `wins[i][j]` (deals i won against j,
// a tie counting half to each); Elo scale, agent 0 fixed at 0, 95% intervals
// from the observed information. Returns false when the fit does not exist
// (an agent that won or lost everything, or a disconnected schedule).
bool fit_bradley_terry(const std::vector<std::vector<double>>& wins, std::vector<Rating>& out);

}  // namespace canasta
