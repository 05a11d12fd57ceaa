// The determinizer: a full state sampled from what one seat knows.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "canasta/game.h"
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

namespace canasta::test {
namespace {

// Seat 0 has drawn and asked "may I go out?"; seat 2, its partner, answers.
// Seat 0's three cards are hidden from seat 2, but asking was legal, so they
// let seat 0 go out (its side holds a canasta) and finish the turn after a no.
State answer_position() {
  return position(
      "profile: classic\nseat: 0\nphase: answer\nflags: drew_stock asked\nhand0: 9 9 9\n"
      "hand2: 5 6 7 8 10 J Q\nmelds0: K: K K K K K K K\nmelds1: A: A A A\nmelded_before: 0 1\n"
      "hand1: 4 4 6 6 8 8\nhand3: 5 5 7 7\nstock: rest");
}

// The asker's hand in a sample, as counts per kind.
std::array<double, kKindNb> counts_of(CardSet hand) {
  std::array<double, kKindNb> c{};
  for (int k = 0; k < kKindNb; ++k) c[k] = hand.count(k);
  return c;
}

TEST(Determinize, AnswerSamplesAreConsistentWithTheQuestion) {
  const State s = answer_position();
  ASSERT_TRUE(View::answer_consistent(s));
  const View v(s, 2);
  Rng rng(7);
  for (int i = 0; i < 200; ++i) {
    for (const State& d : {v.determinize(rng), v.determinize(rng, 0), v.determinize_exact(rng)}) {
      ASSERT_EQ(check_invariants(d), nullptr);
      EXPECT_TRUE(View(d, 2) == v);
      EXPECT_TRUE(View::answer_consistent(d)) << position_to_string(d);
    }
  }
}

// What the answering seat cannot see does not change what it samples: not
// the other hands, not the asker's actual cards.
TEST(Determinize, AnswerSamplesDependOnTheViewOnly) {
  const State s = answer_position();
  State t = s;
  // The asker's three nines trade places with three tens of the stock:
  // another hand that can go out.
  int moved = 0;
  for (int i = t.stock_pos; i < t.deck_size && moved < 3; ++i)
    if (t.deck[i] == kTen) t.deck[i] = kNine, ++moved;
  ASSERT_EQ(moved, 3);
  t.hand[0] = CardSet();
  t.hand[0].add(kTen, 3);
  ASSERT_EQ(check_invariants(t), nullptr);
  ASSERT_TRUE(View(s, 2) == View(t, 2));
  for (uint64_t seed = 0; seed < 20; ++seed) {
    Rng r1(seed), r2(seed);
    EXPECT_EQ(position_to_string(View(s, 2).determinize_exact(r1)),
              position_to_string(View(t, 2).determinize_exact(r2)));
  }
}

// The exact method draws from the same distribution as rejection: the mean
// count of every kind in the asker's hand agrees (6 standard errors).
TEST(Determinize, ExactMethodMatchesRejection) {
  const State s = answer_position();
  const View v(s, 2);
  const int rejected = 6000, exact = 400;
  std::array<double, kKindNb> sum_r{}, sum_e{}, sq_e{};
  Rng r1(11), r2(12);
  for (int i = 0; i < rejected; ++i) {
    const auto c = counts_of(v.determinize(r1).hand[0]);
    for (int k = 0; k < kKindNb; ++k) sum_r[k] += c[k];
  }
  for (int i = 0; i < exact; ++i) {
    const auto c = counts_of(v.determinize_exact(r2).hand[0]);
    for (int k = 0; k < kKindNb; ++k) sum_e[k] += c[k], sq_e[k] += c[k] * c[k];
  }
  for (int k = 0; k < kKindNb; ++k) {
    const double mean_r = sum_r[k] / rejected, mean_e = sum_e[k] / exact;
    const double var_e = std::max(sq_e[k] / exact - mean_e * mean_e, 1e-4);
    EXPECT_NEAR(mean_e, mean_r, 6 * std::sqrt(var_e / exact + var_e / rejected)) << "kind " << k;
  }
}

}  // namespace
}  // namespace canasta::test

namespace canasta::test {
namespace {

// Every spanish table: positions of random-play deals determinized from the
// seat to move are consistent states that seat cannot tell from the real
// one, with every hand and the stock the right size.
TEST(Determinize, EverySpanishTable) {
  for (const char* profile : {"spanish", "spanish-2p", "spanish-3p", "spanish-6p", "spanish-6p3"}) {
    SCOPED_TRACE(profile);
    const Rules r = rules_of(profile);
    ActionList list;
    int checked = 0;
    for (int k = 0; k < 20; ++k) {
      State s;
      start_single_deal(s, r, 31, k);
      Rng play(derive_seed(31, Stream::kTest, static_cast<uint64_t>(k)));
      Rng rng(k);
      for (int step = 0; !s.over(); ++step) {
        if (step % 7 == 0) {
          const View v(s, s.actor());
          const State d = v.determinize(rng);
          ASSERT_EQ(check_invariants(d), nullptr) << position_to_string(d);
          EXPECT_TRUE(View(d, s.actor()) == v);
          for (int seat = 0; seat < r.players; ++seat) EXPECT_EQ(d.hand[seat].total(), s.hand[seat].total());
          EXPECT_EQ(d.stock_size(), s.stock_size());
          EXPECT_EQ(d.red3_pending, s.red3_pending);  // replacements owed for exposed red threes are public
          ++checked;
        }
        legal_actions(s, list);
        apply(s, list[static_cast<int>(play.below(static_cast<uint32_t>(list.size())))]);
      }
    }
    EXPECT_GT(checked, 100);
  }
}

}  // namespace
}  // namespace canasta::test

namespace canasta::test {
namespace {

// In two-player a dealt red three waits in its holder's hand for the
// holder's first turn: the holder's samples keep it pending, and every
// sample is a consistent state.
TEST(Determinize, ARedThreeWaitingInTheSeatsOwnHandStaysPending) {
  const Rules r = two_player_rules();
  int checked = 0;
  for (int deal = 0; deal < 200 && checked < 20; ++deal) {
    State s;
    start_single_deal(s, r, 5, deal);
    for (int seat = 0; seat < r.players; ++seat) {
      if (!(s.red3_pending >> seat & 1U)) continue;
      Rng rng(static_cast<uint64_t>(deal));
      const State d = View(s, seat).determinize(rng);
      ASSERT_EQ(check_invariants(d), nullptr) << "deal " << deal << " seat " << seat;
      EXPECT_EQ(d.hand[seat], s.hand[seat]);
      EXPECT_TRUE(d.red3_pending >> seat & 1U);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 20);
}

}  // namespace
}  // namespace canasta::test
