// The spanish profiles (core/doc/rules.md sections 13, 15 and 16):
// one scenario per rule, a case that must pass and one that must be refused,
// per table size where it differs; the worked examples of the rules page.
#include <gtest/gtest.h>

#include "canasta/game.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// A spanish position; the cards not placed go to the stock, unless a hand
// takes them ("rest").
State es(const std::string& body, const std::string& profile = "spanish") {
  const bool stock = body.find("stock:") != std::string::npos, rest = body.find("rest") != std::string::npos;
  return position("profile: " + profile + "\n" + body + (stock ? "" : rest ? "\nstock:" : "\nstock: rest"));
}

// A meld-phase position of seat 0 after a draw, its side already opened.
State meld_turn(const std::string& hand, const std::string& melds, const std::string& profile = "spanish") {
  return es(
      "seat: 0\nphase: meld\nflags: drew_stock\nhand0: " + hand + "\nmelds0: " + melds + "\nmelded_before: 0",
      profile);
}

// --- Tables ------------------------------------------------------------------

struct Table {
  const char* profile;
  int players, teams, cards, hand, draw, canastas, partner_of_0;
};

TEST(Spanish, EveryTableDealsAndSeats) {
  for (const Table& t :
       {Table{"spanish", 4, 2, 108, 11, 1, 1, 2}, Table{"spanish-2p", 2, 2, 108, 15, 2, 2, -1},
        Table{"spanish-3p", 3, 3, 108, 13, 2, 1, -1}, Table{"spanish-6p", 6, 2, 108, 11, 1, 1, 2},
        Table{"spanish-6p3", 6, 3, 162, 13, 1, 1, 3}}) {
    SCOPED_TRACE(t.profile);
    const Rules r = rules_of(t.profile);
    EXPECT_EQ(r.players, t.players);
    EXPECT_EQ(r.teams, t.teams);
    EXPECT_EQ(r.deck_cards(), t.cards);
    EXPECT_EQ(r.draw_count, t.draw);
    EXPECT_EQ(r.canastas_to_go_out, t.canastas);
    EXPECT_EQ(r.ask_partner, t.partner_of_0 >= 0);
    if (t.partner_of_0 >= 0) {
      EXPECT_EQ(r.partner_of(0), t.partner_of_0);
    }
    // Sides alternate round the table.
    for (int seat = 0; seat < r.players; ++seat) EXPECT_EQ(r.team_of(seat), seat % t.teams);
    State s;
    start_single_deal(s, r, 9, 0);
    int held = 0;
    for (int seat = 0; seat < r.players; ++seat)
      held += s.hand[seat].total() + (seat == s.seat ? 0 : s.red3[seat]);
    // Red threes dealt are exposed at once; all but the first player's are replaced at the owner's turn.
    EXPECT_EQ(held, t.players * t.hand);
    EXPECT_EQ(s.deck_size, t.cards);
  }
}

// Two players need two canastas to go out; three play each for themselves
// (no partner to ask).
TEST(Spanish, TwoPlayersNeedTwoCanastasThreeNeverAsk) {
  const std::string one = "K: K K K K K K K; A: A A A";
  const std::string two = "K: K K K K K K K; A: A A A A A A A";
  EXPECT_FALSE(legal(meld_turn("9", one, "spanish-2p"), "discard 9"));
  EXPECT_TRUE(legal(meld_turn("9", two, "spanish-2p"), "discard 9"));
  EXPECT_TRUE(legal(meld_turn("9", one, "spanish"), "discard 9"));
  State three = meld_turn("9 9 9 4", one, "spanish-3p");
  EXPECT_FALSE(legal(three, "ask"));
  EXPECT_TRUE(legal(three, "meld 9: 9 9 9"));
  State four = meld_turn("9 9 9 4", one, "spanish");
  EXPECT_TRUE(legal(four, "ask"));
}

// Six players in two teams of three: the player asks the next player of the
// side (seat + 2), never an opponent.
TEST(Spanish, SixInTwoTeamsAsksTheNextPartner) {
  State s = es(
      "seat: 1\nphase: meld\nflags: drew_stock\nhand1: 9 9 9 4\nmelds1: K: K K K K K K K\nmelded_before: 1",
      "spanish-6p");
  ASSERT_TRUE(legal(s, "ask"));
  play(s, "ask");
  EXPECT_EQ(s.actor(), 3);
}

