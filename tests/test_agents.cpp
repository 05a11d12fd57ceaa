// Agents: the registry, spec errors, and each heuristic parameter changing
// behaviour in the situation it is about.
#include <gtest/gtest.h>

#include <algorithm>

#include "canasta/agent.h"
#include "canasta/experiment.h"
#include "canasta/game.h"
#include "canasta/notation.h"
#include "canasta/runner.h"
#include "canasta/stats.h"
#include "canasta/user_agent.h"
#include "helpers.h"

// An agent of your own without parameters, registered by hand here (the
// build registers only the files of agents/user/).
namespace {
#define ZERO_TEST_PARAMS(X)
struct ZeroTestParams {};
class ZeroTestAgent final : public canasta::Agent {
 public:
  explicit ZeroTestAgent(const ZeroTestParams&) {}
  canasta::Action act(const canasta::View& view, canasta::Rng& /*rng*/) override {
    view.legal_actions(legal_);
    return legal_[legal_.size() - 1];
  }

 private:
  canasta::ActionList legal_;
};
}  // namespace
CANASTA_REGISTER_AGENT(zero_test, ZeroTestAgent, ZeroTestParams, ZERO_TEST_PARAMS, "the last legal action");

namespace canasta::test {
namespace {

// Positions shared by the tests of several agents.
// A pile of three (8 6 7) that seat 0 can take with its pair of sevens.
constexpr const char* kPileOfThree =
    "profile: classic\nseat: 0\nphase: draw\nhand0: 7 7 4 5 9\npile: 8 6 7\nmelds0: K: K K K\nstock: rest";
// Three kings and a joker in hand, side 0 opened with aces.
constexpr const char* kWildAndKings =
    "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK K K K 5 9\n"
    "melds0: A: A A A\nstock: rest";
// Three kings in hand, side 0 opened with aces.
constexpr const char* kThreeKings =
    "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: K K K 5 9\n"
    "melds0: A: A A A\nstock: rest";
// Seat 0 can go out (three nines and a discard); side 0 shows a natural canasta of kings.
constexpr const char* kCanGoOut =
    "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\n"
    "melds0: K: K K K K K K K\nmelded_before: 0\nstock: rest";
// A pile of eight cards and a joker in hand; side 1 has not opened.
constexpr const char* kBigPile =
    "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 9 Q\n"
    "pile: 5 6 8 10 J 4 6 8\nmelds0: K: K K K\nstock: rest";
// The same, both sides opened.
constexpr const char* kBigPileBothOpened =
    "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 9 Q\n"
    "pile: 5 6 8 10 J 4 6 8\nmelds0: K: K K K\nmelds1: A: A A A\nstock: rest";

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
  EXPECT_NE(help.find("  rollout=basic  (random|basic|heuristic|policy) rollout policy"), std::string::npos)
      << help;
  EXPECT_NE(help.find("greedy: example of an agent of your own"), std::string::npos) << help;
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
  EXPECT_NE(spec_error("ismcts:rollout=greedy").find("random, basic, heuristic"), std::string::npos);
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
  for (const char* text :
       {"basic:take_min=7,freeze=5,keep_wilds=2,go_out=0,meld_min=3,freeze_hand=4,"
        "freeze_unopened=0,out_margin=250,ask=1,out_cards=6",
        "heuristic:take_min=7,take_value=50,take_wild=6,meld_min=3,open_lean=0,keep_wilds=1,open_wilds=3,"
        "canasta_wilds=0,jokers_first=0,dump_hand=5,out_lead=200,out_danger=2,reserve=6,extend=30,"
        "safety=20,freeze=6,freeze_value=80,freeze_behind=300,freeze_hand=2,freeze_guard=0,plan_out=0,ask=1",
        "greedy:take_min=5,keep_wilds=1",
        "ismcts:iters=77,time_ms=5,c=1.5,rollout=random,cutoff=9,hand_weight=0.25,reward=win,threads=3,prior="
        "1,c_puct=2,prior_rule=bias"}) {
    const AgentSpec a = agent_spec(text);
    EXPECT_EQ(a.to_string(), text);
    EXPECT_NE(a, agent_spec(std::string(a.name())));
  }
}

TEST(Basic, TakeMinDecidesWhetherToTakeThePile) {
  const State s = position(kPileOfThree);
  EXPECT_EQ(decide("basic:take_min=3", s), "take 7: 7 7");
  EXPECT_EQ(decide("basic:take_min=4", s), "draw");
}

TEST(Basic, FreezeDiscardsAWildOnABigPile) {
  const State s = position(kBigPile);
  EXPECT_EQ(decide("basic:freeze=6", s), "discard JK");
  EXPECT_NE(decide("basic:freeze=0", s), "discard JK");
  EXPECT_NE(decide("basic:freeze=9", s), "discard JK");
}

TEST(Basic, KeepWildsHoldsWildCardsBack) {
  const State s = position(kWildAndKings);
  EXPECT_EQ(decide("basic:keep_wilds=1", s), "meld K: K K K");
  EXPECT_EQ(decide("basic:keep_wilds=0", s), "meld K: JK K K K");
}

TEST(Basic, GoOutDecidesWhetherToFinishTheDeal) {
  const State s = position(kCanGoOut);
  EXPECT_EQ(decide("basic:go_out=1", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("basic:go_out=0", s).substr(0, 7), "discard");
}

TEST(Basic, MeldMinKeepsSetsForThePile) {
  const State s = position(kThreeKings);
  EXPECT_EQ(decide("basic:meld_min=3", s), "meld K: K K K");
  EXPECT_EQ(decide("basic:meld_min=4", s).substr(0, 7), "discard");
}

TEST(Basic, FreezeHandFreezesWhenTheNextOpponentIsClose) {
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 9 Q\nhand1: 5 6\n"
      "pile: 5 6 8\nmelds0: K: K K K\nmelds1: A: A A A\nhand2: rest\nstock: 7 7 7");
  EXPECT_EQ(decide("basic:freeze_hand=2", s), "discard JK");
  EXPECT_NE(decide("basic:freeze_hand=0", s), "discard JK");
  EXPECT_NE(decide("basic:freeze_hand=1", s), "discard JK");
}

TEST(Basic, FreezeUnopenedDecidesAboutUnopenedOpponents) {
  // The next opponent's side has not opened: the pile is frozen for it already.
  const State s = position(kBigPile);
  EXPECT_EQ(decide("basic:freeze=6,freeze_unopened=1", s), "discard JK");
  EXPECT_NE(decide("basic:freeze=6,freeze_unopened=0", s), "discard JK");
}

TEST(Basic, OutMarginGoesOutOnlyWithALead) {
  // Side 0 shows a natural canasta of kings: 70 + 500 = 570 ahead on the table.
  const State s = position(kCanGoOut);
  EXPECT_EQ(decide("basic:out_margin=500", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("basic:out_margin=600", s).substr(0, 7), "discard");
}

TEST(Basic, OutCardsWaitsUntilTheOpponentsHoldEnough) {
  // The opponents hold 2 + 3 cards.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\nhand1: 5 6\nhand3: 7 8 10\n"
      "melds0: K: K K K K K K K\nmelded_before: 0\nhand2: rest\nstock: J J J");
  EXPECT_EQ(decide("basic:out_cards=5", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("basic:out_cards=6", s).substr(0, 7), "discard");
}

TEST(Basic, AskAsksThePartnerFirst) {
  const State s = position(kCanGoOut);
  EXPECT_EQ(decide("basic:ask=1", s), "ask");
  EXPECT_EQ(decide("basic:ask=0", s), "meld 9: 9 9 9");
  // The partner's answer follows its own out_margin.
  State asked = s;
  play(asked, "ask");
  EXPECT_EQ(decide("basic", asked), "yes");
  EXPECT_EQ(decide("basic:out_margin=1000", asked), "no");
}

// The heuristic: each parameter changes the decision in the situation it is about.
TEST(Heuristic, TakesThePileBySizeOrValue) {
  // Three cards worth 20 points (8, 6, 7).
  const State s = position(kPileOfThree);
  EXPECT_EQ(decide("heuristic:take_min=3,take_value=2000", s), "take 7: 7 7");
  EXPECT_EQ(decide("heuristic:take_min=4,take_value=2000", s), "draw");
  EXPECT_EQ(decide("heuristic:take_min=100,take_value=20", s), "take 7: 7 7");
  EXPECT_EQ(decide("heuristic:take_min=100,take_value=21", s), "draw");
}

TEST(Heuristic, TakeWildNeedsABiggerPileToSpendAWild) {
  // Taking needs the 7 and a wild card from the hand.
  const State s = position(
      "profile: classic\nseat: 0\nphase: draw\nhand0: 7 JK 4 5 9\npile: 8 6 7\nmelds0: K: K K K\n"
      "melds1: Q: Q Q Q\nstock: rest");
  EXPECT_EQ(decide("heuristic:take_min=0,take_wild=3", s), "take 7: JK 7");
  EXPECT_EQ(decide("heuristic:take_min=0,take_wild=4", s), "draw");
}

TEST(Heuristic, JokersFirstChoosesTheWildCard) {
  const State take = position(
      "profile: classic\nseat: 0\nphase: draw\nhand0: 7 JK 2 4 5 9\npile: 8 6 7\nmelds0: K: K K K\n"
      "melds1: Q: Q Q Q\nstock: rest");
  EXPECT_EQ(decide("heuristic:take_min=0,take_wild=0,jokers_first=1", take), "take 7: JK 7");
  EXPECT_EQ(decide("heuristic:take_min=0,take_wild=0,jokers_first=0", take), "take 7: 2 7");
  // Completing a canasta of kings with one wild card (one more is held back).
  const State meld = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 2 K 5 9\n"
      "melds0: K: K K K K K\nstock: rest");
  EXPECT_EQ(decide("heuristic:keep_wilds=1,canasta_wilds=0,jokers_first=1", meld), "meld K: JK K");
  EXPECT_EQ(decide("heuristic:keep_wilds=1,canasta_wilds=0,jokers_first=0", meld), "meld K: 2 K");
}

TEST(Heuristic, CanastaWildsSpendsAHeldWildOnACanasta) {
  // Two wild cards, both held back (keep_wilds=2), unless one completes the canasta.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 2 K 5 9\n"
      "melds0: K: K K K K K\nstock: rest");
  EXPECT_EQ(decide("heuristic:keep_wilds=2,canasta_wilds=1", s), "meld K: JK 2 K");
  EXPECT_EQ(decide("heuristic:keep_wilds=2,canasta_wilds=0", s), "meld K: K");
  EXPECT_EQ(decide("heuristic:keep_wilds=1,canasta_wilds=0", s), "meld K: JK K");
}

