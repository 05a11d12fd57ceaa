// One scenario per rule of core/doc/rules.md (sections 2-11 and the two-player
// profile): a case the rules allow and a case they refuse.
#include <gtest/gtest.h>

#include "canasta/game.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// A classic position in seat 0's meld phase after a draw; the side has opened
// with the given melds (or not, when empty).
State meld_phase(const std::string& hand, const std::string& melds = "", const std::string& extra = "") {
  return position("profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: " + hand +
                  "\nmelds0: " + melds + "\n" + extra + "\nstock: rest");
}

// --- Section 2: table and deal -------------------------------------------

TEST(Deal, ElevenCardsEachUpcardCoveredRedThreesReplacedInTurnOrder) {
  const Rules rules;
  Deck deck;
  const int n = ordered_deck(rules, deck);
  // Find a card of a kind in the deck at or after `from` and move it to `at`.
  auto place = [&](int at, int kind) {
    for (int i = at; i < n; ++i)
      if (deck[i] == kind) {
        std::swap(deck[i], deck[at]);
        return;
      }
    FAIL() << "no card to place";
  };
  // Put plain cards everywhere first, so that only the placed cards are special.
  for (int i = 0; i < 60; ++i) place(i, kFour + i % 11);
  place(0, kRed3);    // first card dealt: to seat 0 (dealer 3, so seat 0 plays first)
  place(1, kRed3);    // to seat 1
  place(44, kJoker);  // the upcard is a joker ...
  place(45, kRed3);   // ... covered by a red three ...
  place(46, kSeven);  // ... covered by a seven
  place(47, kRed3);   // seat 0's replacement is a red three, replaced again
  State s;
  start_deal(s, rules, deck, n, 3, {});
  for (int seat = 0; seat < 4; ++seat) EXPECT_EQ(s.hand[seat].total(), 11) << seat;
  EXPECT_EQ(s.red3[0], 2);
  EXPECT_EQ(s.red3[1], 1);
  EXPECT_EQ(s.pile_size, 3);
  EXPECT_EQ(s.top(), kSeven);
  EXPECT_TRUE(s.pile_frozen);
  EXPECT_EQ(s.seat, 0);  // the dealer's left plays first
  EXPECT_EQ(s.stock_size(), n - 44 - 3 - 3);
  EXPECT_EQ(check_invariants(s), nullptr);
  // Seat 0 got deck[48] for its second red three, seat 1 got deck[49].
  EXPECT_GE(s.hand[0].count(deck[48]), 1);
  EXPECT_GE(s.hand[1].count(deck[49]), 1);
}

TEST(Deal, TwoPlayerRedThreesWaitForTheOwnersTurn) {
  Rules rules;
  std::string error;
  ASSERT_TRUE(parse_profile("two-player", rules, error));
  // One red three dealt first, then naturals, the special cards last. With
  // dealer 1 the first card goes to seat 0.
  Deck deck;
  int n = 0;
  for (int k = kFirstNatural; k <= kLastNatural; ++k)
    for (int c = 0; c < 8; ++c) deck[n++] = static_cast<uint8_t>(k);
  for (int k : {kJoker, kTwo, kRed3, kBlack3}) {
    const int copies = k == kJoker ? 4 : k == kTwo ? 8 : 4;
    for (int c = 0; c < copies; ++c) deck[n++] = static_cast<uint8_t>(k);
  }
  ASSERT_EQ(n, 108);
  std::swap(deck[1], deck[100]);  // a red three dealt second: to seat 1 (dealer 1, seat 0 first)
  ASSERT_EQ(deck[1], kRed3);
  State s;
  start_deal(s, rules, deck, n, 1, {});
  EXPECT_EQ(s.seat, 0);
  EXPECT_EQ(s.red3[1], 0);  // not yet: seat 1 keeps it until its turn
  EXPECT_EQ(s.hand[1].count(kRed3), 1);
  EXPECT_EQ(check_invariants(s), nullptr);
  apply(s, Action::make(ActionType::kDraw));
  apply(s, Action::make(ActionType::kDiscard, s.hand[0].count(kFour) ? kFour : kFive));
  EXPECT_EQ(s.seat, 1);
  EXPECT_EQ(s.red3[1], 1);  // exposed at the start of seat 1's turn ...
  EXPECT_EQ(s.hand[1].count(kRed3), 0);
  EXPECT_EQ(s.hand[1].total(), 15);  // ... and replaced
  EXPECT_EQ(check_invariants(s), nullptr);
  // Classic replaces at once, before the first turn, in turn order.
  State c;
  Rules classic;
  Deck d4 = deck;
  start_deal(c, classic, d4, n, 3, {});
  EXPECT_EQ(c.red3[1], 1);
  EXPECT_EQ(c.hand[1].count(kRed3), 0);
  EXPECT_EQ(c.hand[1].total(), 11);
}

