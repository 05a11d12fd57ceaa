// Scoring (core/doc/rules.md section 10) and the worked examples of section 14.
#include <gtest/gtest.h>

#include "canasta/game.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// Example 1 (seed 001's own): a natural canasta of seven kings (70 + 500), three
// aces (60), two red threes (200), went out normally (100), the partner holds
// a 7 (-5): 925.
TEST(WorkedExamples, Seed001Example925) {
  State s = position(R"(profile: classic
seat: 0
phase: meld
hand0: Q
hand2: 7
red3: 2 0 0 0
melds0: K: K K K K K K K; A: A A A
melded_before: 0 2
stock: rest)");
  play(s, "discard Q");  // the last card: seat 0 goes out
  ASSERT_EQ(s.end, EndReason::kWentOut);
  EXPECT_FALSE(s.concealed);
  const auto score = deal_score(s);
  EXPECT_EQ(score[0].melded, 130);
  EXPECT_EQ(score[0].canastas, 500);
  EXPECT_EQ(score[0].red_threes, 200);
  EXPECT_EQ(score[0].going_out, 100);
  EXPECT_EQ(score[0].in_hand, -5);
  EXPECT_EQ(score[0].total(), 925);
}

// Example 2: nothing melded, two red threes, hands hold a joker and a 4:
// -200 - 50 - 5 = -255.
TEST(WorkedExamples, NothingMeldedMinus255) {
  State s = position(R"(profile: classic
seat: 1
phase: over
hand0: JK
hand2: 4
red3: 1 0 1 0
stock: rest)");
  EXPECT_EQ(deal_score(s)[0].total(), -255);
}

// Example 3: four red threes, one meld of three 5s, nothing in hand, no canasta,
// the opponents went out: 15 + 800 = 815.
TEST(WorkedExamples, FourRedThrees815) {
  State s = position(R"(profile: classic
seat: 1
phase: meld
hand1: 9
red3: 2 0 2 0
melds0: 5: 5 5 5
melds1: 9: 9 9 9 9 9 9 9
start_melds: 9
melded_before: 1 3
stock: rest)");
  play(s, "discard 9");
  ASSERT_EQ(s.end, EndReason::kWentOut);
  EXPECT_EQ(deal_score(s)[0].total(), 815);
}

// Example 4: concealed going out with a mixed canasta of six queens and a joker
// (60 + 50 + 300) and three black threes (15): 625.
TEST(WorkedExamples, ConcealedGoingOut625) {
  State s = position(R"(profile: classic
seat: 0
phase: draw
hand0: JK 3b 3b 3b Q Q Q Q Q Q
melds1: 4: 4 4 4
stock: 9 rest)");
  play(s, "draw");
  play(s, "meld Q: JK Q Q Q Q Q Q");
  play(s, "meld 3b: 3b 3b 3b");
  play(s, "discard 9");
  ASSERT_EQ(s.end, EndReason::kWentOut);
  EXPECT_TRUE(s.concealed);
  const auto score = deal_score(s);
  EXPECT_EQ(score[0].going_out, 200);
  EXPECT_EQ(score[0].total(), 625);
}

// Example 5: opening minimum by cumulative score.
TEST(WorkedExamples, OpeningMinimums) {
  const Rules r;
  EXPECT_EQ(r.opening_minimum(-5), 15);
  EXPECT_EQ(r.opening_minimum(0), 50);
  EXPECT_EQ(r.opening_minimum(1495), 50);
  EXPECT_EQ(r.opening_minimum(1500), 90);
  EXPECT_EQ(r.opening_minimum(2995), 90);
  EXPECT_EQ(r.opening_minimum(3000), 120);
}

TEST(Scoring, BlackThreesInHandCountMinusFive) {
  State s = position("profile: classic\nphase: over\nhand0: 3b 3b\nmelds0: 4: 4 4 4\nstock: rest");
  EXPECT_EQ(deal_score(s)[0].total(), 15 - 10);
}

TEST(Scoring, WildAddedToNaturalCanastaMakesItMixed) {
  State s = position("profile: classic\nphase: over\nmelds0: K: K K K K K K K 2\nstock: rest");
  EXPECT_EQ(deal_score(s)[0].canastas, 300);
  State t = position("profile: classic\nphase: over\nmelds0: K: K K K K K K K K\nstock: rest");
  EXPECT_EQ(deal_score(t)[0].canastas, 500);
}

TEST(Game, WinsAt5000WithStrictlyHigherTotal) {
  Game g = new_game(Rules{}, 7);
  State s = position("profile: classic\nphase: over\nmelds0: K: K K K K K K K\nstock: rest");
  g.totals = {4500, 4000, 0};
  finish_deal(g, s);  // side 0 +570: 5070 against 4000
  EXPECT_EQ(g.end, GameEnd::kWon);
  EXPECT_EQ(g.winner, 0);
}

TEST(Game, TieAtTargetPlaysOn) {
  Game g = new_game(Rules{}, 7);
  State s = position("profile: classic\nphase: over\nstock: rest");
  g.totals = {5100, 5100, 0};
  finish_deal(g, s);
  EXPECT_EQ(g.end, GameEnd::kPlaying);
  g.totals = {5100, 4900, 0};
  finish_deal(g, s);
  EXPECT_EQ(g.end, GameEnd::kWon);
}

TEST(Game, DealerRotatesClockwise) {
  Game g = new_game(Rules{}, 3);
  const int first = g.dealer;
  State s = position("profile: classic\nphase: over\nstock: rest");
  finish_deal(g, s);
  EXPECT_EQ(g.dealer, (first + 1) % 4);
  EXPECT_EQ(g.deal, 1);
}

}  // namespace
}  // namespace canasta::test
