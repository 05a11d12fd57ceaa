// Agents: the registry, spec errors, and each heuristic parameter changing
// behaviour in the situation it is about.
#include <gtest/gtest.h>

#include "canasta/agent.h"
#include "canasta/notation.h"
#include "canasta/sim.h"
#include "helpers.h"

namespace canasta::test {
namespace {

std::string decide(const std::string& spec, const State& s) {
  std::string error;
  auto agent = make_agent(spec, error);
  EXPECT_NE(agent, nullptr) << error;
  Rng rng(1);
  return action_to_string(agent->act(View(s, s.actor()), rng));
}

TEST(Agents, RegistryDocumentsEveryParameter) {
  ASSERT_GE(agent_kinds().size(), 2U);
  for (const auto& k : agent_kinds()) {
    EXPECT_FALSE(k.summary.empty());
    for (const auto& p : k.params) {
      EXPECT_FALSE(p.help.empty()) << p.name;
      EXPECT_LE(p.lo, p.value);
      EXPECT_LE(p.value, p.hi);
    }
  }
  EXPECT_NE(agents_help().find("take_min"), std::string::npos);
}

TEST(Agents, BadSpecsAreRefusedByName) {
  std::string error;
  EXPECT_EQ(make_agent("wizard", error), nullptr);
  EXPECT_NE(error.find("wizard"), std::string::npos);
  EXPECT_EQ(make_agent("heuristic:colour=3", error), nullptr);
  EXPECT_NE(error.find("colour"), std::string::npos);
  EXPECT_EQ(make_agent("heuristic:freeze=-1", error), nullptr);
  EXPECT_NE(error.find("out of range"), std::string::npos);
  EXPECT_EQ(make_agent("heuristic:freeze=2.5", error), nullptr);
  EXPECT_EQ(make_agent("heuristic:freeze", error), nullptr);
  EXPECT_EQ(make_agent("random:x=1", error), nullptr);
  auto h = make_agent("heuristic:freeze=6,take_min=4", error);
  ASSERT_NE(h, nullptr) << error;
  EXPECT_EQ(h->spec(),
            "heuristic:take_min=4,freeze=6,keep_wilds=1,go_out=1,meld_min=2,freeze_hand=0,freeze_unopened=1,"
            "out_margin=-10000,ask=0,out_cards=0");
  std::string again;
  EXPECT_NE(make_agent(h->spec(), again), nullptr) << again;
}

TEST(Heuristic, TakeMinDecidesWhetherToTakeThePile) {
  const State s = position(
      "profile: classic\nseat: 0\nphase: draw\nhand0: 7 7 4 5 9\npile: 8 6 7\nmelds0: K: K K K\nstock: rest");
  EXPECT_EQ(decide("heuristic:take_min=3", s), "take 7: 7 7");
  EXPECT_EQ(decide("heuristic:take_min=4", s), "draw");
}

TEST(Heuristic, FreezeDiscardsAWildOnABigPile) {
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 9 Q\n"
      "pile: 5 6 8 10 J 4 6 8\nmelds0: K: K K K\nstock: rest");
  EXPECT_EQ(decide("heuristic:freeze=6", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze=0", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze=9", s), "discard JK");
}

TEST(Heuristic, KeepWildsHoldsWildCardsBack) {
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK K K K 5 9\n"
      "melds0: A: A A A\nstock: rest");
  EXPECT_EQ(decide("heuristic:keep_wilds=1", s), "meld K: K K K");
  EXPECT_EQ(decide("heuristic:keep_wilds=0", s), "meld K: JK K K K");
}

TEST(Heuristic, GoOutDecidesWhetherToFinishTheDeal) {
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\n"
      "melds0: K: K K K K K K K\nmelded_before: 0\nstock: rest");
  EXPECT_EQ(decide("heuristic:go_out=1", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("heuristic:go_out=0", s).substr(0, 7), "discard");
}

TEST(Heuristic, MeldMinKeepsSetsForThePile) {
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: K K K 5 9\n"
      "melds0: A: A A A\nstock: rest");
  EXPECT_EQ(decide("heuristic:meld_min=3", s), "meld K: K K K");
  EXPECT_EQ(decide("heuristic:meld_min=4", s).substr(0, 7), "discard");
}

TEST(Heuristic, FreezeHandFreezesWhenTheNextOpponentIsClose) {
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 9 Q\nhand1: 5 6\n"
      "pile: 5 6 8\nmelds0: K: K K K\nmelds1: A: A A A\nhand2: rest\nstock: 7 7 7");
  EXPECT_EQ(decide("heuristic:freeze_hand=2", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze_hand=0", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze_hand=1", s), "discard JK");
}

