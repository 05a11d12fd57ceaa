// The engine's contracts, pinned: the legal-action order (canonical, sorted
// and unique), and perft counts from fixed deals, so that any change to move
// generation shows up as a number.
#include <gtest/gtest.h>

#include <vector>

#include "canasta/runner.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// Every legal-action list met while random and heuristic players play is in
// the canonical order of types.h: strictly increasing order_key.
TEST(Contracts, LegalActionsAreSortedAndUnique) {
  struct CheckOrder : PlayObserver {
    int64_t lists = 0;
    void before(const State& s, int, Action) {
      ActionList list;
      legal_actions(s, list);
      for (int i = 1; i < list.size(); ++i)
        ASSERT_LT(order_key(list[i - 1]), order_key(list[i])) << position_to_string(s);
      ++lists;
    }
  };
  for (const char* profile : {"classic", "two-player"}) {
    const Rules rules = rules_of(profile);
    RandomAgent random;
    const auto asker = agent("heuristic:ask=1");
    CheckOrder check;
    State s;
    for (int k = 0; k < 2000; ++k) {
      start_single_deal(s, rules, 17, k);
      Rng rng(derive_seed(17, Stream::kTest, static_cast<uint64_t>(k)));
      play_deal(
          s, [&](int seat) -> Agent& { return (seat + k) % 2 ? static_cast<Agent&>(random) : *asker; }, rng,
          check);
    }
    EXPECT_GT(check.lists, 2000 * 40) << profile;
  }
}

// perft(d): the action sequences of length d from the start of single deal k
// of seed 2026 (a deal that ends sooner counts once). Computed by the engine
// as it stood when these numbers were taken; a change here is a change of
// the rules as played.
TEST(Contracts, PerftFromFixedDeals) {
  struct Case {
    const char* profile;
    int deal;
    std::vector<uint64_t> counts;  // depth 1, 2, ...
  };
  const Case cases[] = {
      {"classic", 0, {2, 24, 122, 294, 1599, 7192, 32649, 166014}},
      {"classic", 1, {1, 16, 49, 333, 2525, 14621, 74403, 465702}},
      {"classic", 2, {1, 12, 30, 102, 288, 1239, 6448, 37973}},
      {"two-player", 0, {1, 33, 342, 2496, 11658, 61062, 343899}},
      {"two-player", 1, {1, 34, 413, 3435, 20088, 144678}},
      {"two-player", 2, {1, 23, 173, 974, 7001, 51507, 312333}},
  };
  for (const Case& c : cases) {
    State s;
    start_single_deal(s, rules_of(c.profile), 2026, c.deal);
    for (size_t d = 0; d < c.counts.size(); ++d)
      EXPECT_EQ(perft(s, static_cast<int>(d + 1)), c.counts[d])
          << c.profile << " deal " << c.deal << " depth " << d + 1;
  }
}

}  // namespace
}  // namespace canasta::test
