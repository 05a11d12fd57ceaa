// The engine's signature: counts over 2,000 fixed random-play deals of each
// profile. Any change of behaviour (legal actions, their order, apply,
// scoring, dealing) changes it. When a change is meant to alter play, check
// the new behaviour, then update the figures here in the same commit and say
// why in its message.
#include <gtest/gtest.h>

#include "canasta/sim.h"

namespace canasta {
namespace {

DealStats signature(const char* profile) {
  Rules rules;
  std::string error;
  EXPECT_TRUE(parse_profile(profile, rules, error));
  SimConfig c;
  c.rules = rules;
  c.seed = 2026;
  c.deals = 2000;
  c.threads = 1;
  return run_random_deals(c).stats;
}

struct Expected {
  int64_t actions, went_out, score0, score1;
};

void check(const char* profile, const Expected& want) {
  const DealStats s = signature(profile);
  std::printf("%s: actions %lld went_out %lld stock_out %lld red3_last %lld score %lld %lld\n", profile,
              static_cast<long long>(s.actions), static_cast<long long>(s.went_out),
              static_cast<long long>(s.stock_out), static_cast<long long>(s.red_three_last),
              static_cast<long long>(s.score[0]), static_cast<long long>(s.score[1]));
  EXPECT_EQ(s.actions, want.actions);
  EXPECT_EQ(s.went_out, want.went_out);
  EXPECT_EQ(s.score[0], want.score0);
  EXPECT_EQ(s.score[1], want.score1);
}

TEST(Signature, Classic) { check("classic", {262860, 1579, 2108965, 2054660}); }
TEST(Signature, TwoPlayer) { check("two-player", {245225, 435, 2660180, 2682875}); }

// The signature does not depend on the thread count.
TEST(Signature, SameOnTwoThreads) {
  SimConfig c;
  c.seed = 2026;
  c.deals = 2000;
  c.threads = 2;
  const DealStats two = run_random_deals(c).stats;
  c.threads = 1;
  const DealStats one = run_random_deals(c).stats;
  EXPECT_EQ(one.actions, two.actions);
  EXPECT_EQ(one.score, two.score);
  EXPECT_EQ(one.went_out, two.went_out);
}

}  // namespace
}  // namespace canasta
