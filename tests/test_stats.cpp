// The statistics of a run: pentanomial counts, the score share with its
// interval over pairs, normalized Elo, LOS and draw ratio, against numbers
// worked by hand, and their calibration over repeated runs of equal agents.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "canasta/experiment.h"
#include "canasta/stats.h"
#include "helpers.h"

namespace canasta::test {
namespace {

constexpr double kZ = 1.959963984540054;
constexpr double kNelo = 800 / 2.302585092994046;

// Outcomes of duplicate pairs, A's score in each twin (margins follow the score).
std::vector<Outcome> pairs_of(const std::vector<std::pair<double, double>>& scores) {
  std::vector<Outcome> out;
  int64_t k = 0;
  for (const auto& [first, second] : scores) {
    out.push_back({k, 0, first, (first - 0.5) * 100});
    out.push_back({k, 1, second, (second - 0.5) * 100});
    ++k;
  }
  return out;
}

TEST(Stats, PentanomialByHand) {
  // One pair of each kind: pair scores 1, 1/2, 1/2, 0, 3/4, 1/4.
  const ScoreStats s =
      score_stats(pairs_of({{1, 1}, {1, 0}, {0.5, 0.5}, {0, 0}, {1, 0.5}, {0.5, 0}}), kDuplicate);
  ASSERT_TRUE(s.paired);
  EXPECT_EQ(s.penta, (Pentanomial{1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(s.a_won, 4);
  EXPECT_EQ(s.b_won, 4);
  EXPECT_EQ(s.drawn, 4);
  const double var = (0.25 + 0 + 0 + 0.25 + 0.0625 + 0.0625) / 6;  // per pair, about the mean 1/2
  const double se = std::sqrt(var / 6);
  EXPECT_DOUBLE_EQ(s.share.mean, 0.5);
  EXPECT_NEAR(s.share.lo, 0.5 - kZ * se, 1e-12);
  EXPECT_NEAR(s.share.hi, 0.5 + kZ * se, 1e-12);
  EXPECT_NEAR(s.nelo.mean, 0, 1e-12);
  EXPECT_NEAR(s.nelo.hi, kZ * se / std::sqrt(2 * var) * kNelo, 1e-9);
  EXPECT_DOUBLE_EQ(s.los, 0.5);
  EXPECT_DOUBLE_EQ(s.draw_ratio, 2.0 / 6);  // WL and DD
  EXPECT_FALSE(s.mirror);
  EXPECT_NEAR(s.elo.hi, -s.elo.lo, 1e-9);
}

TEST(Stats, TrinomialByHand) {
  // Three wins, a draw, a loss: score 0.7, variance 0.16 per deal.
  const std::vector<Outcome> o{{0, 0, 1, 50}, {1, 0, 1, 50}, {2, 0, 1, 50}, {3, 0, 0.5, 0}, {4, 0, 0, -50}};
  const ScoreStats s = score_stats(o, RunShape{});
  EXPECT_FALSE(s.paired);
  EXPECT_DOUBLE_EQ(s.share.mean, 0.7);
  EXPECT_NEAR(s.los, 0.5 * std::erfc(-(0.2 / std::sqrt(0.16 / 5)) / std::sqrt(2.0)), 1e-12);
  EXPECT_NEAR(s.nelo.mean, 0.2 / 0.4 * kNelo, 1e-9);
  EXPECT_DOUBLE_EQ(s.draw_ratio, 0.2);
  const Interval w = wilson(3.5, 5);
  EXPECT_DOUBLE_EQ(s.share.lo, w.lo);
  EXPECT_DOUBLE_EQ(s.elo.mean, elo_of(0.7));
}

// A clean sweep (or any run whose deals all scored alike) has no spread, so
// no normalized Elo: it is not a number (null in summary.json), never a 0
// that would read as "no difference".
TEST(Stats, NormalizedEloHasNoValueWithoutSpread) {
  const ScoreStats swept = score_stats(pairs_of({{1, 1}, {1, 1}, {1, 1}}), kDuplicate);
  EXPECT_DOUBLE_EQ(swept.share.mean, 1.0);
  EXPECT_TRUE(std::isnan(swept.nelo.mean));
  EXPECT_TRUE(std::isnan(swept.nelo.lo));
  EXPECT_TRUE(std::isnan(swept.nelo.hi));
  const std::vector<Outcome> won{{0, 0, 1, 50}, {1, 0, 1, 80}};
  EXPECT_TRUE(std::isnan(score_stats(won, RunShape{}).nelo.mean));
  // One deal lost among them gives the spread a value again.
  const std::vector<Outcome> mixed{{0, 0, 1, 50}, {1, 0, 1, 80}, {2, 0, 0, -20}};
  EXPECT_TRUE(std::isfinite(score_stats(mixed, RunShape{}).nelo.mean));
  EXPECT_GT(score_stats(mixed, RunShape{}).nelo.mean, 0);
}

// A share's interval stays within [0, 1] where the normal approximation
// overshoots: three pairs won outright and one split (0.875 +- 0.245).
TEST(Stats, ShareBoundsStayWithinZeroAndOne) {
  const ScoreStats s = score_stats(pairs_of({{1, 1}, {1, 1}, {1, 1}, {1, 0}}), kDuplicate);
  EXPECT_DOUBLE_EQ(s.share.mean, 0.875);
  EXPECT_DOUBLE_EQ(s.share.hi, 1.0);
  EXPECT_GT(s.share.lo, 0.5);
  const ScoreStats low = score_stats(pairs_of({{0, 0}, {0, 0}, {0, 0}, {1, 0}}), kDuplicate);
  EXPECT_DOUBLE_EQ(low.share.lo, 0.0);
  EXPECT_LT(low.share.hi, 0.5);
}

TEST(Stats, MirrorPairsAreDetected) {
  // Every twin the exact mirror of its deal: A wins one, loses the other by as much.
  std::vector<Outcome> o;
  for (int64_t k = 0; k < 10; ++k) {
    o.push_back({k, 0, 1, 120.0 + static_cast<double>(k)});
    o.push_back({k, 1, 0, -120.0 - static_cast<double>(k)});
  }
  const ScoreStats s = score_stats(o, kDuplicate);
  EXPECT_TRUE(s.mirror);
  EXPECT_EQ(s.penta.wl, 10);
  EXPECT_DOUBLE_EQ(s.share.lo, 0.5);
  EXPECT_DOUBLE_EQ(s.share.hi, 0.5);
}

// Two equal agents: the 95% Elo interval covers 0 in about 95% of runs.
// 40 runs each way, a wide tolerance (a binomial 40 x 0.95 falls under 34 in
// fewer than 1% of cases); fixed seeds, so the test does not flicker.
TEST(Stats, IntervalsCoverTheTruthAtTheirLevel) {
  for (const bool duplicate : {true, false}) {
    int covered = 0;
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      ExperimentConfig c;
      c.side0 = c.side1 = agent_spec(duplicate ? "random" : "heuristic");
      c.duplicate = duplicate;
      c.deals = duplicate ? 150 : 300;
      c.seed = seed;
      std::vector<DealRow> rows;
      std::string error;
      ASSERT_TRUE(run_deals(c, rows, error)) << error;
      const Summary s = summary_of(rows, RunShape{duplicate});
      ASSERT_EQ(s.score.paired, duplicate);
      covered += s.score.elo.lo <= 0 && s.score.elo.hi >= 0;
    }
    std::printf("%s: the interval covers Elo 0 in %d of 40 runs\n", duplicate ? "pairs" : "deals", covered);
    EXPECT_GE(covered, 34) << (duplicate ? "pairs" : "deals");
  }
}

// In duplicate the deal and its twin are correlated: the interval over pairs
// is narrower than one that takes the 2n deals as independent.
TEST(Stats, PairsNarrowTheShareInterval) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic:freeze=6");
  c.side1 = agent_spec("heuristic");
  c.duplicate = true;
  c.deals = 2000;
  std::vector<DealRow> rows;
  std::string error;
  ASSERT_TRUE(run_deals(c, rows, error)) << error;
  const Summary s = summary_of(rows, kDuplicate);
  const Interval w = wilson(static_cast<double>(s.score.a_won) + 0.5 * static_cast<double>(s.score.drawn),
                            static_cast<double>(s.rows));
  EXPECT_LT(s.score.share.hi - s.score.share.lo, w.hi - w.lo);
  EXPECT_EQ(s.score.penta.pairs(), 2000);
}

}  // namespace
}  // namespace canasta::test