TEST(Heuristic, KeepWildsAndMeldMinHoldCardsBack) {
  const State wilds = position(kWildAndKings);
  EXPECT_EQ(decide("heuristic:keep_wilds=1", wilds), "meld K: K K K");
  EXPECT_EQ(decide("heuristic:keep_wilds=0", wilds), "meld K: JK K K K");
  const State sets = position(kThreeKings);
  EXPECT_EQ(decide("heuristic:meld_min=3", sets), "meld K: K K K");
  EXPECT_EQ(decide("heuristic:meld_min=4", sets).substr(0, 7), "discard");
}

TEST(Heuristic, OpenLeanOpensWithTheFewestCards) {
  // Side 0 has not opened (minimum 50): three aces (60) are enough; four kings are more cards.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: A A A K K K K 5 9\nstock: rest");
  EXPECT_EQ(decide("heuristic:open_lean=1", s), "meld A: A A A");
  EXPECT_EQ(decide("heuristic:open_lean=0", s), "meld K: K K K K");
  // Three aces are enough: the fourth stays in the hand.
  const State four = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: A A A A K K 5 9\nstock: rest");
  EXPECT_EQ(decide("heuristic:open_lean=1", four), "meld A: A A A");
  EXPECT_EQ(decide("heuristic:open_lean=0", four), "meld A: A A A A");
}