// --- Section 3: a turn -----------------------------------------------------

TEST(Turn, DrawThenDiscardNotTheOtherWayRound) {
  State s = position("profile: classic\nseat: 0\nphase: draw\nhand0: 4 5 9\nmelds0: K: K K K\nstock: rest");
  EXPECT_FALSE(legal(s, "discard 4"));
  play(s, "draw");
  EXPECT_FALSE(legal(s, "draw"));
  EXPECT_TRUE(legal(s, "discard 4"));
  play(s, "discard 4");
  EXPECT_EQ(s.seat, 1);
  EXPECT_EQ(s.phase, Phase::kDraw);
}

TEST(Turn, RedThreeDrawnIsExposedAndReplaced) {
  State s = position("profile: classic\nseat: 0\nphase: draw\nhand0: 4 5 9\nstock: 3r 8 rest");
  play(s, "draw");
  EXPECT_EQ(s.red3[0], 1);
  EXPECT_EQ(s.hand[0].count(kEight), 1);
  EXPECT_EQ(s.hand[0].total(), 4);
}

TEST(Turn, WithoutCanastaAMeldMustLeaveTwoCards) {
  // 5 cards: melding K K K leaves 2 (discard one, keep one): legal; melding
  // K K K JK leaves 1, which is only allowed with a canasta.
  State s = meld_phase("JK 4 K K K", "A: A A A");
  EXPECT_TRUE(legal(s, "meld K: K K K"));
  EXPECT_FALSE(legal(s, "meld K: JK K K K"));
  // With a canasta, the same meld leaves one card to discard and go out.
  State t = meld_phase("JK 4 K K K", "A: A A A A A A A");
  EXPECT_TRUE(legal(t, "meld K: JK K K K"));
}

// --- Section 4: melds and canastas ------------------------------------------

TEST(Melds, ThreeOrMoreOfARankWithAtLeastTwoNaturals) {
  State s = meld_phase("JK 2 9 9 9 K K 4 5", "A: A A A");
  EXPECT_TRUE(legal(s, "meld 9: 9 9 9"));
  EXPECT_TRUE(legal(s, "meld K: K K JK"));
  EXPECT_FALSE(legal(s, "meld 4: 4 JK 2"));  // one natural only
  EXPECT_FALSE(legal(s, "meld K: K K"));     // two cards are no meld
}

TEST(Melds, AtMostThreeWildCards) {
  State s = meld_phase("JK JK 2 2 9 9 9 4 5", "A: A A A");
  EXPECT_TRUE(legal(s, "meld 9: JK JK 2 9 9 9"));
  EXPECT_FALSE(legal(s, "meld 9: JK JK 2 2 9 9 9"));
}

TEST(Melds, NineNineTwoTwoJokerClassicYesTwoPlayerNo) {
  State s = meld_phase("JK 2 2 9 9 4 5 6", "A: A A A");
  EXPECT_TRUE(legal(s, "meld 9: JK 2 2 9 9"));
  State t = position(
      "profile: two-player\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK 2 2 9 9 4 5 6\n"
      "melds0: A: A A A\nstock: rest");
  EXPECT_FALSE(legal(t, "meld 9: JK 2 2 9 9"));
  EXPECT_TRUE(legal(t, "meld 9: JK 2 9 9"));
}