// Dealt red threes are exposed at once (they score even if the owner never
// plays) and replaced at the start of the owner's first turn.
TEST(Spanish, DealtRedThreesAtTheOwnersFirstTurn) {
  const Rules r = rules_of("spanish");
  for (int64_t k = 0; k < 200; ++k) {
    State s;
    start_single_deal(s, r, 3, k);
    const int first = s.seat;
    int later = -1;
    for (int i = 1; i < r.players && later < 0; ++i)
      if (s.red3[(first + i) % r.players]) later = (first + i) % r.players;
    if (later < 0) continue;
    EXPECT_EQ(s.hand[later].count(kRed3), 0);
    const int reds = s.red3[later], cards = s.hand[later].total();
    EXPECT_LT(deal_score(s)[r.team_of(later)].red_threes, 0);  // exposed, and the side has not melded
    // The replacements owed survive a position's text.
    State back = position(position_to_string(s));
    EXPECT_EQ(back.red3_pending, s.red3_pending);
    EXPECT_NE(position_to_string(s).find("red3_owed"), std::string::npos);
    ActionList list;
    while (!s.over() && s.seat != later) {
      legal_actions(s, list);
      apply(s, list[list.size() - 1]);  // discard the highest kind, fast
    }
    if (s.over()) continue;
    EXPECT_GE(s.red3[later], reds);
    EXPECT_EQ(s.red3_pending >> later & 1U, 0U);
    EXPECT_EQ(s.hand[later].total(), cards + reds);  // each replaced from the stock
    return;
  }
  FAIL() << "no deal with red threes dealt to a later seat";
}

// --- Melds -------------------------------------------------------------------

TEST(Spanish, WildCardsNeverOutnumberNaturals) {
  State s = meld_turn("JK JK 2 2 9 9 4 5", "K: K K K");
  EXPECT_TRUE(legal(s, "meld 9: 9 9 JK"));
  EXPECT_TRUE(legal(s, "meld 9: 9 9 JK 2"));    // 2 naturals, 2 wild cards
  EXPECT_FALSE(legal(s, "meld K: JK JK 2 2"));  // four wild cards
  State t = meld_turn("JK 2 2 4 5 6", "K: K K JK");
  EXPECT_TRUE(legal(t, "meld K: 2"));
  EXPECT_FALSE(legal(t, "meld K: 2 2"));  // three wild cards against two naturals
}

TEST(Spanish, WildMeldsGrowToTheWildCanasta) {
  State s = meld_turn("JK JK 2 4 5 6", "K: K K K");
  EXPECT_TRUE(legal(s, "meld wild: JK JK 2"));
  EXPECT_FALSE(legal(s, "meld wild: JK 2"));  // three cards at least
  State six = meld_turn("JK 2 4 5", "K: K K K; wild: JK JK JK 2 2 2");
  EXPECT_TRUE(legal(six, "meld wild: 2"));
  EXPECT_FALSE(legal(six, "meld wild: JK 2"));  // eight wild cards: seven at most
  play(six, "meld wild: 2");
  EXPECT_TRUE(six.melds[0].wild_canasta());
  EXPECT_EQ(six.melds[0].canastas(), 1);
  // No meld of wild cards in a profile without them.
  State classic = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: JK JK 2 4 5 6\nmelds0: K: K K K\n"
      "melded_before: 0\nstock: rest");
  EXPECT_FALSE(legal(classic, "meld wild: JK JK 2"));
}

TEST(Spanish, NaturalsNeverJoinAWildMeld) {
  std::string error;
  Action a;
  EXPECT_FALSE(parse_action("meld wild: JK 2 K", a, error));
  State s = meld_turn("K K 4 5", "wild: JK JK 2");
  EXPECT_EQ(legal_list(s).find("meld wild"), std::string::npos);
}

