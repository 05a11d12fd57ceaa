// Agents: the registry, spec errors, and each heuristic parameter changing
// behaviour in the situation it is about.
#include <gtest/gtest.h>

#include "canasta/agent.h"
#include "canasta/game.h"
#include "canasta/notation.h"
#include "canasta/runner.h"
#include "helpers.h"

namespace canasta::test {
namespace {

std::string decide(const std::string& spec, const State& s) {
  Rng rng(1);
  return action_to_string(agent(spec)->act(View(s, s.actor()), rng));
}

// The error a bad spec gets, or "" when the spec is good.
std::string spec_error(const std::string& spec) {
  AgentSpec a;
  std::string error;
  return parse_agent_spec(spec, a, error) ? "" : error;
}

TEST(Agents, RegistryDocumentsEveryParameter) {
  const std::string help = agents_help();
  for (const std::string_view name : agent_names())
    EXPECT_NE(help.find(std::string(name) + ": "), std::string::npos);
  EXPECT_NE(help.find("  take_min=3  (integer 0..100) take the pile"), std::string::npos) << help;
  EXPECT_NE(help.find("  rollout=heuristic  (random|heuristic) rollout policy"), std::string::npos) << help;
  EXPECT_NE(help.find("  c=0.7  (0..10) UCB exploration constant"), std::string::npos) << help;
}

TEST(Agents, BadSpecsAreRefusedByName) {
  EXPECT_NE(spec_error("wizard").find("wizard"), std::string::npos);
  EXPECT_NE(spec_error("heuristic:colour=3").find("colour"), std::string::npos);
  EXPECT_NE(spec_error("heuristic:freeze=-1").find("out of range"), std::string::npos);
  EXPECT_NE(spec_error("heuristic:freeze=2.5"), "");
  EXPECT_NE(spec_error("heuristic:freeze"), "");
  EXPECT_NE(spec_error("heuristic:freeze=1,freeze=2").find("twice"), std::string::npos);
  EXPECT_NE(spec_error("heuristic:freeze=1,"), "");
  EXPECT_NE(spec_error("random:x=1"), "");
  EXPECT_NE(spec_error("ismcts:rollout=greedy").find("random, heuristic"), std::string::npos);
  // Not-a-number and infinities are no numbers, whatever the range.
  for (const char* bad :
       {"ismcts:c=nan", "ismcts:c=NaN", "ismcts:c=-nan", "ismcts:c=inf", "heuristic:freeze=nan"})
    EXPECT_NE(spec_error(bad), "") << bad;
  // Errors quote the input on one printable line.
  EXPECT_EQ(spec_error("heuristic:col\nour=3").find('\n'), std::string::npos);
}

TEST(Agents, SpecsPrintCanonicallyAndCompareByValue) {
  const AgentSpec h = agent_spec("heuristic:freeze=6,take_min=4");
  EXPECT_EQ(h.to_string(), "heuristic:take_min=4,freeze=6");  // table order
  EXPECT_EQ(agent_spec(h.to_string()), h);
  EXPECT_EQ(agent_spec("heuristic:freeze=6.0,take_min=4").to_string(), h.to_string());
  EXPECT_EQ(agent_spec("heuristic:freeze=0").to_string(), "heuristic:freeze=0");  // what was given stays
  EXPECT_EQ(agent_spec("heuristic:freeze=0"), agent_spec("heuristic"));           // the same agent
  EXPECT_NE(agent_spec("heuristic"), agent_spec("random"));
  EXPECT_EQ(agent_spec("ismcts:rollout=random,c=0.25").to_string(), "ismcts:c=0.25,rollout=random");
  EXPECT_EQ(agent_spec("random").to_string(), "random");
  const auto& p = std::get<HeuristicParams>(h.params);
  EXPECT_EQ(p.take_min, 4);
  EXPECT_EQ(p.freeze, 6);
  EXPECT_EQ(p.keep_wilds, HeuristicParams{}.keep_wilds);
}

// A parameter set from the command line reaches the agent: every parameter
// of every agent, set to a value other than its default, changes the spec's
// parameters and prints back.
TEST(Agents, EveryParameterRoundTrips) {
  for (const char* text : {"heuristic:take_min=7,freeze=5,keep_wilds=2,go_out=0,meld_min=3,freeze_hand=4,"
                           "freeze_unopened=0,out_margin=250,ask=1,out_cards=6",
                           "ismcts:iters=77,time_ms=5,c=1.5,rollout=random,cutoff=9,reward=win,threads=3"}) {
    const AgentSpec a = agent_spec(text);
    EXPECT_EQ(a.to_string(), text);
    EXPECT_NE(a, agent_spec(std::string(a.name())));
  }
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
    Rng rng(derive_seed(41, Stream::kTest, static_cast<uint64_t>(k)));
    const int side = k % 2;  // the heuristic plays side 0 in even deals, side 1 in odd ones
    play_deal(
        s, [&](int seat) -> Agent& { return seat % 2 == side ? static_cast<Agent&>(heuristic) : random; },
        rng);
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
  for (const char* spec :
       {"ismcts:iters=200", "ismcts:iters=200,threads=2,rollout=random,cutoff=0,reward=win"}) {
    auto a = agent(spec), b = agent(spec);
    for (int k = 0; k < 3; ++k) {
      start_single_deal(s, Rules{}, 61, k);
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
  auto searcher = agent("ismcts:time_ms=30");
  State s;
  start_single_deal(s, Rules{}, 62, 0);
  apply(s, Action::make(ActionType::kDraw));
  Rng rng(1);
  const Action a = searcher->act(View(s, s.actor()), rng);
  EXPECT_TRUE(is_legal(s, a));
  // The clock is read every 16 iterations, after the first 16.
  EXPECT_GE(dynamic_cast<IsmctsAgent&>(*searcher).last_iterations(), 16);
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
