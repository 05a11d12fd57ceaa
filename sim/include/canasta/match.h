// Matches: two agent specs over the same deals with the sides swapped
// (duplicate play), so that the luck of the deal cancels.
#pragma once

#include <cstdint>
#include <string>

#include "canasta/rules.h"

namespace canasta {

struct MatchConfig {
  Rules rules;
  std::string a = "heuristic";  // agent spec of the first contestant
  std::string b = "random";     // agent spec of the second
  uint64_t seed = 1;
  int64_t pairs = 1000;  // deal pairs: each deal is played twice, sides swapped
  int threads = 0;       // 0: all cores
};

// A value with its 95% confidence interval.
struct Estimate {
  double mean = 0, lo = 0, hi = 0;
};

struct MatchResult {
  int64_t pairs = 0;
  Estimate margin;     // A's score minus B's, per deal (mean over pairs of the pair's average)
  Estimate win_share;  // share of deals A won (a tied deal counts half)
  double seconds = 0;
  int threads = 0;
};

// Plays the match; the result is the same for every thread count. Returns
// false with a one-line error on a bad agent spec.
bool run_match(const MatchConfig& config, MatchResult& out, std::string& error);

}  // namespace canasta