// A wild meld is a side's meld: it opens the side, it is a canasta at seven,
// and the wild canasta lets a player go out.
TEST(Spanish, TheWildCanastaLetsAPlayerGoOut) {
  State s = meld_turn("9", "wild: JK JK JK JK 2 2 2");
  EXPECT_TRUE(legal(s, "discard 9"));
  State t = meld_turn("9", "wild: JK JK JK JK 2 2");
  EXPECT_FALSE(legal(t, "discard 9"));
}

TEST(Spanish, ANaturalCanastaTakesOneEighthNatural) {
  State s = meld_turn("K K 2 4 5", "K: K K K K K K K", "spanish-6p3");
  EXPECT_TRUE(legal(s, "meld K: K"));
  EXPECT_FALSE(legal(s, "meld K: K K"));  // a ninth: closed
  EXPECT_FALSE(legal(s, "meld K: 2"));    // no wild card on a closed canasta
  play(s, "meld K: K");
  EXPECT_FALSE(legal(s, "meld K: K"));
  EXPECT_EQ(s.melds[0].natural_canastas(), 1);
}

TEST(Spanish, AMixedCanastaIsClosed) {
  State s = meld_turn("K 2 4 5 6", "K: K K K K K JK 2");
  EXPECT_FALSE(legal(s, "meld K: K"));
  EXPECT_FALSE(legal(s, "meld K: 2"));
  // Below seven a meld grows to seven, no further.
  State t = meld_turn("K K 4 5 6", "K: K K K K K JK");
  EXPECT_TRUE(legal(t, "meld K: K"));
  EXPECT_FALSE(legal(t, "meld K: K K"));
  // In classic a canasta keeps growing.
  State classic = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: K 2 4 5 6\n"
      "melds0: K: K K K K K JK 2\nmelded_before: 0\nstock: rest");
  EXPECT_TRUE(legal(classic, "meld K: K"));
  EXPECT_TRUE(legal(classic, "meld K: 2"));
}

// Decision (core/doc/rules.md): a side keeps one meld per rank, so no second
// meld of a rank is started once its canasta is closed.
TEST(Spanish, NoSecondMeldOfAClosedRank) {
  State s = meld_turn("K K K 4 5", "K: K K K K K JK 2");
  EXPECT_FALSE(legal(s, "meld K: K K K"));
  EXPECT_EQ(legal_list(s).find("meld K"), std::string::npos);
}

TEST(Spanish, CleaningAMixedCanasta) {
  State s = meld_turn("K Q Q 4 5", "K: K K K K K JK 2; A: A A A");
  EXPECT_TRUE(legal(s, "clean K: 2 > Q Q"));  // with a natural pair from the hand
  EXPECT_TRUE(legal(s, "clean K: JK > A"));   // onto a meld with room for a wild card
  EXPECT_TRUE(legal(s, "clean K: 2 > A"));
  EXPECT_FALSE(legal(s, "clean K: JK > 4 4"));  // no pair of fours in hand
  play(s, "clean K: 2 > Q Q");
  EXPECT_EQ(s.melds[0].naturals.count(kKing), 6);
  EXPECT_EQ(s.melds[0].wilds(kKing), 1);
  EXPECT_EQ(s.melds[0].cards(kQueen).total(), 3);
  EXPECT_EQ(s.hand[0].total(), 2);
}

TEST(Spanish, CleaningNeedsACanastaAndRoomForTheWild) {
  // Below seven: wild cards never leave a meld.
  State s = meld_turn("K Q Q 4 5", "K: K K K K JK");
  EXPECT_FALSE(legal(s, "clean K: JK > Q Q"));
  // The freed wild card must fit where it goes: never more wild cards than
  // naturals, at most three.
  State t = meld_turn("K 4 5 6", "K: K K K K K JK 2; Q: Q Q JK 2; A: A A A 2 2 2");
  EXPECT_FALSE(legal(t, "clean K: JK > Q"));
  EXPECT_FALSE(legal(t, "clean K: JK > A"));
  // ... and never back into the hand: there is no such action, nor a
  // cleaning in a profile without closed canastas.
  State classic = position(
      "profile: classic\nseat: 0\nphase: meld\nflags: drew_stock\nhand0: K Q Q 4\n"
      "melds0: K: K K K K K JK 2\nmelded_before: 0\nstock: rest");
  EXPECT_FALSE(legal(classic, "clean K: 2 > Q Q"));
}