TEST(Melds, OneMeldPerRankCardsJoinIt) {
  State s = meld_phase("K 4 5 6", "K: K K K");
  EXPECT_TRUE(legal(s, "meld K: K"));  // adds to the side's meld of kings
  play(s, "meld K: K");
  EXPECT_EQ(s.melds[0].naturals.count(kKing), 4);
}

TEST(Melds, NobodyAddsToTheOpponentsMelds) {
  State s = meld_phase("Q 4 5 6", "K: K K K", "melds1: Q: Q Q Q");
  EXPECT_FALSE(legal(s, "meld Q: Q"));
}

TEST(Melds, CanastaGrowsAndAWildMayJoinWithinTheLimit) {
  State s = meld_phase("K 2 4 5 6", "K: K K K K K K K");
  EXPECT_TRUE(legal(s, "meld K: K"));
  EXPECT_TRUE(legal(s, "meld K: 2"));  // settled point 12.4
  State full = meld_phase("2 4 5 6", "K: JK JK 2 K K K K");
  EXPECT_FALSE(legal(full, "meld K: 2"));
}

TEST(Melds, NoMeldOfWildCardsOnly) {
  State s = meld_phase("JK JK 2 4 5 6", "A: A A A");
  EXPECT_FALSE(legal(s, "meld 4: JK JK 2"));
  std::string error;
  Action a;
  EXPECT_FALSE(parse_action("meld JK: JK JK 2", a, error));
}

TEST(Melds, RedThreesNeverMeld) {
  std::string error;
  Action a;
  EXPECT_FALSE(parse_action("meld 3r: 3r 3r 3r", a, error));
}

TEST(Melds, BlackThreesOnlyWhenGoingOut) {
  // With a canasta the player can go out with the black threes: legal.
  State s = meld_phase("3b 3b 3b 4", "K: K K K K K K K");
  EXPECT_TRUE(legal(s, "meld 3b: 3b 3b 3b"));
  play(s, "meld 3b: 3b 3b 3b");
  EXPECT_TRUE(legal(s, "discard 4"));
  // Without a canasta nobody goes out, so black threes cannot be melded.
  State t = meld_phase("3b 3b 3b 4", "K: K K K K K K");
  EXPECT_FALSE(legal(t, "meld 3b: 3b 3b 3b"));
  // Nor with cards left over that cannot all be melded.
  State u = meld_phase("3b 3b 3b 4 9", "K: K K K K K K K");
  EXPECT_FALSE(legal(u, "meld 3b: 3b 3b 3b"));
}

// --- Section 5: the discard pile -------------------------------------------

State draw_phase(const std::string& hand, const std::string& pile, const std::string& melds,
                 const std::string& extra = "") {
  return position("profile: classic\nseat: 0\nphase: draw\nhand0: " + hand + "\npile: " + pile +
                  "\nmelds0: " + melds + "\n" + extra + "\nstock: rest");
}

TEST(Pile, WildOrBlackThreeOnTopBlocks) {
  EXPECT_EQ(legal_list(draw_phase("7 7 4 5", "7 2", "K: K K K")), "draw");
  EXPECT_EQ(legal_list(draw_phase("3b 3b 4 5", "7 3b", "K: K K K")), "draw");
}

TEST(Pile, BlackThreeBlocksOnlyWhileOnTop) {
  // A black three under the top does not freeze: one natural and a wild suffice.
  State s = draw_phase("7 JK 4 5", "3b 7", "K: K K K");
  EXPECT_TRUE(legal(s, "take 7: 7 JK"));
}

TEST(Pile, FrozenForAnUnopenedSideNeedsANaturalPair) {
  State s = draw_phase("7 JK 9 9 9 A A A", "8 7", "");
  EXPECT_FALSE(legal(s, "take 7: 7 JK"));
  State t = draw_phase("7 7 9 9 9 A A A", "8 7", "");
  EXPECT_TRUE(legal(t, "take 7: 7 7"));
}

