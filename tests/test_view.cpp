// What a seat may know: hidden cards never reach its View.
#include <gtest/gtest.h>

#include "canasta/agent.h"
#include "canasta/game.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// Exchanges one card of `seat`'s hand (not known to the others) with a stock
// card of another kind: a state that differs only in cards hidden from everybody
// else. Returns false when no such exchange exists.
bool swap_hidden(State& s, int seat) {
  const CardSet unknown = s.hand[seat] - s.known[seat];
  for (int i = s.stock_pos; i < s.deck_size; ++i)
    for (int k = 0; k < kKindNb; ++k)
      if (unknown.count(k) && s.deck[i] != k && s.deck[i] != kRed3 && k != kRed3) {
        s.hand[seat].remove(k);
        s.hand[seat].add(s.deck[i]);
        s.deck[i] = static_cast<uint8_t>(k);
        return true;
      }
  return false;
}

TEST(View, HiddenCardsDoNotChangeTheViewNorTheAction) {
  State s;
  ActionList list;
  int checked = 0;
  for (int k = 0; k < 300; ++k) {
    start_single_deal(s, Rules{}, 31, k);
    Rng play(derive_seed(31, Stream::kTest, static_cast<uint64_t>(k)));
    while (!s.over()) {
      const int me = s.actor();
      for (int other = 0; other < 4; ++other) {
        if (other == me) continue;
        State t = s;
        if (!swap_hidden(t, other)) continue;
        ASSERT_NE(position_to_string(s), position_to_string(t));
        ASSERT_TRUE(View(s, me) == View(t, me));
        RandomAgent a, b;
        Rng r1(k), r2(k);
        ASSERT_EQ(a.act(View(s, me), r1), b.act(View(t, me), r2));
        if (k < 3 && checked % 7 == 0) {
          // The searching agents too: same view, same stream, same action.
          for (const char* spec : {"heuristic", "ismcts:iters=50"}) {
            auto x = agent(spec), y = agent(spec);
            Rng q1(k), q2(k);
            ASSERT_EQ(x->act(View(s, me), q1), y->act(View(t, me), q2)) << spec;
          }
        }
        ++checked;
      }
      legal_actions(s, list);
      apply(s, list[static_cast<int>(play.below(static_cast<uint32_t>(list.size())))]);
    }
  }
  EXPECT_GT(checked, 10000);
}

TEST(View, OwnCardsAndPublicFactsDoChangeTheView) {
  State s;
  start_single_deal(s, Rules{}, 32, 0);
  State t = s;
  ASSERT_TRUE(swap_hidden(t, s.actor()));
  EXPECT_FALSE(View(s, s.actor()) == View(t, s.actor()));  // the seat's own hand
  State u = s;
  u.red3[2] += 1;
  EXPECT_FALSE(View(s, 0) == View(u, 0));
}

TEST(View, ShowsOnlySizesOfOtherHandsAndTheStock) {
  State s;
  start_single_deal(s, Rules{}, 33, 0);
  const View v(s, 0);
  EXPECT_EQ(v.hand(), s.hand[0]);
  EXPECT_EQ(v.hand_size(1), s.hand[1].total());
  EXPECT_EQ(v.stock_size(), s.stock_size());
  ActionList list;
  View(s, (s.actor() + 1) % 4).legal_actions(list);
  EXPECT_TRUE(list.empty());  // not the actor: no window on the actor's options
}

TEST(View, KnownCardsFollowThePileAndLeaveWhenPlayed) {
  State s = position(
      "profile: classic\nseat: 0\nphase: draw\nhand0: 4 5 6\npile: 9 9 K\n"
      "melds0: K: K K K\nstock: rest");
  play(s, "take K:");
  EXPECT_EQ(View(s, 1).known(0).count(kNine), 2);
  play(s, "discard 9");
  EXPECT_EQ(View(s, 1).known(0).count(kNine), 1);
}

}  // namespace
}  // namespace canasta::test