TEST(Spanish, TheLastWildGoneTheCanastaIsNatural) {
  State s = meld_turn("K K K 4 5 6", "K: K K K K K 2; wild: JK JK 2");
  ASSERT_TRUE(legal(s, "meld K: K"));
  play(s, "meld K: K");  // seven: a mixed canasta
  EXPECT_EQ(deal_score(s)[0].canastas, 300);
  play(s, "clean K: 2 > wild");
  EXPECT_EQ(s.melds[0].wilds(kKing), 0);
  EXPECT_EQ(deal_score(s)[0].canastas, 500);
  EXPECT_TRUE(legal(s, "meld K: K"));  // now natural: an eighth natural may join
}

// --- The pile ----------------------------------------------------------------

TEST(Spanish, FrozenUntilTakenOnce) {
  const std::string body =
      "seat: 0\nphase: draw\nhand0: 9 9 JK 4 5 6\nmelds0: K: K K K\nmelds1: 8: 8 8 8\npile: 7 4 9\n";
  State s = es(body + "pile_taken: no");
  EXPECT_TRUE(legal(s, "take 9: 9 9"));
  EXPECT_FALSE(legal(s, "take 9: 9 JK"));
  State t = es(body + "pile_taken: yes");
  EXPECT_TRUE(legal(t, "take 9: 9 JK"));
  play(t, "take 9: 9 9");
  EXPECT_FALSE(t.pile_frozen);
}

TEST(Spanish, APremiadoPileStaysFrozen) {
  State s =
      es("seat: 0\nphase: draw\nhand0: 9 9 JK 4 5 6\nmelds0: K: K K K; 9: 9 9 9\npile: 7 2 4 9\npile_taken: "
         "yes");
  EXPECT_FALSE(legal(s, "take 9:"));  // frozen: two naturals needed, even with a meld of nines
  EXPECT_TRUE(legal(s, "take 9: 9 9"));
  EXPECT_FALSE(legal(s, "take 9: 9 JK"));
}

TEST(Spanish, AWildOnTopBlocksAndFreezes) {
  State s = meld_turn("JK 4 5 6", "K: K K K");
  play(s, "discard JK");
  EXPECT_TRUE(s.pile_frozen);
  EXPECT_EQ(legal_list(s), "draw");  // the next player may not take it
}

TEST(Spanish, ABlackThreeBlocksForOneTurn) {
  State s = es("seat: 1\nphase: draw\nhand1: 9 9 4 5\nmelds1: K: K K K\npile: 9 3b\npile_taken: yes");
  EXPECT_EQ(legal_list(s), "draw");
  State t = es("seat: 1\nphase: draw\nhand1: 9 9 4 5\nmelds1: K: K K K\npile: 3b 9\npile_taken: yes");
  EXPECT_TRUE(legal(t, "take 9: 9 9"));
}

TEST(Spanish, EveryTakeIsCompulsoryWithoutStock) {
  const std::string body =
      "seat: 0\nphase: draw\nhand0: 9 9 4\nmelds0: K: K K K\nmelds1: 8: 8 8 8\npile: 7 9\nhand1: "
      "rest\nstock:";
  State s = es(body + "\npile_taken: yes");
  EXPECT_EQ(legal_list(s), "take 9: 9 9");  // no pass
  State classic = position("profile: classic\n" + body);
  EXPECT_TRUE(legal(classic, "pass"));
}

// --- Black threes ------------------------------------------------------------

TEST(Spanish, BlackThreesOnlyToGoOutNeverWithWilds) {
  State s = meld_turn("3b 3b 3b 3b 4", "K: K K K K K K K");
  EXPECT_TRUE(legal(s, "meld 3b: 3b 3b 3b 3b"));  // then the 4 is discarded to go out
  State t = meld_turn("3b 3b 3b 3b 4 5 6", "K: K K K");
  EXPECT_FALSE(legal(t, "meld 3b: 3b 3b 3b"));  // no canasta: cannot go out
  State u = meld_turn("3b 3b 3b JK", "K: K K K K K K K");
  EXPECT_FALSE(legal(u, "meld 3b: 3b 3b 3b JK"));
  EXPECT_TRUE(legal(u, "meld 3b: 3b 3b 3b"));
}