TEST(Pile, AWildInThePileFreezesItEvenForAnExistingMeld) {
  State s = draw_phase("7 4 5", "JK 9 7", "7: 7 7 7");
  EXPECT_FALSE(legal(s, "take 7:"));
  State t = draw_phase("7 7 4 5", "JK 9 7", "7: 7 7 7");
  EXPECT_TRUE(legal(t, "take 7: 7 7"));
  play(t, "take 7: 7 7");
  EXPECT_EQ(t.melds[0].naturals.count(kSeven), 6);  // the three join the meld
  EXPECT_EQ(t.pile_size, 0);
  EXPECT_FALSE(t.pile_frozen);  // taking removes the freeze
  EXPECT_EQ(t.hand[0].count(kJoker), 1);
}

TEST(Pile, NotFrozenTopAddsToTheMeld) {
  State s = draw_phase("4 5", "9 7", "7: 7 7 7");
  EXPECT_TRUE(legal(s, "take 7:"));
  play(s, "take 7:");
  EXPECT_EQ(s.melds[0].naturals.count(kSeven), 4);
  EXPECT_EQ(s.hand[0].count(kNine), 1);
  EXPECT_EQ(s.known[0].count(kNine), 1);  // everybody saw the nine go to seat 0
}

TEST(Pile, RedThreeInsideIsExposedWithoutReplacement) {
  State s = draw_phase("7 7 4 5", "3r 9 7", "K: K K K");
  const int stock = s.stock_size();
  play(s, "take 7: 7 7");
  EXPECT_EQ(s.red3[0], 1);
  EXPECT_EQ(s.stock_size(), stock);
  EXPECT_EQ(s.hand[0].count(kRed3), 0);
}

TEST(Pile, OneCardHandMayNotTakeAOneCardPile) {
  EXPECT_FALSE(legal(draw_phase("4", "7", "7: 7 7 7 7 7 7 7"), "take 7:"));
  EXPECT_TRUE(legal(draw_phase("4", "9 7", "7: 7 7 7 7 7 7 7"), "take 7:"));
  // Two-player has no such house rule.
  State t = position(
      "profile: two-player\nseat: 0\nphase: draw\nhand0: 4\npile: 7\n"
      "melds0: 7: 7 7 7 7 7 7 7; 9: 9 9 9 9 9 9 9\nstock: rest");
  EXPECT_TRUE(legal(t, "take 7:"));
}

// --- Section 6: opening ----------------------------------------------------

TEST(Opening, MeldsMustReachTheMinimumTogether) {
  // 4 4 4 (15) cannot open alone and nothing else can be melded: refused.
  EXPECT_FALSE(legal(meld_phase("4 4 4 9 6"), "meld 4: 4 4 4"));
  // With K K K K (40) to follow, 15 + 40 = 55 >= 50: allowed, and the turn
  // cannot end before the kings are down.
  State s = meld_phase("4 4 4 K K K K 6 7");
  EXPECT_TRUE(legal(s, "meld 4: 4 4 4"));
  play(s, "meld 4: 4 4 4");
  EXPECT_FALSE(legal(s, "discard 6"));
  play(s, "meld K: K K K K");
  EXPECT_TRUE(legal(s, "discard 6"));
}

TEST(Opening, MinimumFollowsTheCumulativeScore) {
  EXPECT_FALSE(legal(meld_phase("4 4 4 9 6"), "meld 4: 4 4 4"));
  EXPECT_TRUE(legal(meld_phase("4 4 4 9 6", "", "scores: -10 0"), "meld 4: 4 4 4"));
  EXPECT_FALSE(legal(meld_phase("A A A 9 6", "", "scores: 1500 0"), "meld A: A A A"));
  EXPECT_TRUE(legal(meld_phase("A A A JK 9 6", "", "scores: 1500 0"), "meld A: JK A A A"));
}

