// The determinizer: a full state sampled from what one seat knows.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "canasta/sim.h"
#include "canasta/view.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// A mid-deal position with known cards in seat 1's hand.
State sample_position() {
  return position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 4 9 Q K\n"
      "hand1: 7 7 8 8 A 5 6\nknown1: 7 7 8\nhand2: 5 6 9 10 J Q K A\nhand3: 4 5 6 9 10 J\n"
      "melds0: K: K K K\nmelds1: A: A A A\nred3: 1 0 0 1\npile: 9 10 J Q 3b 6\nstock: rest");
}

TEST(Determinize, KnownCardsStayAndSizesHold) {
  const State s = sample_position();
  const View v(s, 0);
  Rng rng(3);
  std::set<std::string> distinct;
  for (int i = 0; i < 200; ++i) {
    const State d = v.determinize(rng);
    ASSERT_EQ(check_invariants(d), nullptr);
    EXPECT_EQ(d.hand[0], s.hand[0]);              // the seat's own hand
    EXPECT_TRUE(d.hand[1].contains(s.known[1]));  // known cards never move
    for (int seat = 0; seat < 4; ++seat) EXPECT_EQ(d.hand[seat].total(), s.hand[seat].total());
    EXPECT_EQ(d.stock_size(), s.stock_size());
    EXPECT_TRUE(View(d, 0) == v);  // the seat could not tell it apart
    distinct.insert(position_to_string(d));
  }
  EXPECT_GT(distinct.size(), 190U);  // samples differ from each other
}

TEST(Determinize, EveryHiddenCardLandsEverywhereWithTheRightFrequency) {
  const State s = sample_position();
  const View v(s, 0);
  const CardSet unseen = v.unseen();
  const int reds = unseen.count(kRed3);
  const int n = unseen.total() - reds;
  std::array<int, 4> slots{};
  for (int seat = 1; seat < 4; ++seat) slots[seat] = s.hand[seat].total() - s.known[seat].total();
  const int stock_slots = s.stock_size() - reds;
  ASSERT_EQ(slots[1] + slots[2] + slots[3] + stock_slots, n);
  const int samples = 20000;
  std::array<std::array<double, kKindNb>, 4> count{};
  Rng rng(4);
  for (int i = 0; i < samples; ++i) {
    const State d = v.determinize(rng);
    for (int seat = 1; seat < 4; ++seat) {
      const CardSet hidden = d.hand[seat] - s.known[seat];
      for (int k = 0; k < kKindNb; ++k) count[seat][k] += hidden.count(k);
    }
  }
  for (int seat = 1; seat < 4; ++seat)
    for (int k = 0; k < kKindNb; ++k) {
      if (k == kRed3) {
        EXPECT_EQ(count[seat][k], 0);  // red threes are never held after the deal
        continue;
      }
      // Hypergeometric: mean u*m/n per sample; 6 standard errors of the mean.
      const double u = unseen.count(k), m = slots[seat];
      const double mean = u * m / n;
      const double var = u * (m / n) * (1 - m / n) * (n - u) / std::max(n - 1, 1);
      const double got = count[seat][k] / samples;
      EXPECT_NEAR(got, mean, 6 * std::sqrt(var / samples) + 1e-9) << "seat " << seat << " kind " << k;
    }
}

TEST(Determinize, SameRandomStreamSameSampleWhateverTheHiddenCards) {
  State s;
  start_single_deal(s, Rules{}, 55, 0);
  State t = s;
  // Exchange a card of seat 2 with a stock card of another kind.
  for (int i = t.stock_pos; i < t.deck_size; ++i) {
    const int k = t.deck[i];
    if (k == kRed3) continue;
    bool done = false;
    for (int j = 0; j < kKindNb && !done; ++j)
      if (j != k && t.hand[2].count(j)) {
        t.hand[2].remove(j);
        t.hand[2].add(k);
        t.deck[i] = static_cast<uint8_t>(j);
        done = true;
      }
    if (done) break;
  }
  ASSERT_NE(position_to_string(s), position_to_string(t));
  Rng r1(9), r2(9);
  EXPECT_EQ(position_to_string(View(s, s.actor()).determinize(r1)),
            position_to_string(View(t, t.actor()).determinize(r2)));
}

}  // namespace
}  // namespace canasta::test