// --- Worked examples (core/doc/rules.md, spanish) ---------------------------

// Side 0's score once seat `seat` (who holds `hand`, its side showing
// `melds0`, the other side `melds1`) plays `last` and goes out; the rest of
// the cards are in seat 3's hand, which is side 1's.
DealScore went_out_score(int seat, const std::string& hand, const std::string& melds0,
                         const std::string& melds1, const std::string& last) {
  std::string empty;  // the other hands of seats 0 to 2 hold nothing
  for (int other = 0; other < 3; ++other)
    if (other != seat) empty += "\nhand" + std::to_string(other) + ":";
  State s = es("seat: " + std::to_string(seat) + "\nphase: meld\nflags: drew_stock\nhand" +
               std::to_string(seat) + ": " + hand + "\nmelds0: " + melds0 + "\nmelds1: " + melds1 +
               "\nmelded_before: 0 1 2 3" + empty + "\nhand3: rest");
  play(s, last);
  EXPECT_EQ(s.end, EndReason::kWentOut);
  EXPECT_FALSE(s.concealed);
  return deal_score(s)[0];
}

// A side whose only meld is a wild canasta of four jokers and three twos, no
// red threes, nothing left in its hands, the opponents went out: 2260.
TEST(SpanishExamples, WildCanasta2260) {
  const DealScore d = went_out_score(1, "9", "wild: JK JK JK JK 2 2 2", "Q: Q Q Q Q Q Q Q", "discard 9");
  EXPECT_EQ(d.melded, 260);
  EXPECT_EQ(d.canastas, 2000);
  EXPECT_EQ(d.total(), 2260);
}

// Going out (not concealed) melding four black threes, with a natural canasta
// of seven queens and nothing else: 500 + 70 + 500 + 100 = 1170.
TEST(SpanishExamples, FourBlackThrees1170) {
  const DealScore d = went_out_score(0, "3b 3b 3b 3b", "Q: Q Q Q Q Q Q Q", "", "meld 3b: 3b 3b 3b 3b");
  EXPECT_EQ(d.melded, 570);
  EXPECT_EQ(d.going_out, 100);
  EXPECT_EQ(d.total(), 1170);
}

// Natural canastas of fours, fives, sixes, sevens and eights, going out:
// 4 x 35 + 70 + 5 x 500 + 500 (canastrón) + 100 = 3310.
TEST(SpanishExamples, Canastron3310) {
  const DealScore d = went_out_score(
      0, "9", "4: 4 4 4 4 4 4 4; 5: 5 5 5 5 5 5 5; 6: 6 6 6 6 6 6 6; 7: 7 7 7 7 7 7 7; 8: 8 8 8 8 8 8 8", "",
      "discard 9");
  EXPECT_EQ(d.premiums, 500);
  EXPECT_EQ(d.total(), 3310);
}

// Four black threes left in a hand: -500 for the side, not -20.
TEST(SpanishExamples, FourBlackThreesHeldMinus500) {
  State s = es("seat: 1\nphase: over\nhand0: 3b 3b 3b 3b\nhand2:\nhand1: rest");
  EXPECT_EQ(deal_score(s)[0].in_hand, -500);
  State classic =
      position("profile: classic\nseat: 1\nphase: over\nhand0: 3b 3b 3b 3b\nhand2:\nhand1: rest\nstock:");
  EXPECT_EQ(deal_score(classic)[0].in_hand, -20);
}