TEST(Opening, ByThePileTheTopCountsButNotTheRest) {
  // Q Q + top Q = 30: 20 more must come from the hand, and the kings in the
  // pile do not count. Here the hand has nothing else to meld (A A needs a
  // wild card): the pile cannot be taken.
  EXPECT_FALSE(legal(draw_phase("Q Q A A 5 6", "K K K K Q", ""), "take Q: Q Q"));
  EXPECT_FALSE(legal(draw_phase("Q Q 4 5 6", "K K K K Q", ""), "take Q: Q Q"));
}

TEST(Opening, ByThePileWithEnoughFromTheHand) {
  State s = draw_phase("Q Q A A A 6", "K K K K Q", "");
  ASSERT_TRUE(legal(s, "take Q: Q Q"));
  play(s, "take Q: Q Q");
  EXPECT_TRUE(s.flags & kPilePending);
  play(s, "meld A: A A A");  // 30 + 60 = 90 >= 50: the rest of the pile joins the hand
  EXPECT_FALSE(s.flags & kPilePending);
  EXPECT_EQ(s.hand[0].count(kKing), 4);
  EXPECT_TRUE(legal(s, "discard 6"));
}

// --- Section 7: threes -----------------------------------------------------

TEST(Threes, RedThreesCountMinusWithoutAMeld) {
  State s = position("profile: classic\nphase: over\nred3: 1 0 1 0\nmelds1: 4: 4 4 4\nstock: rest");
  EXPECT_EQ(deal_score(s)[0].red_threes, -200);
  State t = position("profile: classic\nphase: over\nred3: 1 0 1 0\nmelds0: 4: 4 4 4\nstock: rest");
  EXPECT_EQ(deal_score(t)[0].red_threes, 200);
}

TEST(Threes, BlackThreeIsNeverMeldedWithWilds) {
  State s = meld_phase("3b 3b JK 4", "K: K K K K K K K");
  EXPECT_FALSE(legal(s, "meld 3b: 3b 3b JK"));
}

// --- Section 8: going out --------------------------------------------------

TEST(GoingOut, NeedsACanasta) {
  EXPECT_FALSE(legal(meld_phase("9", "K: K K K K K K", "melded_before: 0"), "discard 9"));
  EXPECT_TRUE(legal(meld_phase("9", "K: K K K K K K K", "melded_before: 0"), "discard 9"));
  // The canasta may be completed in the same turn.
  State s = meld_phase("K 9", "K: K K K K K K", "melded_before: 0");
  EXPECT_TRUE(legal(s, "meld K: K"));
  play(s, "meld K: K");
  EXPECT_TRUE(legal(s, "discard 9"));
  play(s, "discard 9");
  EXPECT_EQ(s.end, EndReason::kWentOut);
  EXPECT_FALSE(s.concealed);
}

TEST(GoingOut, AskingBindsTheAnswer) {
  State s = meld_phase("9 9 9 4", "K: K K K K K K K", "melded_before: 0");
  ASSERT_TRUE(legal(s, "ask"));
  State yes = s;
  play(yes, "ask");
  EXPECT_EQ(yes.actor(), 2);  // the partner answers
  play(yes, "yes");
  EXPECT_FALSE(legal(yes, "discard 4"));  // must go out: may not just end the turn
  play(yes, "meld 9: 9 9 9");
  play(yes, "discard 4");
  EXPECT_EQ(yes.end, EndReason::kWentOut);
}

TEST(GoingOut, AfterNoThePlayerMayNotGoOut) {
  State s = meld_phase("9 9 9 4", "K: K K K K K K K", "melded_before: 0");
  play(s, "ask");
  play(s, "no");
  // Melding the nines would leave one card, whose discard would go out.
  EXPECT_FALSE(legal(s, "meld 9: 9 9 9"));
  play(s, "discard 4");
  EXPECT_FALSE(s.over());
  EXPECT_EQ(s.seat, 1);
}

