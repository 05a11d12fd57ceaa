// The engine's signature: counts over 2,000 fixed random-play deals of each
// profile. Any change of behaviour (legal actions, their order, apply,
// scoring, dealing) changes it. When a change is meant to alter play, check
// the new behaviour, then update the figures here in the same commit and say
// why in its message.
#include <gtest/gtest.h>

#include <array>
#include <ostream>

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

// Every spanish table, over the same 2,000 deals: random play, and
// heuristic play, which reaches what random play seldom does (seven
// canastas, the wild canasta, concealed going out at every level). The sums:
// actions, deals gone out, gone out concealed, the premiums, and each side's
// deal scores. A change to the rules as played, or to the heuristic's
// decisions, shows here.
struct TableCounts {
  int64_t actions = 0, went_out = 0, concealed = 0, premiums = 0;
  std::array<int64_t, 3> score{};
  friend bool operator==(const TableCounts&, const TableCounts&) = default;
  friend void PrintTo(const TableCounts& c, std::ostream* os) {
    *os << "{" << c.actions << ", " << c.went_out << ", " << c.concealed << ", " << c.premiums << ", {"
        << c.score[0] << ", " << c.score[1] << ", " << c.score[2] << "}}";
  }
};

TableCounts table_play(const std::string& profile, const std::string& spec) {
  const Rules rules = rules_of(profile);
  const auto each = agent(spec);
  Agent& player = *each;
  State s;
  TableCounts c;
  for (int64_t k = 0; k < 2000; ++k) {
    start_single_deal(s, rules, 2026, k);
    Rng rng(derive_seed(2026, Stream::kRandomPlay, static_cast<uint64_t>(k)));
    c.actions += play_deal(
        s, [&](int) -> Agent& { return player; }, rng);
    c.went_out += s.end == EndReason::kWentOut;
    c.concealed += s.concealed != 0;
    const auto score = deal_score(s);
    for (int t = 0; t < rules.teams; ++t) {
      c.premiums += score[t].premiums;
      c.score[t] += score[t].total();
    }
  }
  std::printf("%s %s: {%lld, %lld, %lld, %lld, {%lld, %lld, %lld}}\n", profile.c_str(), spec.c_str(),
              static_cast<long long>(c.actions), static_cast<long long>(c.went_out),
              static_cast<long long>(c.concealed), static_cast<long long>(c.premiums),
              static_cast<long long>(c.score[0]), static_cast<long long>(c.score[1]),
              static_cast<long long>(c.score[2]));
  return c;
}

TEST(Signature, SpanishTables) {
  struct Case {
    const char* profile;
    TableCounts random, heuristic;
  };
  const Case cases[] = {
      {"spanish",
       {251376, 1600, 2, 178000, {2178205, 2102675, 0}},
       {137262, 2000, 0, 12500, {1596325, 1579655, 0}}},
      {"spanish-2p",
       {248029, 662, 0, 135000, {3148945, 3122235, 0}},
       {171584, 1974, 0, 52500, {2570075, 2634390, 0}}},
      {"spanish-3p",
       {204491, 129, 0, 1000, {973860, 1011940, 995890}},
       {175858, 1592, 0, 0, {1465085, 1490720, 1475720}}},
      {"spanish-6p",
       {203744, 647, 1, 19000, {1690690, 1649670, 0}},
       {137656, 1963, 0, 58500, {2346220, 2333270, 0}}},
      {"spanish-6p3",
       {319713, 1827, 0, 260000, {2168110, 2194575, 2154635}},
       {160319, 2000, 4, 15000, {1607775, 1586950, 1601175}}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(table_play(c.profile, "random"), c.random) << c.profile << ", random play";
    EXPECT_EQ(table_play(c.profile, "heuristic"), c.heuristic) << c.profile << ", heuristic play";
  }
}

// The basic player's decisions over the same deals, at every seat, with its
// defaults and asking its partner before going out with no wild card held
// back (the turns that must go out after a yes).
TEST(Signature, BasicPlay) {
  EXPECT_EQ(table_play("classic", "basic"), (TableCounts{156916, 2000, 0, 0, {1399820, 1344830, 0}}));
  EXPECT_EQ(table_play("classic", "basic:ask=1,keep_wilds=0"),
            (TableCounts{169200, 2000, 0, 0, {1668455, 1661805, 0}}));
  EXPECT_EQ(table_play("two-player", "basic"), (TableCounts{196232, 1963, 0, 0, {2431095, 2382260, 0}}));
  EXPECT_EQ(table_play("spanish", "basic:ask=1,keep_wilds=0"),
            (TableCounts{164043, 2000, 0, 3500, {1653800, 1614800, 0}}));
  EXPECT_EQ(table_play("spanish-6p3", "basic"),
            (TableCounts{181771, 2000, 3, 11500, {1421810, 1401350, 1414905}}));
}

// The signature does not depend on the thread count.
TEST(Signature, SameOnTwoThreads) { EXPECT_EQ(simulated("classic", 2), simulated("classic", 1)); }

}  // namespace
}  // namespace canasta::test
