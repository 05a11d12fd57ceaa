// The fast legal-action generator against the slow reference, position by
// position, over random-play deals of both profiles: the same actions, in the
// canonical order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "canasta/game.h"
#include "canasta/notation.h"
#include "canasta/position.h"
#include "helpers.h"
#include "reference.h"

namespace canasta::test {
namespace {

std::string names(const std::vector<Action>& v) {
  std::string s;
  for (Action a : v) {
    s += s.empty() ? "" : " | ";
    s += action_to_string(a);
  }
  return s;
}

// The reference's actions in the order the engine promises (order_key): the
// comparison checks the fast generator's order as well as its set.
std::optional<std::vector<Action>> in_canonical_order(std::optional<std::vector<Action>> v) {
  if (v) std::sort(v->begin(), v->end(), [](Action a, Action b) { return order_key(a) < order_key(b); });
  return v;
}

// `skip_per_mille`: positions beyond the reference's budget allowed per
// thousand compared (the spanish tables hold larger hands and more wild cards).
void compare_over_deals(const char* profile, int deals, uint64_t seed, int skip_per_mille = 5) {
  Rules rules;
  std::string error;
  ASSERT_TRUE(parse_profile(profile, rules, error)) << error;
  int64_t positions = 0, skipped = 0, cleans = 0, wild_melds = 0;
  random_play(rules, deals, seed, [&](const State& s, const ActionList& list) {
    const std::vector<Action> fast(list.begin(), list.end());
    const auto ref = in_canonical_order(reference_legal_actions(s));
    if (!ref) {
      ++skipped;
      return;
    }
    ASSERT_EQ(fast, *ref) << "fast: " << names(fast) << "\nref:  " << names(*ref) << "\n"
                          << position_to_string(s);
    ++positions;
    for (Action a : fast) {
      cleans += a.type() == ActionType::kClean;
      wild_melds += a.type() == ActionType::kMeld && a.kind() == kTwo;
    }
  });
  EXPECT_GT(positions, deals * 20);
  // The reference answers nearly everywhere.
  EXPECT_LT(skipped * 1000, positions * skip_per_mille) << skipped << " positions skipped";
  if (rules.closed_canastas) {
    EXPECT_GT(cleans, 0) << "no cleaning was ever legal";
  }
  if (rules.wild_melds) {
    EXPECT_GT(wild_melds, 0) << "no wild meld was ever legal";
  }
  std::printf(
      "%s: %lld positions compared, %lld beyond the reference's budget; %lld cleanings, %lld wild melds\n",
      profile, static_cast<long long>(positions), static_cast<long long>(skipped),
      static_cast<long long>(cleans), static_cast<long long>(wild_melds));
}

TEST(Reference, ClassicRandomPositions) { compare_over_deals("classic", test_deals(1000, 10), 11); }
TEST(Reference, TwoPlayerRandomPositions) { compare_over_deals("two-player", test_deals(1000, 10), 12); }
TEST(Reference, SpanishRandomPositions) { compare_over_deals("spanish", test_deals(200, 10), 13, 20); }
TEST(Reference, Spanish2pRandomPositions) { compare_over_deals("spanish-2p", test_deals(150, 10), 14, 20); }
TEST(Reference, Spanish3pRandomPositions) { compare_over_deals("spanish-3p", test_deals(150, 10), 15, 20); }
TEST(Reference, Spanish6pRandomPositions) { compare_over_deals("spanish-6p", test_deals(100, 10), 16, 20); }
TEST(Reference, Spanish6p3RandomPositions) { compare_over_deals("spanish-6p3", test_deals(100, 10), 17, 20); }
// Positions of later deals of a game: opening minimums of 15, 90 and 120.
TEST(Reference, ClassicHighScores) {
  Rules rules;
  State s;
  ActionList list;
  int64_t positions = 0, skipped = 0;
  for (int k = 0; k < 200; ++k) {
    const std::array<int32_t, kMaxTeams> scores{k % 2 ? -100 : 1600, k % 3 ? 3100 : 0, 0};
    Deck deck;
    Rng deal_rng(derive_seed(21, Stream::kTest, static_cast<uint64_t>(k)));
    const int n = shuffled_deck(rules, deal_rng, deck);
    start_deal(s, rules, deck, n, k % 4, scores);
    Rng rng(derive_seed(22, Stream::kTest, static_cast<uint64_t>(k)));
    while (!s.over()) {
      legal_actions(s, list);
      const std::vector<Action> fast(list.begin(), list.end());
      const auto ref = in_canonical_order(reference_legal_actions(s));
      if (ref) {
        ASSERT_EQ(fast, *ref) << "fast: " << names(fast) << "\nref:  " << names(*ref) << "\n"
                              << position_to_string(s);
        ++positions;
      } else {
        ++skipped;
      }
      apply(s, list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
    }
  }
  // Compared nearly everywhere (0.6% beyond the budget: the higher minimums
  // open with larger melds): a reference that gave up would compare nothing.
  EXPECT_GT(positions, 200 * 20);
  EXPECT_LT(skipped * 1000, positions * 10) << skipped << " positions skipped";
  std::printf("classic at 1500 and 3000: %lld positions compared, %lld beyond the reference's budget\n",
              static_cast<long long>(positions), static_cast<long long>(skipped));
}

}  // namespace
}  // namespace canasta::test