TEST(Heuristic, FreezeUnopenedDecidesAboutUnopenedOpponents) {
  // The next opponent's side has not opened: the pile is frozen for it already.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 9 Q\n"
      "pile: 5 6 8 10 J 4 6 8\nmelds0: K: K K K\nstock: rest");
  EXPECT_EQ(decide("heuristic:freeze=6,freeze_unopened=1", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze=6,freeze_unopened=0", s), "discard JK");
}

TEST(Heuristic, OutMarginGoesOutOnlyWithALead) {
  // Side 0 shows a natural canasta of kings: 70 + 500 = 570 ahead on the table.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\n"
      "melds0: K: K K K K K K K\nmelded_before: 0\nstock: rest");
  EXPECT_EQ(decide("heuristic:out_margin=500", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("heuristic:out_margin=600", s).substr(0, 7), "discard");
}

TEST(Heuristic, OutCardsWaitsUntilTheOpponentsHoldEnough) {
  // The opponents hold 2 + 3 cards.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\nhand1: 5 6\nhand3: 7 8 10\n"
      "melds0: K: K K K K K K K\nmelded_before: 0\nhand2: rest\nstock: J J J");
  EXPECT_EQ(decide("heuristic:out_cards=5", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("heuristic:out_cards=6", s).substr(0, 7), "discard");
}

TEST(Heuristic, AskAsksThePartnerFirst) {
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\n"
      "melds0: K: K K K K K K K\nmelded_before: 0\nstock: rest");
  EXPECT_EQ(decide("heuristic:ask=1", s), "ask");
  EXPECT_EQ(decide("heuristic:ask=0", s), "meld 9: 9 9 9");
  // The partner's answer follows its own out_margin.
  State asked = s;
  play(asked, "ask");
  EXPECT_EQ(decide("heuristic", asked), "yes");
  EXPECT_EQ(decide("heuristic:out_margin=1000", asked), "no");
}

TEST(Heuristic, BeatsRandomPlay) {
  HeuristicAgent heuristic;
  RandomAgent random;
  State s;
  int64_t margin = 0, won = 0;
  const int deals = 400;
  for (int k = 0; k < deals; ++k) {
    start_single_deal(s, Rules{}, 41, k);
    Rng rng(derive_seed(41, static_cast<uint64_t>(k)));
    const int side = k % 2;  // the heuristic plays side 0 in even deals, side 1 in odd ones
    while (!s.over()) {
      const int seat = s.actor();
      Agent& a = Rules{}.team_of(seat) == side ? static_cast<Agent&>(heuristic) : random;
      apply(s, a.act(View(s, seat), rng));
    }
    const auto sc = deal_score(s);
    margin += sc[side].total() - sc[1 - side].total();
    won += sc[side].total() > sc[1 - side].total();
  }
  EXPECT_GT(margin / deals, 300);
  EXPECT_GT(won, deals * 7 / 10);
  std::printf("heuristic against random: mean margin %lld per deal, won %lld of %d deals\n",
              static_cast<long long>(margin / deals), static_cast<long long>(won), deals);
}

TEST(Ismcts, LegalAndReproducible) {
  State s;
  ActionList legal;
  std::string error;
  for (const char* spec :
       {"ismcts:iters=200", "ismcts:iters=200,threads=2,rollout=random,cutoff=0,reward=win"}) {
    auto a = make_agent(spec, error), b = make_agent(spec, error);
    ASSERT_NE(a, nullptr) << error;
    for (int k = 0; k < 3; ++k) {
      start_single_deal(s, Rules{}, 61, k);
      Rng play(k);
      for (int step = 0; step < 30 && !s.over(); ++step) {
        Rng r1(step), r2(step);
        const Action x = a->act(View(s, s.actor()), r1);
        const Action y = b->act(View(s, s.actor()), r2);
        ASSERT_EQ(x, y) << spec;
        ASSERT_TRUE(is_legal(s, x));
        apply(s, x);
      }
    }
  }
}

TEST(Ismcts, TimeBudgetRunsIterationsUntilTheDeadline) {
  std::string error;
  auto agent = make_agent("ismcts:time_ms=30", error);
  ASSERT_NE(agent, nullptr) << error;
  State s;
  start_single_deal(s, Rules{}, 62, 0);
  apply(s, Action::make(ActionType::kDraw));
  Rng rng(1);
  const Action a = agent->act(View(s, s.actor()), rng);
  EXPECT_TRUE(is_legal(s, a));
  // The clock is read every 16 iterations, after the first 16.
  EXPECT_GE(dynamic_cast<IsmctsAgent&>(*agent).last_iterations(), 16);
}

TEST(Ismcts, GoesOutWhenThatWinsTheDeal) {
  // Seat 0 can go out (meld the nines, discard the four): +100 and the
  // opponents keep their hands. Staying in gains nothing.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\n"
      "hand1: JK JK A A Q Q J J 10 10\nhand3: 2 2 A Q J 10 9 8 7 6\n"
      "melds0: K: K K K K K K K\nmelded_before: 0 1 2 3\nhand2: 5 6 7 8\nstock: rest");
  EXPECT_EQ(decide("ismcts:iters=400", s), "meld 9: 9 9 9");
}

}  // namespace
}  // namespace canasta::test