// Seven canastas score the canastrón's 500 and the canasta de canastas'
// 2000: every premium adds up (seed 000 section 9; rules page, spanish
// settled point 3). A side goes out (not concealed) with seven natural
// canastas, fours to tens: 4 x 35 + 3 x 70 + 7 x 500 + 500 + 2000 + 100 = 6450.
TEST(SpanishExamples, SevenCanastas6450) {
  const DealScore d = went_out_score(
      0, "J",
      "4: 4 4 4 4 4 4 4; 5: 5 5 5 5 5 5 5; 6: 6 6 6 6 6 6 6; 7: 7 7 7 7 7 7 7; 8: 8 8 8 8 8 8 8; "
      "9: 9 9 9 9 9 9 9; 10: 10 10 10 10 10 10 10",
      "", "discard J");
  EXPECT_EQ(d.melded, 350);
  EXPECT_EQ(d.canastas, 3500);
  EXPECT_EQ(d.premiums, 2500);  // 500 (five canastas) + 2000 (seven)
  EXPECT_EQ(d.going_out, 100);
  EXPECT_EQ(d.total(), 6450);
  // Six canastas: the canastrón alone.
  State six =
      es("seat: 1\nphase: over\n"
         "melds0: 4: 4 4 4 4 4 4 4; 5: 5 5 5 5 5 5 5; 6: 6 6 6 6 6 6 6; 7: 7 7 7 7 7 7 7; 8: 8 8 8 8 8 8 8; "
         "9: 9 9 9 9 9 9 9\nhand0:\nhand2:\nhand1: rest");
  EXPECT_EQ(deal_score(six)[0].premiums, 500);
  // Eight, the wild canasta among them: still 2500.
  State eight =
      es("seat: 1\nphase: over\n"
         "melds0: wild: JK JK JK JK 2 2 2; 4: 4 4 4 4 4 4 4; 5: 5 5 5 5 5 5 5; 6: 6 6 6 6 6 6 6; "
         "7: 7 7 7 7 7 7 7; 8: 8 8 8 8 8 8 8; 9: 9 9 9 9 9 9 9; 10: 10 10 10 10 10 10 "
         "10\nhand0:\nhand2:\nhand1: rest");
  EXPECT_EQ(deal_score(eight)[0].premiums, 2500);
}

// Red threes: 100 each, 200 each from four (three decks: five 1000, six 1200);
// plus when the side has melded, or (option) only with a canasta.
TEST(SpanishExamples, RedThrees) {
  State s = es("seat: 1\nphase: over\nred3: 3 0 0 3 0 0\nmelds0: K: K K K\nhand0:\nhand3:\nhand1: rest",
               "spanish-6p3");
  EXPECT_EQ(deal_score(s)[0].red_threes, 1200);
  State five = es("seat: 1\nphase: over\nred3: 3 0 0 2 0 0\nmelds0: K: K K K\nhand0:\nhand3:\nhand1: rest",
                  "spanish-6p3");
  EXPECT_EQ(deal_score(five)[0].red_threes, 1000);
  State opt = es("seat: 1\nphase: over\nred3: 1 0 0 0\nmelds0: K: K K K\nhand0:\nhand2:\nhand1: rest",
                 "spanish,red3_canasta=true");
  EXPECT_EQ(deal_score(opt)[0].red_threes, -100);  // melded, but no canasta
  State plain = es("seat: 1\nphase: over\nred3: 1 0 0 0\nmelds0: K: K K K\nhand0:\nhand2:\nhand1: rest");
  EXPECT_EQ(deal_score(plain)[0].red_threes, 100);
}

// Concealed going out: 1000 in the first turn alone, 500 leaning on the
// partner's melds; later 500 alone, 200 leaning.
TEST(SpanishExamples, ConcealedLevels) {
  struct Case {
    int turns;
    const char* melds;
    const char* action;
    int bonus;
  };
  for (const Case& c :
       {Case{2, "", "meld Q: Q Q Q Q Q Q Q", 1000}, Case{2, "A: A A A", "meld Q: Q Q Q Q Q Q Q", 1000},
        Case{9, "", "meld Q: Q Q Q Q Q Q Q", 500}}) {
    SCOPED_TRACE(c.bonus);
    State s = es(std::string("seat: 0\nphase: meld\nflags: drew_stock\nturns: ") + std::to_string(c.turns) +
                 "\nhand0: Q Q Q Q Q Q Q\nmelds0: " + c.melds + "\nmelded_before: 2\nhand2:\nhand1: rest");
    play(s, c.action);
    ASSERT_EQ(s.end, EndReason::kWentOut);
    EXPECT_TRUE(s.concealed);
    EXPECT_EQ(deal_score(s)[0].going_out, c.bonus);
  }
  for (int turns : {2, 9}) {
    State s = es("seat: 0\nphase: meld\nflags: drew_stock\nturns: " + std::to_string(turns) +
                 "\nhand0: Q Q Q Q Q Q Q A\nmelds0: A: A A A\nmelded_before: 2\nhand2:\nhand1: rest");
    play(s, "meld A: A");  // leaning on the partner's aces
    play(s, "meld Q: Q Q Q Q Q Q Q");
    ASSERT_EQ(s.end, EndReason::kWentOut);
    EXPECT_TRUE(s.concealed);
    EXPECT_EQ(deal_score(s)[0].going_out, turns == 2 ? 500 : 200);
  }
}