TEST(Heuristic, OpenWildsLetsAWildCardOpenTheSide) {
  // Side 0 has not opened (minimum 50): the joker and two kings (70) open it;
  // without the joker nothing does. Held back, the joker leaves the side shut.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK K K 4 5 7 9\nstock: rest");
  EXPECT_EQ(decide("heuristic:open_wilds=0", s), "meld K: JK K K");
  EXPECT_EQ(decide("heuristic:open_wilds=1", s).substr(0, 7), "discard");
  // Once the side has opened, keep_wilds holds it back instead.
  const State opened = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK K K 4 5 7 9\nmelds0: A: A A A\n"
      "stock: rest");
  EXPECT_EQ(decide("heuristic:open_wilds=0,keep_wilds=1", opened).substr(0, 7), "discard");
  EXPECT_EQ(decide("heuristic:open_wilds=1,keep_wilds=0", opened), "meld K: JK K K");
  // -1: while opening too, keep_wilds (the heuristic before open_wilds).
  EXPECT_EQ(decide("heuristic:open_wilds=-1,keep_wilds=1", s).substr(0, 7), "discard");
  EXPECT_EQ(decide("heuristic:open_wilds=-1,keep_wilds=0", s), "meld K: JK K K");
}

TEST(Heuristic, DumpHandMeldsAllWhenAnOpponentIsAboutToGoOut) {
  // Seat 1's side has a canasta and seat 1 holds two cards.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK Q Q 5 9\nhand1: 5 6\nhand3: 4 4 "
      "4 4 4\n"
      "melds0: A: A A A\nmelds1: K: K K K K K K K\nhand2: rest\nstock: 7 7 7");
  EXPECT_EQ(decide("heuristic:dump_hand=2", s), "meld Q: JK Q Q");
  EXPECT_EQ(decide("heuristic:dump_hand=1", s).substr(0, 7), "discard");
}

