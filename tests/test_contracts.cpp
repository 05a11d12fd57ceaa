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
      {"spanish", 0, {2, 23, 113, 283, 1399, 5528, 24337, 129435}},
      {"spanish", 1, {1, 12, 31, 292, 3041, 17787, 78374}},
      {"spanish-2p", 0, {1, 33, 342, 2496, 11658, 60782}},
      {"spanish-2p", 1, {1, 37, 466, 3714, 21477, 157705}},
      {"spanish-3p", 0, {1, 18, 62, 299, 1175, 5130, 24181, 125411}},
      {"spanish-3p", 1, {1, 26, 169, 971, 6807, 58188}},
      {"spanish-6p", 0, {1, 9, 14, 70, 128, 1196, 7230, 30206, 131918}},
      {"spanish-6p", 1, {1, 17, 63, 271, 640, 2471, 7396, 40361}},
      {"spanish-6p3", 0, {2, 23, 125, 480, 2473, 12512, 59522}},
      {"spanish-6p3", 1, {2, 24, 150, 541, 2854, 13206, 45478}},
  };
  for (const Case& c : cases) {
    State s;
    start_single_deal(s, rules_of(c.profile), 2026, c.deal);
    for (size_t d = 0; d < c.counts.size(); ++d)
      EXPECT_EQ(perft(s, static_cast<int>(d + 1)), c.counts[d])
          << c.profile << " deal " << c.deal << " depth " << d + 1;
  }
}

// perft(d) from the middle of deals, where melds, canastas, cleanings and
// going out are within reach: single deal k of seed 2026 after `after`
// uniformly random actions (drawn from (2026, kTest, k)), for every table.
TEST(Contracts, PerftFromMidDeal) {
  struct Case {
    const char* profile;
    int deal, after;
    std::vector<uint64_t> counts;  // depth 1, 2, ...
  };
  const Case cases[] = {
      {"classic", 0, 30, {2, 2, 22, 84, 288, 1054, 3764, 21511}},
      {"classic", 0, 50, {13, 72, 325, 1916, 12976, 79322}},
      {"classic", 1, 30, {9, 24, 54, 174, 1021, 13284, 162582}},
      {"classic", 1, 50, {4, 6, 41, 182, 982, 4772, 20392, 75993}},
      {"two-player", 0, 30, {2, 27, 147, 983, 8626, 80774}},
      {"two-player", 0, 50, {1, 11, 34, 206, 1531, 8864, 41672}},
      {"two-player", 1, 30, {8, 27, 176, 1052, 5433, 28781, 154857}},
      {"two-player", 1, 50, {18, 138, 831, 3905, 19611, 130561}},
      {"spanish", 0, 30, {2, 2, 18, 40, 180, 720, 2503, 19352}},
      {"spanish", 0, 50, {9, 17, 83, 513, 1911, 7422, 29522, 106262}},
      {"spanish", 1, 30, {29, 414, 3137, 13585, 42475, 132878}},
      {"spanish", 1, 50, {7, 15, 43, 93, 207, 494, 3304, 60376}},
      {"spanish-2p", 0, 30, {2, 27, 147, 975, 8494, 79931}},
      {"spanish-2p", 0, 50, {2, 26, 140, 1079, 8875, 63900}},
      {"spanish-2p", 1, 30, {22, 213, 1295, 6053, 35832}},
      {"spanish-2p", 1, 50, {11, 34, 150, 831, 4340, 28188}},
      {"spanish-3p", 0, 30, {18, 98, 781, 12203, 135596}},
      {"spanish-3p", 0, 50, {2, 21, 67, 401, 2197, 11411, 50361}},
      {"spanish-3p", 1, 30, {5, 9, 123, 952, 4887, 19036, 61240}},
      {"spanish-3p", 1, 50, {7, 14, 106, 359, 3165, 27390}},
      {"spanish-6p", 0, 30, {1, 11, 28, 64, 202, 755, 7873, 75780}},
      {"spanish-6p", 0, 50, {10, 10, 90, 270, 1140, 3530, 24036}},
      {"spanish-6p", 1, 30, {7, 12, 36, 92, 301, 983, 3196, 13296, 73337}},
      {"spanish-6p", 1, 50, {9, 36, 258, 2480, 21478, 159360}},
      {"spanish-6p3", 0, 30, {1, 9, 22, 125, 708, 3259, 13149, 49337}},
      {"spanish-6p3", 0, 50, {1, 13, 47, 160, 878, 5682, 41193}},
      {"spanish-6p3", 1, 30, {2, 11, 13, 109, 265, 1553, 4789, 27584, 155477}},
      {"spanish-6p3", 1, 50, {13, 70, 579, 5293, 37800}},
  };
  for (const Case& c : cases) {
    State s;
    start_single_deal(s, rules_of(c.profile), 2026, c.deal);
    Rng rng(derive_seed(2026, Stream::kTest, static_cast<uint64_t>(c.deal)));
    ActionList list;
    for (int i = 0; i < c.after && !s.over(); ++i) {
      legal_actions(s, list);
      apply(s, list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
    }
    ASSERT_FALSE(s.over()) << c.profile << " deal " << c.deal;
    std::vector<uint64_t> got;
    for (size_t d = 0; d < c.counts.size(); ++d) got.push_back(perft(s, static_cast<int>(d + 1)));
    EXPECT_EQ(got, c.counts) << c.profile << " deal " << c.deal << " after " << c.after << " actions";
  }
}

}  // namespace
}  // namespace canasta::test