// Concealed going out needs one canasta made from the hand in that turn, also
// where the side needs two to go out (spanish,canastas=2): the other may be
// the partner's, already on the table (rules page, spanish settled point 4).
// Seat 0 has melded nothing; its partner (seat 2) has a canasta of kings and
// three aces. Seat 0 melds seven queens from the hand and discards the nine:
// alone 1000 in its first turn, 500 later; adding an ace to the partner's
// aces (leaning) 500 and 200. A side whose second canasta is the partner's,
// completed by this turn's king, made none from the hand: not concealed.
TEST(SpanishExamples, ConcealedLeaningOnThePartnersCanasta) {
  for (int turns : {2, 9})
    for (bool lean : {false, true}) {
      SCOPED_TRACE(testing::Message() << "turns " << turns << (lean ? ", leaning" : ", alone"));
      State s = es("seat: 0\nphase: meld\nflags: drew_stock\nturns: " + std::to_string(turns) +
                       "\nhand0: Q Q Q Q Q Q Q 9" + (lean ? " A" : "") +
                       "\nmelds0: K: K K K K K K K; A: A A A\nmelded_before: 2\nhand2:\nhand1: rest",
                   "spanish,canastas=2");
      if (lean) play(s, "meld A: A");
      expect_out(s, {"meld Q: Q Q Q Q Q Q Q", "discard 9"}, true,
                 turns == 2 ? (lean ? 500 : 1000) : (lean ? 200 : 500));
    }
  State s =
      es("seat: 0\nphase: meld\nflags: drew_stock\nturns: 9\nhand0: K 9 9 9 J\nmelds0: K: K K K K K K; A: A "
         "A A A A A "
         "A\nmelded_before: 2\nhand2:\nhand1: rest",
         "spanish,canastas=2");
  expect_out(s, {"meld K: K", "meld 9: 9 9 9", "discard J"}, false, 100);
}

// The same reading where no premiums apply: in classic with two canastas to
// go out, a concealed going out with one canasta from the hand, the other
// the partner's, scores 200.
TEST(SpanishExamples, ConcealedWithOneCanastaOfTwoInClassic) {
  State s = position(
      "profile: classic,canastas=2\nseat: 0\nphase: meld\nflags: drew_stock\nturns: 9\n"
      "hand0: Q Q Q Q Q Q Q 9\nmelds0: K: K K K K K K K\nmelded_before: 2\nhand2:\nhand1: rest\nstock:");
  expect_out(s, {"meld Q: Q Q Q Q Q Q Q", "discard 9"}, true, 200);
}

// The game: a side over 5000 with the larger total wins; equal totals over
// the target are a draw.
TEST(Spanish, GameEndsInADrawOnEqualTotals) {
  Game g = new_game(rules_of("spanish"), 1);
  g.totals = {4900, 4900, 0};
  State s =
      es("seat: 1\nphase: over\nmelds0: K: K K K K K K K\nmelds1: Q: Q Q Q Q Q Q "
         "Q\nhand0:\nhand1:\nhand2:\nhand3:");
  finish_deal(g, s);
  EXPECT_EQ(g.end, GameEnd::kDrawn);
  Game h = new_game(rules_of("spanish-3p"), 1);
  h.totals = {4900, 4000, 4950};
  finish_deal(h, s);
  EXPECT_EQ(h.end, GameEnd::kWon);
  EXPECT_EQ(h.winner, 0);
}

}  // namespace
}  // namespace canasta::test