TEST(Heuristic, OutLeadGoesOutWhenTheEstimatePays) {
  // Side 0 shows a natural canasta of kings (570); going out adds 100, and
  // no other hand holds a card: the estimate is 670.
  const State s = position(kCanGoOut);
  EXPECT_EQ(decide("heuristic:out_lead=670", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("heuristic:out_lead=671", s).substr(0, 7), "discard");
  // The partner's answer follows the same estimate.
  State asked = s;
  play(asked, "ask");
  EXPECT_EQ(decide("heuristic:out_lead=0", asked), "yes");
  EXPECT_EQ(decide("heuristic:out_lead=1000", asked), "no");
}

TEST(Heuristic, OutDangerGoesOutWhenAnOpponentMayFinish) {
  // Behind on the table, but seat 1 (its side has a canasta) holds two cards.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\nhand1: 5 6\nhand3: 4 4 4 4 "
      "4\n"
      "melds0: Q: Q Q Q Q Q Q Q\nmelds1: K: K K K K K K K; A: A A A A\nmelded_before: 0\nhand2: rest\n"
      "stock: J J J");
  EXPECT_EQ(decide("heuristic:out_lead=10000,out_danger=2", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("heuristic:out_lead=10000,out_danger=1", s).substr(0, 7), "discard");
}

TEST(Heuristic, PlanOutGoesOutWithSeveralMeldsAndItsWildCards) {
  // Side 0 shows a natural canasta of kings: nines with the joker, queens
  // with the two, and the five discarded go out; the wild cards are held
  // back (keep_wilds=2) otherwise, and both on the nines would strand the queens.
  State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 2 9 9 Q Q 5\n"
      "melds0: K: K K K K K K K\nmelded_before: 0\nstock: rest");
  EXPECT_EQ(decide("heuristic:out_lead=-10000,plan_out=0", s).substr(0, 7), "discard");
  EXPECT_EQ(decide("heuristic:out_lead=10000,plan_out=1", s).substr(0, 7), "discard");  // not wanting out
  const std::string first = decide("heuristic:out_lead=-10000,plan_out=1", s);
  EXPECT_TRUE(first == "meld 9: JK 9 9" || first == "meld 9: 2 9 9" || first == "meld Q: JK Q Q" ||
              first == "meld Q: 2 Q Q")
      << first;
  play(s, first);
  play(s, decide("heuristic:out_lead=-10000,plan_out=1", s));
  EXPECT_EQ(decide("heuristic:out_lead=-10000,plan_out=1", s), "discard 5");
  play(s, "discard 5");
  EXPECT_TRUE(s.over());
  EXPECT_EQ(s.end, EndReason::kWentOut);
}

TEST(Heuristic, ExtendStaysInWhileTheOpponentsCannotGoOut) {
  const State s = position(kCanGoOut);
  EXPECT_EQ(decide("heuristic:extend=0", s), "meld 9: 9 9 9");
  EXPECT_EQ(decide("heuristic:extend=10", s).substr(0, 7), "discard");
  EXPECT_EQ(decide("heuristic:extend=108", s), "meld 9: 9 9 9");  // the stock is shorter
}

// Seat 0 to meld (it drew) with `hand`, its side's melds `melds`; side 1
// shows three aces.
State to_meld(const std::string& hand, const std::string& melds) {
  return position("profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: " + hand +
                  "\nmelds0: " + melds + "\nmelds1: A: A A A\nhand2: rest\nstock: 7 7 7");
}

TEST(Heuristic, ReserveKeepsCardsWhileStayingIn) {
  // Out of reach (out_lead): three nines would leave five cards in the hand.
  const State s = to_meld("9 9 9 4 6 7 8 J", "K: K K K");
  for (const auto& [spec, want] : {std::pair{"heuristic:out_lead=10000,reserve=2", "meld 9: 9 9 9"},
                                   {"heuristic:out_lead=10000,reserve=5", "meld 9: 9 9 9"},
                                   {"heuristic:out_lead=10000,reserve=6", "discard"},
                                   {"heuristic:out_lead=-10000,reserve=6", "meld 9: 9 9 9"}})  // wanting out
    EXPECT_EQ(decide(spec, s).substr(0, std::string(want).size()), want) << spec;
  // A canasta completed is melded whatever the reserve; a king is not.
  State c = to_meld("Q K 4 6 7 8 J", "K: K K K; Q: Q Q Q Q Q Q");
  EXPECT_EQ(decide("heuristic:out_lead=10000,reserve=30", c), "meld Q: Q");
  play(c, "meld Q: Q");
  EXPECT_EQ(decide("heuristic:out_lead=10000,reserve=30", c).substr(0, 7), "discard");
  EXPECT_EQ(decide("heuristic:out_lead=10000,reserve=2", c), "meld K: K");
}

TEST(Heuristic, SafetyAvoidsDiscardsTheNextOpponentCanTake) {
  // Seat 1 took two queens with the pile and still holds them.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: Q 4 JK 2\nhand1: Q Q 8\nknown1: Q "
      "Q\n"
      "pile: 5 6 8 10 J\nmelds0: K: K K K\nmelds1: A: A A A\nhand2: rest\nstock: 7 7 7");
  EXPECT_EQ(decide("heuristic:safety=0", s), "discard Q");  // the costlier card
  EXPECT_EQ(decide("heuristic:safety=100", s), "discard 4");
}

TEST(Heuristic, FillRiskSparesThePileThatWouldCompleteTheirCanasta) {
  // Side 1 can take either discard onto its melds (the pile is not frozen);
  // its five aces, the pile's ace and the discarded one make seven.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: A 9\npile: A 6 8\n"
      "melds0: K: K K K\nmelds1: A: A A A A A; 9: 9 9 9\nhand2: rest\nstock: 7 7 7");
  EXPECT_EQ(decide("heuristic:fill_risk=0", s), "discard A");  // the same risk: shed the ace's 20 points
  EXPECT_EQ(decide("heuristic:fill_risk=1", s), "discard 9");  // risk 1 x safety 1019 x 1/10 more
  // Without the pile's ace the aces stay short of a canasta.
  const State t = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: A 9\npile: 5 6 8\n"
      "melds0: K: K K K\nmelds1: A: A A A A A; 9: 9 9 9\nhand2: rest\nstock: 7 7 7");
  EXPECT_EQ(decide("heuristic:fill_risk=100", t), "discard A");
}

