// The dense action ids of the Python module and learning code: one id per
// action the engine can list, in canonical order, for every profile.
#include <gtest/gtest.h>

#include "canasta/action_ids.h"
#include "canasta/engine.h"
#include "canasta/game.h"
#include "canasta/profile.h"
#include "canasta/rng.h"
#include "helpers.h"

namespace canasta {
namespace {

TEST(ActionIds, RoundTripInCanonicalOrder) {
  for (const Profile& p : profiles()) {
    const ActionIds ids(p.rules);
    for (int i = 0; i < ids.size(); ++i) {
      ASSERT_EQ(ids.id(ids.action(i)), i) << p.name << " id " << i;
      if (i > 0) {
        ASSERT_LT(order_key(ids.action(i - 1)), order_key(ids.action(i))) << p.name << " id " << i;
      }
    }
  }
  EXPECT_EQ(ActionIds(classic_rules()).size(), 1144);
  EXPECT_EQ(ActionIds(spanish_table(6, 3)).size(), 2188);
}

TEST(ActionIds, EveryLegalActionOfRandomDealsHasOneAscending) {
  for (const Profile& p : profiles()) {
    const ActionIds ids(p.rules);
    Rng rng(7);
    ActionList list;
    for (int deal = 0; deal < test::test_deals(400, 4000); ++deal) {
      State s;
      start_single_deal(s, p.rules, 11, deal);
      while (!s.over()) {
        legal_actions(s, list);
        int last = -1;
        for (Action a : list) {
          const int id = ids.id(a);
          ASSERT_GT(id, last) << p.name << " deal " << deal;
          ASSERT_EQ(ids.action(id), a);
          last = id;
        }
        apply(s, list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
      }
    }
  }
}

TEST(ActionIds, ActionsOutsideTheProfileHaveNone) {
  const ActionIds classic(classic_rules());
  EXPECT_EQ(classic.id(Action::make(ActionType::kDiscard, 15)), -1);
  EXPECT_EQ(classic.id(Action::make(ActionType::kMeld, kRed3, 3)), -1);
  EXPECT_EQ(classic.id(Action::make(ActionType::kMeld, kTwo, 0, 2, 1)), -1);   // no wild melds in classic
  EXPECT_EQ(classic.id(Action::make(ActionType::kMeld, kFive, 9)), -1);        // two decks: 8 fives
  EXPECT_EQ(classic.id(Action::make(ActionType::kMeld, kFive, 2, 2, 2)), -1);  // four wild cards
  EXPECT_EQ(classic.id(Action::make(ActionType::kTakePile, kJoker, 2)), -1);
  EXPECT_EQ(classic.id(Action::make(ActionType::kTakePile, kFive, 3)), -1);
  EXPECT_EQ(classic.id(Action::clean(kFive, true, kSix, false)), -1);  // no cleanings in classic
  EXPECT_EQ(classic.id(Action(Action::make(ActionType::kDraw).raw() | 1U << 20)), -1);
  EXPECT_EQ(classic.id(Action::make(ActionType::kTypeNb)), -1);
  const ActionIds spanish(spanish_rules());
  EXPECT_GE(spanish.id(Action::make(ActionType::kMeld, kTwo, 0, 2, 1)), 0);
  EXPECT_GE(spanish.id(Action::clean(kFive, true, kSix, false)), 0);
}

}  // namespace
}  // namespace canasta
