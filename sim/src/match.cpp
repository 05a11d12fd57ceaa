#include "canasta/match.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "canasta/agent.h"
#include "canasta/sim.h"

namespace canasta {

namespace {

struct PairOutcome {
  double margin;  // A minus B, averaged over the two deals
  double wins;    // deals A won (0, 0.5, 1, 1.5 or 2), halved: a share in [0, 1]
};

// Plays deal `k` with A on side `a_side`; returns A's score minus B's.
int play_one(const Rules& rules, uint64_t seed, int64_t k, int a_side, Agent& a, Agent& b, State& s) {
  start_sim_deal(s, rules, seed, k);
  Rng rng(derive_seed(seed, 5 + static_cast<uint64_t>(a_side), static_cast<uint64_t>(k)));
  while (!s.over()) {
    const int seat = s.actor();
    Agent& who = rules.team_of(seat) == a_side ? a : b;
    apply(s, who.act(View(s, seat), rng));
  }
  const auto score = deal_score(s);
  return score[a_side].total() - score[1 - a_side].total();
}

Estimate estimate(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  double sum = 0;
  for (double v : x) sum += v;
  const double mean = sum / n;
  double ss = 0;
  for (double v : x) ss += (v - mean) * (v - mean);
  const double half = n > 1 ? 1.96 * std::sqrt(ss / (n - 1) / n) : 0;
  return {mean, mean - half, mean + half};
}

}  // namespace

bool run_match(const MatchConfig& c, MatchResult& out, std::string& error) {
  if (!make_agent(c.a, error) || !make_agent(c.b, error)) return false;
  if (c.rules.teams != 2) {
    error = "a match needs a profile with two sides";
    return false;
  }
  const int threads = c.threads > 0 ? c.threads : static_cast<int>(std::thread::hardware_concurrency());
  std::vector<PairOutcome> pairs(static_cast<size_t>(c.pairs));
  const auto t0 = std::chrono::steady_clock::now();
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<int64_t>(0, c.pairs, 16), [&](const tbb::blocked_range<int64_t>& r) {
      std::string ignored;
      auto a = make_agent(c.a, ignored);
      auto b = make_agent(c.b, ignored);
      State s;
      for (int64_t k = r.begin(); k != r.end(); ++k) {
        const int m0 = play_one(c.rules, c.seed, k, 0, *a, *b, s);
        const int m1 = play_one(c.rules, c.seed, k, 1, *a, *b, s);
        const double w = (m0 > 0 ? 1.0 : m0 == 0 ? 0.5 : 0.0) + (m1 > 0 ? 1.0 : m1 == 0 ? 0.5 : 0.0);
        pairs[static_cast<size_t>(k)] = {(m0 + m1) / 2.0, w / 2.0};
      }
    });
  });
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.threads = threads;
  out.pairs = c.pairs;
  std::vector<double> margins, wins;
  margins.reserve(pairs.size());
  wins.reserve(pairs.size());
  for (const auto& p : pairs) {
    margins.push_back(p.margin);
    wins.push_back(p.wins);
  }
  out.margin = estimate(margins);
  out.win_share = estimate(wins);
  out.win_share.lo = std::max(0.0, out.win_share.lo);
  out.win_share.hi = std::min(1.0, out.win_share.hi);
  return true;
}

}  // namespace canasta