TEST(Heuristic, TakeOddsIsTheChanceTheNextPlayerCanTakeTheDiscard) {
  // Seat 1 holds three cards: the two queens it took with the pile, and one hidden.
  const auto with_pile = [](const std::string& pile) {
    return position(
        "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\n"
        "hand0: Q 4 A JK 2\nhand1: Q Q 8\nknown1: Q Q\npile: " +
        pile + "\nmelds0: K: K K K\nmelds1: A: A A A\nhand2: rest\nstock: 7 7 7");
  };
  const State so = with_pile("5 6 8 10 J"), sf = with_pile("5 6 2 10 J");  // open; frozen by the two
  const TakeOdds open(View(so, 0)), frozen(View(sf, 0));
  EXPECT_EQ(open(kQueen), 1.0);  // its two queens
  EXPECT_EQ(frozen(kQueen), 1.0);
  EXPECT_EQ(open(kAce), 1.0);    // onto its side's meld
  EXPECT_EQ(frozen(kAce), 0.0);  // frozen, a pair is needed: one hidden card cannot hold it
  EXPECT_EQ(frozen(kFour), 0.0);
  // Open, a four and a wild card would do: the two chances are multiplied
  // as if independent (with a single hidden card, an overestimate).
  EXPECT_GT(open(kFour), 0.0);
  EXPECT_LT(open(kFour), 0.05);
  EXPECT_EQ(open.unseen().count(kKing), 8 - 3);  // the side's kings are placed
}

TEST(Heuristic, OutEstimateCountsTheTableTheBonusAndTheHands) {
  // Table: a natural canasta of kings, 70 + 500, against aces 80; going out
  // 100. The hand of the player going out is melded and counts nothing; the
  // other hidden hands count 11 a card, for the opponents' (3 + 1 cards),
  // against the partner's.
  const std::string hands =
      "hand0: Q 4\nhand1: 8 8 8\nhand2: 5 5\nhand3: 9\nmelds0: K: K K K K K K K\nmelds1: A: A A A A\n"
      "stock: rest\n";
  const State meld = position("profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\n" + hands);
  EXPECT_EQ(out_estimate(View(meld, 0)), 570 - 80 + 100 + 44 - 22);
  // Seat 2 asked to go out: seat 0, answering, counts its own hand at its
  // value (queen 10, four 5).
  const State asked = position("profile: classic\nseat: 2\nphase: answer\nflags: drew_stock asked\n" + hands);
  EXPECT_EQ(out_estimate(View(asked, 0)), 570 - 80 + 100 + 44 - 15);
}

TEST(Heuristic, FreezeByPileSize) {
  const State s = position(kBigPileBothOpened);
  EXPECT_EQ(decide("heuristic:freeze=6", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze=0", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze=9", s), "discard JK");
}

TEST(Heuristic, FreezeByPileValue) {
  // The pile is worth 5 + 5 + 10 + 10 + 10 + 5 + 5 + 10 = 60 points.
  const State s = position(kBigPileBothOpened);
  EXPECT_EQ(decide("heuristic:freeze_value=60", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze_value=61", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze_value=0", s), "discard JK");
}

TEST(Heuristic, FreezeBehindFreezesWhenTrailingAndTheNextOpponentIsClose) {
  // Side 1 leads on the table by 640 - 30 = 610; seat 1 holds two cards.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 9 Q\nhand1: 5 6\nhand2: 5 5 5\n"
      "hand3: 4 4 4 4 4\npile: 5 6 8\nmelds0: K: K K K\nmelds1: A: A A A A A A A\nstock: rest");
  // dump_hand=1: seat 1's two cards do not make it meld everything (the JK too) first.
  EXPECT_EQ(decide("heuristic:freeze_behind=610,freeze_hand=2,dump_hand=1", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze_behind=611,freeze_hand=2,dump_hand=1", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze_behind=610,freeze_hand=1,dump_hand=1", s), "discard JK");
}

TEST(Heuristic, FreezeCostWeighsFreezingAgainstGivingThePile) {
  // Side 1 has melded every natural rank of the hand: any of them gives it
  // the pile of eight (risk 1 x safety 1019 x 10/10, less the card's value).
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 4 9 Q\n"
      "pile: 5 6 8 10 J 4 6 8\nmelds0: K: K K K\nmelds1: 4: 4 4 4; 9: 9 9 9; Q: Q Q Q\nstock: rest");
  EXPECT_EQ(decide("heuristic:freeze_cost=800", s), "discard JK");  // 800 + 50 for the joker
  EXPECT_NE(decide("heuristic:freeze_cost=0", s), "discard JK");    // never
  EXPECT_NE(decide("heuristic:freeze_cost=2000", s), "discard JK");
  EXPECT_NE(decide("heuristic:freeze_cost=800,safety=100", s), "discard JK");  // giving it costs less
}

TEST(Heuristic, FreezeGuardSparesUnopenedOpponents) {
  // Side 0 has melded, side 1 has not: freezing would only hinder the partner.
  const State s = position(kBigPile);
  EXPECT_NE(decide("heuristic:freeze=6,freeze_guard=1", s), "discard JK");
  EXPECT_EQ(decide("heuristic:freeze=6,freeze_guard=0", s), "discard JK");
}