TEST(GoingOut, AskOnlyRightAfterDrawingAndOnlyWhenPossible) {
  State s = meld_phase("9 9 9 4 4 4 5", "K: K K K K K K K", "melded_before: 0");
  EXPECT_TRUE(legal(s, "ask"));
  play(s, "meld 9: 9 9 9");
  EXPECT_FALSE(legal(s, "ask"));  // going out is still possible, but something was melded
  // Going out impossible (no canasta): no asking.
  EXPECT_FALSE(legal(meld_phase("9 9 9 4", "K: K K K K K K", "melded_before: 0"), "ask"));
}

TEST(GoingOut, ConcealedFromTheStockNeedsNoMinimum) {
  // Unopened side, drew from the stock: seven fours (35 < 50) as a natural
  // canasta and a discard: concealed going out is allowed.
  State s = meld_phase("4 4 4 4 4 4 4 9");
  EXPECT_TRUE(legal(s, "meld 4: 4 4 4 4 4 4 4"));
  play(s, "meld 4: 4 4 4 4 4 4 4");
  play(s, "discard 9");
  EXPECT_EQ(s.end, EndReason::kWentOut);
  EXPECT_TRUE(s.concealed);
  // Without going out, the same meld would be an opening below the minimum.
  EXPECT_FALSE(legal(meld_phase("4 4 4 4 4 4 4 9 8"), "meld 4: 4 4 4 4 4 4 4"));
}

TEST(GoingOut, CanGoOutSeesTheOpeningMinimumAndThePile) {
  // Concealed from the stock: no minimum. Two cards that cannot be melded: no way out.
  State s = meld_phase("4 4 4 4 4 4 4 9");
  EXPECT_TRUE(can_go_out(s));
  EXPECT_TRUE(can_go_out(s, action("meld 4: 4 4 4 4 4 4 4")));
  EXPECT_FALSE(can_go_out(meld_phase("4 4 4 4 4 4 4 9 8")));
  // Opening by the pile: the kings of the pile join the hand once the
  // minimum is met (queens 30 and aces 60), and with the joker make a canasta.
  State p = draw_phase("Q Q A A A K K JK 4", "K K K K Q", "");
  play(p, "take Q: Q Q");
  ASSERT_TRUE(p.flags & kPilePending);
  EXPECT_TRUE(can_go_out(p));
  EXPECT_TRUE(can_go_out(p, action("meld A: A A A")));
  ASSERT_TRUE(legal(p, "meld A: JK A A A"));
  EXPECT_FALSE(can_go_out(p, action("meld A: JK A A A")));  // the joker is then missing from the kings
  EXPECT_FALSE(can_go_out(draw_phase("Q Q A A A K K JK 4", "K K K K Q", "")));  // not the meld phase
}

TEST(GoingOut, NotConcealedAfterMeldingInAnEarlierTurn) {
  State s = meld_phase("Q Q Q Q Q Q Q 9", "A: A A A", "melded_before: 0");
  expect_out(s, {"meld Q: Q Q Q Q Q Q Q", "discard 9"}, false, 100);
}

// --- Section 9: when the stock runs out ------------------------------------

TEST(StockOut, RedThreeAsLastCardEndsTheDeal) {
  State s = position(
      "profile: classic\nseat: 0\nphase: draw\nhand0: 4 5\nhand1: 6 7\nhand2: 8\nhand3: rest\n"
      "melds0: K: K K K K K K K\nstock: 3r");
  play(s, "draw");
  EXPECT_EQ(s.end, EndReason::kRedThreeLast);
  EXPECT_EQ(s.red3[0], 1);
  EXPECT_EQ(deal_score(s)[0].going_out, 0);
}

TEST(StockOut, MustTakeWhenTheTopAddsToAMeld) {
  State s = position(
      "profile: classic\nseat: 0\nphase: draw\nhand0: 4 5\npile: 9 K\n"
      "melds0: K: K K K\nhand1: rest\nstock:");
  EXPECT_EQ(legal_list(s), "take K:");
}

