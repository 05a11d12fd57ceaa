// The engine's signature: counts over 2,000 fixed random-play deals of each
// profile. Any change of behaviour (legal actions, their order, apply,
// scoring, dealing) changes it. When a change is meant to alter play, check
// the new behaviour, then update the figures here in the same commit and say
// why in its message.
#include <gtest/gtest.h>

#include "canasta/experiment.h"
#include "canasta/runner.h"
#include "helpers.h"

namespace canasta::test {
namespace {

struct Counts {
  int64_t actions = 0, went_out = 0, score0 = 0, score1 = 0;
  friend bool operator==(const Counts&, const Counts&) = default;
};

void print(const char* what, const Counts& c) {
  std::printf("%s: actions %lld went_out %lld score %lld %lld\n", what, static_cast<long long>(c.actions),
              static_cast<long long>(c.went_out), static_cast<long long>(c.score0),
              static_cast<long long>(c.score1));
}

// Deal k dealt from (2026, kSingleDeck, k) and played uniformly at random
// from (2026, kRandomPlay, k), through the deal loop.
Counts random_play(const std::string& profile) {
  const Rules rules = rules_of(profile);
  RandomAgent random;
  State s;
  Counts c;
  for (int64_t k = 0; k < 2000; ++k) {
    start_single_deal(s, rules, 2026, k);
    Rng rng(derive_seed(2026, Stream::kRandomPlay, static_cast<uint64_t>(k)));
    c.actions += play_deal(
        s, [&](int) -> RandomAgent& { return random; }, rng);
    c.went_out += s.end == EndReason::kWentOut;
    const auto score = deal_score(s);
    c.score0 += score[0].total();
    c.score1 += score[1].total();
  }
  print(profile.c_str(), c);
  return c;
}

// The same deals played by the simulator's runner (`canasta sim --deals
// 2000 --seed 2026`, random agents), whose agents draw on (2026, kDealPlay, k).
Counts simulated(const std::string& profile, int threads) {
  ExperimentConfig e;
  e.rules = rules_of(profile);
  e.seed = 2026;
  e.deals = 2000;
  e.threads = threads;
  std::vector<DealRow> rows;
  std::string error;
  EXPECT_TRUE(run_deals(e, rows, error)) << error;
  Counts c;
  for (const DealRow& r : rows) {
    c.actions += r.actions;
    c.went_out += r.end == static_cast<int8_t>(EndReason::kWentOut);
    c.score0 += r.score[0];
    c.score1 += r.score[1];
  }
  print(profile.c_str(), c);
  return c;
}

TEST(Signature, Classic) { EXPECT_EQ(random_play("classic"), (Counts{262860, 1579, 2108965, 2054660})); }
TEST(Signature, TwoPlayer) { EXPECT_EQ(random_play("two-player"), (Counts{245225, 435, 2660180, 2682875})); }

// The figures that `canasta sim --deals 2000 --seed 2026 --out DIR` wrote
// into deals.csv before the runner was rebuilt, summed.
TEST(Signature, SimulatorClassic) {
  EXPECT_EQ(simulated("classic", 1), (Counts{263475, 1584, 2065215, 2070480}));
}
TEST(Signature, SimulatorTwoPlayer) {
  EXPECT_EQ(simulated("two-player", 1), (Counts{246047, 427, 2669405, 2679400}));
}

// The signature does not depend on the thread count.
TEST(Signature, SameOnTwoThreads) { EXPECT_EQ(simulated("classic", 2), simulated("classic", 1)); }

}  // namespace
}  // namespace canasta::test