TEST(Heuristic, AskAsksThePartnerFirst) {
  const State s = position(kCanGoOut);
  EXPECT_EQ(decide("heuristic:ask=1", s), "ask");
  EXPECT_EQ(decide("heuristic:ask=0", s), "meld 9: 9 9 9");
}

TEST(Heuristic, WildMeldStartsAndGrowsTheMeldOfWildCards) {
  // spanish: five wild cards in hand start the meld of wild cards only at
  // wild_meld=5, not at 6, nor with 0 (never).
  const State start = position(
      "profile: spanish\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK JK 2 2 2 4 5\n"
      "melds0: K: K K K\nmelded_before: 0\nstock: rest");
  EXPECT_EQ(decide("heuristic:wild_meld=5", start), "meld wild: JK JK 2 2 2");
  EXPECT_EQ(decide("heuristic:wild_meld=6", start), "meld K: JK JK 2");  // the wild cards go to the kings
  EXPECT_EQ(decide("heuristic:wild_meld=0", start), "meld K: JK JK 2");
  // Once the side has one, it grows with fewer wild cards than wild_meld.
  const State grow = position(
      "profile: spanish\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 2 4 5 9\n"
      "melds0: K: K K K; wild: JK JK 2\nmelded_before: 0\nstock: rest");
  EXPECT_EQ(decide("heuristic:wild_meld=5", grow), "meld wild: JK 2");
  EXPECT_EQ(decide("heuristic:wild_meld=0", grow), "discard 9");  // two wild cards: both held back
}

TEST(Heuristic, CleanTakesTheWildCardsOutOfAMixedCanasta) {
  // spanish: the mixed canasta of kings can be cleaned with the pair of queens.
  const State s = position(
      "profile: spanish\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: K Q Q 4 5\n"
      "melds0: K: K K K K K JK 2; A: A A A\nmelded_before: 0\nstock: rest");
  EXPECT_EQ(decide("heuristic:clean=1", s), "clean K: JK > Q Q");
  EXPECT_EQ(decide("heuristic:clean=0", s), "discard 4");  // a mixed canasta is closed: no K joins it
}

TEST(UserAgent, AnAgentMayHaveNoParameters) {
  canasta_register_agent_zero_test();
  const AgentSpec a = agent_spec("zero_test");
  EXPECT_EQ(a.to_string(), "zero_test");
  EXPECT_TRUE(agent_params(a).empty());
  EXPECT_NE(spec_error("zero_test:x=1").find("agent 'zero_test' has no parameter 'x'"), std::string::npos);
  const State s = position(kPileOfThree);
  EXPECT_EQ(decide("zero_test", s), "take 7: 7 7");  // draw, then take, in canonical order
}