TEST(StockOut, MayTakeByANewMeldOrDecline) {
  State s = position(
      "profile: classic\nseat: 0\nphase: draw\nhand0: Q Q 5 6\npile: 9 Q\n"
      "melds0: K: K K K\nhand1: rest\nstock:");
  EXPECT_EQ(legal_list(s), "take Q: Q Q | pass");
  play(s, "pass");
  EXPECT_EQ(s.end, EndReason::kStockOut);
}

TEST(StockOut, PileThatCannotBeTakenEndsTheDeal) {
  // Seat 3 discards with an empty stock; seat 0 cannot take a blocked pile.
  State s = position(
      "profile: classic\nseat: 3\nphase: meld\nflags: drew_stock\nhand3: 2 9\nhand0: 4 5\n"
      "pile: 8\nmelds0: K: K K K\nmelds1: A: A A A\nhand2: rest\nstock:");
  play(s, "discard 2");
  EXPECT_EQ(s.end, EndReason::kStockOut);
  EXPECT_EQ(deal_score(s)[1].going_out, 0);
}

// --- Two-player profile ----------------------------------------------------

State two(const std::string& body) { return position("profile: two-player\n" + body + "\nstock: rest"); }

TEST(TwoPlayer, DealsFifteenAndDrawsTwo) {
  Rules rules;
  std::string error;
  ASSERT_TRUE(parse_profile("two-player", rules, error));
  Deck deck;
  Rng rng(5);
  const int n = shuffled_deck(rules, rng, deck);
  State s;
  start_deal(s, rules, deck, n, 0, {});
  for (int seat = 0; seat < 2; ++seat) EXPECT_EQ(s.hand[seat].total() + 0, 15);
  const int before = s.hand[s.seat].total();
  apply(s, Action::make(ActionType::kDraw));
  ASSERT_FALSE(s.over());
  EXPECT_EQ(s.hand[s.seat].total() - before, 2);  // red threes drawn are replaced
}

TEST(TwoPlayer, TwoCanastasToGoOut) {
  State s =
      two("seat: 0\nphase: meld\nflags: drew_stock\nhand0: 9\nmelds0: K: K K K K K K K; A: A A A\n"
          "melded_before: 0");
  EXPECT_FALSE(legal(s, "discard 9"));
  State t =
      two("seat: 0\nphase: meld\nflags: drew_stock\nhand0: 9\n"
          "melds0: K: K K K K K K K; A: A A A A A A A\nmelded_before: 0");
  EXPECT_TRUE(legal(t, "discard 9"));
}

TEST(TwoPlayer, NeverMoreWildsThanNaturals) {
  State s = two("seat: 0\nphase: meld\nflags: drew_stock\nhand0: 2 2 4 5 6\nmelds0: K: JK K K\n");
  EXPECT_TRUE(legal(s, "meld K: 2"));     // 2 naturals, 2 wilds: equal is allowed
  EXPECT_FALSE(legal(s, "meld K: 2 2"));  // 3 wilds against 2 naturals
}

TEST(TwoPlayer, NoAskingWithoutAPartner) {
  State s =
      two("seat: 0\nphase: meld\nflags: drew_stock\nhand0: 9 9 9 4\n"
          "melds0: K: K K K K K K K; A: A A A A A A A\nmelded_before: 0");
  EXPECT_FALSE(legal(s, "ask"));
  EXPECT_TRUE(legal(s, "meld 9: 9 9 9"));
}

TEST(TwoPlayer, DealEndsAfterTheTurnThatLeavesFewerThanTwoCards) {
  State s = position(
      "profile: two-player\nseat: 0\nphase: draw\nhand0: 4 5 6\nhand1: 7 8 rest\n"
      "melds0: K: K K K\nmelds1: A: A A A\nstock: 9 10 J");
  play(s, "draw");  // two of three: one card left
  EXPECT_FALSE(s.over());
  play(s, "discard 4");
  EXPECT_EQ(s.end, EndReason::kStockOut);
}

}  // namespace
}  // namespace canasta::test