TEST(UserAgent, TheExampleAgentIsRegisteredAndPlays) {
  // agents/user/greedy.cpp: listed, read from specs, and playing legal deals.
  EXPECT_NE(std::find(agent_names().begin(), agent_names().end(), "greedy"), agent_names().end());
  EXPECT_EQ(agent_spec("greedy:keep_wilds=1,take_min=5").to_string(), "greedy:take_min=5,keep_wilds=1");
  EXPECT_NE(spec_error("greedy:take_min=200").find("out of range"), std::string::npos);
  EXPECT_NE(spec_error("greedy:colour=1").find("agent 'greedy' has no parameter 'colour'"),
            std::string::npos);
  const State s = position(kPileOfThree);
  EXPECT_EQ(decide("greedy:take_min=3", s), "take 7: 7 7");
  EXPECT_EQ(decide("greedy:take_min=4", s), "draw");
  ExperimentConfig c;
  c.side0 = agent_spec("greedy");
  c.side1 = agent_spec("random");
  c.deals = 200;
  c.duplicate = true;
  c.threads = 1;
  std::vector<DealRow> rows;
  std::string error;
  ASSERT_TRUE(run_deals(c, rows, error)) << error;
  const Summary sum = summary_of(rows, kDuplicate);
  EXPECT_GT(sum.margin.lo, 0) << "greedy should beat uniform random play";
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

// A position of a real deal (searches play on from it, so it must be one
// that play can reach): random play of single deal 0 of `seed`, its
// decisions drawn from `play_seed`, until `wanted(state, legal actions)`.
template <class Wanted>
State reached_by_random_play(uint64_t seed, uint64_t play_seed, const Wanted& wanted) {
  State s;
  start_single_deal(s, Rules{}, seed, 0);
  RandomAgent random;
  Rng play(play_seed);
  ActionList legal;
  for (;;) {
    legal_actions(s, legal);
    if (wanted(s, legal)) return s;
    apply(s, random.act(View(s, s.actor()), play));
    if (s.over()) ADD_FAILURE() << "the deal ended before the position was reached";
  }
}

// A meld phase with choices.
State meld_position_of_a_real_deal() {
  return reached_by_random_play(61, 7, [](const State& s, const ActionList& legal) {
    return s.phase == Phase::kMeld && legal.size() >= 4 && s.turns > 6;
  });
}

TEST(Ismcts, PriorExpandsThePolicysChoiceFirst) {
  // One iteration expands one child of the root: with prior=1 it is the
  // rollout policy's choice, so the search plays what that agent plays.
  const State s = meld_position_of_a_real_deal();
  for (const char* policy : {"basic", "heuristic"}) {
    const std::string spec = std::string("ismcts:iters=1,prior=1,rollout=") + policy;
    for (uint64_t seed = 1; seed <= 5; ++seed) {
      Rng rng(seed);
      EXPECT_EQ(action_to_string(agent(spec)->act(View(s, s.actor()), rng)), decide(policy, s)) << spec;
    }
  }
  // Without it the first child is drawn at random: some seed picks another action.
  bool differs = false;
  for (uint64_t seed = 1; seed <= 20 && !differs; ++seed) {
    Rng rng(seed);
    differs =
        action_to_string(agent("ismcts:iters=1,prior=0")->act(View(s, s.actor()), rng)) != decide("basic", s);
  }
  EXPECT_TRUE(differs);
}

// The root's visits of one search (seed 3) by `spec` in meld_position_of_a_real_deal.
std::vector<std::pair<Action, int>> visits(const std::string& spec) {
  const State s = meld_position_of_a_real_deal();
  IsmctsAgent a(std::get<IsmctsParams>(agent_spec(spec).params));
  Rng rng(3);
  a.act(View(s, s.actor()), rng);
  return a.last_visits();
}

TEST(Ismcts, HandWeightReachesTheCutOffEvaluation) {
  // 1 is the score as it stands (the default); less changes what the rollouts are worth.
  EXPECT_EQ(visits("ismcts:iters=400,cutoff=4,hand_weight=1"), visits("ismcts:iters=400,cutoff=4"));
  EXPECT_NE(visits("ismcts:iters=400,cutoff=4,hand_weight=0"), visits("ismcts:iters=400,cutoff=4"));
  // A rollout that reaches the end of the deal is scored in full whatever the weight.
  EXPECT_EQ(visits("ismcts:iters=100,cutoff=0,hand_weight=0"), visits("ismcts:iters=100,cutoff=0"));
}

TEST(Ismcts, EvalSeatsSetsWhoseViewsTheModelScores) {
  const std::string with_model = "ismcts:iters=300,cutoff=4,scale=300,eval=default";
  // Every seat (a classic table has four) is the default, as are more seats than there are.
  EXPECT_EQ(visits(with_model + ",eval_seats=4"), visits(with_model));
  EXPECT_EQ(visits(with_model + ",eval_seats=8"), visits(with_model));
  EXPECT_NE(visits(with_model + ",eval_seats=1"), visits(with_model));
  EXPECT_NE(visits(with_model + ",eval_seats=2"), visits(with_model + ",eval_seats=1"));
  // Without a model the cut-off is scored as it stands whatever the seats.
  EXPECT_EQ(visits("ismcts:iters=300,cutoff=4,eval_seats=1"), visits("ismcts:iters=300,cutoff=4"));
}

TEST(Ismcts, ScaleSetsHowFastTheMarginRewardSaturates) {
  EXPECT_EQ(visits("ismcts:iters=400,scale=1000"), visits("ismcts:iters=400"));
  EXPECT_NE(visits("ismcts:iters=400,scale=100"), visits("ismcts:iters=400"));
  // The deal-won reward has no scale.
  EXPECT_EQ(visits("ismcts:iters=400,reward=win,scale=100"), visits("ismcts:iters=400,reward=win"));
}

TEST(Ismcts, StopEarlyKeepsTheDecisionWithFewerIterations) {
  // Over the decisions of a deal: the same action as the full search, never
  // more iterations, and fewer in all.
  const auto params = [](const std::string& spec) { return std::get<IsmctsParams>(agent_spec(spec).params); };
  IsmctsAgent full(params("ismcts:iters=600,stop_early=0")), early(params("ismcts:iters=600"));
  State s;
  start_single_deal(s, Rules{}, 63, 0);
  int64_t full_iterations = 0, early_iterations = 0;
  for (int step = 0; step < 60 && !s.over(); ++step) {
    Rng r1(step), r2(step);
    const Action x = full.act(View(s, s.actor()), r1);
    const Action y = early.act(View(s, s.actor()), r2);
    ASSERT_EQ(x, y) << "step " << step;
    EXPECT_LE(early.last_iterations(), full.last_iterations());
    full_iterations += full.last_iterations();
    early_iterations += early.last_iterations();
    apply(s, x);
  }
  EXPECT_LT(early_iterations, full_iterations);
}

TEST(Ismcts, StopShareEndsSearchesSooner) {
  // Over the decisions of a deal: a share of 1 is the default search; a
  // smaller one never runs more iterations (the trees grow alike until it
  // stops), and fewer in all.
  const auto params = [](const std::string& spec) { return std::get<IsmctsParams>(agent_spec(spec).params); };
  IsmctsAgent base(params("ismcts:iters=600")), one(params("ismcts:iters=600,stop_share=1")),
      share(params("ismcts:iters=600,stop_share=0.3"));
  State s;
  start_single_deal(s, Rules{}, 63, 0);
  int64_t base_iterations = 0, share_iterations = 0;
  for (int step = 0; step < 60 && !s.over(); ++step) {
    Rng r1(step), r2(step), r3(step);
    const Action x = base.act(View(s, s.actor()), r1);
    ASSERT_EQ(one.act(View(s, s.actor()), r2), x) << "step " << step;
    EXPECT_EQ(one.last_iterations(), base.last_iterations());
    share.act(View(s, s.actor()), r3);
    EXPECT_LE(share.last_iterations(), base.last_iterations());
    base_iterations += base.last_iterations();
    share_iterations += share.last_iterations();
    apply(s, x);
  }
  EXPECT_LT(share_iterations, base_iterations);
}

TEST(Ismcts, MeldShareCutsOnlyTheBudgetOfDecisionsAmongMelds) {
  // Random play to a decision with a meld among its choices, and to one between the pile and the stock.
  const State meld = reached_by_random_play(64, 9, [](const State&, const ActionList& legal) {
    for (Action a : legal)
      if (a.type() == ActionType::kMeld) return true;
    return false;
  });
  const State pile = reached_by_random_play(64, 9, [](const State&, const ActionList& legal) {
    for (Action a : legal)
      if (a.type() == ActionType::kTakePile) return legal.size() >= 2;
    return false;
  });
  const auto iterations = [](const State& s, const std::string& spec) {
    IsmctsAgent a(std::get<IsmctsParams>(agent_spec(spec).params));
    Rng rng(5);
    a.act(View(s, s.actor()), rng);
    return a.last_iterations();
  };
  EXPECT_EQ(iterations(meld, "ismcts:iters=400,stop_early=0"), 400);
  EXPECT_EQ(iterations(meld, "ismcts:iters=400,stop_early=0,meld_share=0.25"), 100);
  EXPECT_EQ(iterations(pile, "ismcts:iters=400,stop_early=0,meld_share=0.25"), 400);
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

TEST(Ismcts, MeldOrderSearchesATurnsMeldsInRankOrder) {
  // Going out takes both melds (the fours and the nines) and a discard. In
  // rank order the fours cannot follow the nines in the tree (only in the
  // rollouts), so the fours first lead out more surely: the search spends
  // more of its visits there.
  const State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4 4 4 5\n"
      "hand1: JK JK A A Q Q J J 10 10\nhand3: 2 2 A Q J 10 9 8 7 6\n"
      "melds0: K: K K K K K K K\nmelded_before: 0 1 2 3\nhand2: 5 6 7 8\nstock: rest");
  const auto visits = [&](const std::string& spec, const char* action) {
    IsmctsAgent a(std::get<IsmctsParams>(agent_spec(spec).params));
    Rng rng(4);
    a.act(View(s, 0), rng);
    for (const auto& [act, n] : a.last_visits())
      if (action_to_string(act) == action) return n;
    ADD_FAILURE() << action << " is not a choice";
    return 0;
  };
  const std::string ordered = "ismcts:iters=1000,stop_early=0,meld_order=1",
                    any = "ismcts:iters=1000,stop_early=0";
  EXPECT_LT(4 * visits(ordered, "meld 9: 9 9 9"), 3 * visits(ordered, "meld 4: 4 4 4"));
  // In any order both lead out alike.
  EXPECT_GT(4 * visits(any, "meld 9: 9 9 9"), 3 * visits(any, "meld 4: 4 4 4"));
}

TEST(Ismcts, InferTakesADiscardAsASignOfNoPair) {
  // Seat 0 discards an eight or a nine onto a pile of eight cards that side 1
  // may take with a pair. Seat 1 has discarded an eight this deal: with
  // `infer`, samples giving it a pair of eights are mostly drawn again, so
  // the eight looks safer.
  State s = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: 8 9\n"
      "hand1: 4 5 6 7 10 J Q K A 4 5\nhand2: 4 5 6 7 10 J Q K A 6 7\nhand3: 4 5 6 7 10 J Q K A 10 J\n"
      "pile: 5 6 10 J 4 6 10 A\nmelds0: K: K K K\nmelds1: A: A A A\nstock: rest");
  s.discarded[1] = 1U << kEight;
  const auto share_of_eight = [&](const std::string& spec) {
    IsmctsAgent a(std::get<IsmctsParams>(agent_spec(spec).params));
    Rng rng(2);
    a.act(View(s, 0), rng);
    double eight = 0, all = 0;
    for (const auto& [action, visits] : a.last_visits()) {
      all += visits;
      if (action.kind() == kEight) eight += visits;
    }
    return eight / all;
  };
  const double with = share_of_eight("ismcts:iters=2000,stop_early=0,infer=1");
  const double without = share_of_eight("ismcts:iters=2000,stop_early=0");
  EXPECT_GT(with, without + 0.04) << with << " against " << without;
  EXPECT_GT(with, 0.5);
}

}  // namespace
}  // namespace canasta::test
