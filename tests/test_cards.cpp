// Card sets, notation and profiles.
#include <gtest/gtest.h>

#include "canasta/notation.h"
#include "canasta/position.h"
#include "canasta/profile.h"
#include "canasta/rules.h"
#include "helpers.h"

namespace canasta::test {
namespace {

TEST(CardSet, CountsTotalsAndValues) {
  CardSet s;
  s.add(kJoker);
  s.add(kTwo, 2);
  s.add(kAce, 3);
  s.add(kBlack3);
  s.add(kSeven, 12);
  EXPECT_EQ(s.count(kSeven), 12);
  EXPECT_EQ(s.total(), 19);
  EXPECT_EQ(s.value(), 50 + 40 + 60 + 5 + 60);
  EXPECT_EQ(s.kinds(), (1 << kJoker) | (1 << kTwo) | (1 << kAce) | (1 << kBlack3) | (1 << kSeven));
  CardSet t;
  t.add(kAce);
  EXPECT_TRUE(s.contains(t));
  EXPECT_EQ((s - t).count(kAce), 2);
  EXPECT_EQ((s - t + t), s);
  EXPECT_FALSE(t.contains(s));
}

// kinds() gathers one bit per counter, and none_bits(), single_bits(),
// two_bits() and pair_bits() set bit 4k: checked against a plain loop over pseudo-random
// sets with every counter value.
TEST(CardSet, KindsAgreesWithTheCounters) {
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 100000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const CardSet c(x & ((uint64_t{1} << (4 * kKindNb)) - 1) & (i % 3 ? x >> 3 : ~uint64_t{0}));
    uint16_t want = 0;
    for (int k = 0; k < kKindNb; ++k) want |= static_cast<uint16_t>((c.count(k) > 0 ? 1U : 0U) << k);
    ASSERT_EQ(c.kinds(), want) << c.raw();
    for (int k = 0; k < kKindNb; ++k) {
      ASSERT_EQ(c.none_bits() >> (4 * k) & 15U, c.count(k) == 0 ? 1U : 0U) << c.raw();
      ASSERT_EQ(c.single_bits() >> (4 * k) & 15U, c.count(k) == 1 ? 1U : 0U) << c.raw();
      ASSERT_EQ(c.two_bits() >> (4 * k) & 15U, c.count(k) == 2 ? 1U : 0U) << c.raw();
      ASSERT_EQ(c.pair_bits() >> (4 * k) & 15U, c.count(k) >= 2 ? 1U : 0U) << c.raw();
    }
  }
}

TEST(CardSet, FullCountersDoNotSpill) {
  CardSet s;
  for (int k = 0; k < kKindNb; ++k) s.add(k, 15);
  EXPECT_EQ(s.total(), 225);
  for (int k = 0; k < kKindNb; ++k) EXPECT_EQ(s.count(k), 15);
}

// Pseudo-random melds (xorshift): every natural counter from 0 to 15, the
// wild counters within `wild_mask` (nibble by nibble), each often none.
class RandomMelds {
 public:
  explicit RandomMelds(uint64_t seed) : x_(seed) {}
  uint64_t next() {
    x_ ^= x_ << 13;
    x_ ^= x_ >> 7;
    x_ ^= x_ << 17;
    return x_;
  }
  CardSet cards() { return CardSet(next() & kKinds); }
  TeamMelds melds(int i, uint64_t wild_mask) {
    TeamMelds m;
    m.naturals = cards();
    m.jokers = CardSet(next() & kKinds & wild_mask & (i % 2 ? next() : 0));
    m.twos = CardSet(next() & kKinds & wild_mask & (i % 3 ? next() : 0));
    return m;
  }

 private:
  static constexpr uint64_t kKinds = (uint64_t{1} << (4 * kKindNb)) - 1;
  uint64_t x_;
};

// A side's canasta counts (word-parallel in the engine) checked against the
// definition over pseudo-random melds: every rank's size from 0 to 15
// naturals, with none, some or many wild cards (up to 7 of each kind).
TEST(TeamMelds, CanastaCountsAgreeWithTheDefinition) {
  RandomMelds random(2463534242ULL);
  for (int i = 0; i < 100000; ++i) {
    const TeamMelds m = random.melds(i, 0x7777777777777777ULL);
    int all = 0, natural = 0;
    uint64_t canasta_bits = 0;
    for (int k = kFirstNatural; k <= kLastNatural; ++k) {
      const int size = m.naturals.count(k) + m.jokers.count(k) + m.twos.count(k);
      all += size >= kCanastaSize;
      natural += size >= kCanastaSize && m.jokers.count(k) + m.twos.count(k) == 0;
      if (size >= kCanastaSize) canasta_bits |= uint64_t{1} << (4 * k);
    }
    ASSERT_EQ(m.canasta_bits(), canasta_bits)
        << m.naturals.raw() << ' ' << m.jokers.raw() << ' ' << m.twos.raw();
    const CardSet more = random.cards();
    int cleanable = 0;
    for (int k = kFirstNatural; k <= kLastNatural; ++k) cleanable += std::min(m.wilds(k), more.count(k));
    ASSERT_EQ(m.cleanable_wilds(more), cleanable)
        << m.jokers.raw() << ' ' << m.twos.raw() << ' ' << more.raw();
    all += m.jokers.count(kTwo) + m.twos.count(kTwo) >= kCanastaSize;
    ASSERT_EQ(m.canastas(), all) << m.naturals.raw() << ' ' << m.jokers.raw() << ' ' << m.twos.raw();
    ASSERT_EQ(m.natural_canastas(), natural)
        << m.naturals.raw() << ' ' << m.jokers.raw() << ' ' << m.twos.raw();
  }
}

// The ranks whose meld can take one more wild card (word-parallel) checked
// against the rules of a meld's shape, under every setting they read.
TEST(TeamMelds, RoomForAWildCardAgreesWithTheDefinition) {
  RandomMelds random(88172645463325252ULL);
  for (int i = 0; i < 60000; ++i) {
    const TeamMelds m = random.melds(i, 0x3333333333333333ULL);
    Rules r = classic_rules();
    r.max_wilds = static_cast<uint8_t>(1 + i % 3);
    r.wilds_le_naturals = i / 3 % 2;
    r.closed_canastas = i / 6 % 2;
    uint64_t room = 0;
    for (int k = kFirstNatural; k <= kLastNatural; ++k) {
      const int nat = m.naturals.count(k), wild = m.wilds(k) + 1;
      const bool ok = nat >= 2 && wild <= r.max_wilds && (!r.wilds_le_naturals || wild <= nat) &&
                      (!r.closed_canastas || nat + wild <= kCanastaSize);
      if (ok) room |= uint64_t{1} << (4 * k);
    }
    ASSERT_EQ(m.wild_room_bits(r), room)
        << m.naturals.raw() << ' ' << m.jokers.raw() << ' ' << m.twos.raw() << ' ' << i;
  }
}

// The pack by kind is the ordered deck counted, in every profile.
TEST(Deck, FullPackIsTheOrderedDeck) {
  for (const char* name : {"classic", "two-player", "spanish", "spanish-3p", "spanish-6p3"}) {
    Rules r;
    std::string error;
    ASSERT_TRUE(parse_profile(name, r, error)) << error;
    Deck deck;
    const int n = ordered_deck(r, deck);
    CardSet counted;
    for (int i = 0; i < n; ++i) counted.add(deck[static_cast<size_t>(i)]);
    EXPECT_EQ(full_pack(r), counted) << name;
    EXPECT_EQ(n, r.deck_cards()) << name;
  }
}

TEST(Notation, CardsRoundTrip) {
  CardSet s;
  std::string error;
  ASSERT_TRUE(parse_cards("K 4 JK 3b 3r 10 2 A q", s, error)) << error;
  EXPECT_EQ(cards_to_string(s), "JK 2 3r 3b 4 10 Q K A");
  EXPECT_FALSE(parse_cards("K 1", s, error));
  EXPECT_NE(error.find("'1'"), std::string::npos);
}

TEST(Notation, ActionsRoundTrip) {
  for (const char* text : {"draw", "take Q: Q Q", "take Q:", "take 7: JK 7", "meld K: JK 2 K K K",
                           "meld 3b: 3b 3b 3b 3b", "ask", "yes", "no", "pass", "discard 3b", "discard JK"}) {
    Action a;
    std::string error;
    ASSERT_TRUE(parse_action(text, a, error)) << text << ": " << error;
    EXPECT_EQ(action_to_string(a), text);
  }
  Action a;
  std::string error;
  EXPECT_FALSE(parse_action("meld K: Q Q Q", a, error));
  EXPECT_FALSE(parse_action("take JK: JK JK", a, error));
  EXPECT_FALSE(parse_action("discard 3r", a, error));
  EXPECT_FALSE(parse_action("fly", a, error));
}

TEST(Notation, PositionRoundTrip) {
  State s;
  std::string error;
  const std::string text =
      "profile: classic\nseat: 2\nphase: meld\nflags: drew_stock\nhand2: JK 4 4 K\n"
      "melds0: K: 2 K K K; A: A A A A A A A\nmelds1: 9: 9 9 9\npile: 7 2 8\nred3: 0 1 0 0\n"
      "melded_before: 0 1\nstock: 5 6 rest";
  ASSERT_TRUE(parse_position(text, s, error)) << error;
  EXPECT_EQ(s.deck[s.stock_pos], kFive);
  EXPECT_TRUE(s.pile_frozen);
  State t;
  ASSERT_TRUE(parse_position(position_to_string(s), t, error)) << error;
  EXPECT_EQ(position_to_string(s), position_to_string(t));
  EXPECT_FALSE(parse_position("profile: classic\nhand0: A A A A A A A A A", s, error));
  EXPECT_NE(error.find("more"), std::string::npos);
  // Found by fuzzing: a key given twice (a pile of 2 x 100 cards overran the pile).
  std::string twice = "profile: classic\npile:";
  for (int i = 0; i < 100; ++i) twice += " 4";
  EXPECT_FALSE(parse_position(twice + "\n" + twice.substr(twice.find("pile")), s, error));
  EXPECT_NE(error.find("twice"), std::string::npos) << error;
  std::string long_pile = "profile: classic\npile:";
  for (int i = 0; i < 170; ++i) long_pile += " 4";
  EXPECT_FALSE(parse_position(long_pile, s, error));
}

TEST(Notation, TokensAsWrittenOrInLowerCase) {
  CardSet c;
  std::string error;
  EXPECT_TRUE(parse_cards("JK jk Q q 3r 10", c, error)) << error;
  EXPECT_EQ(c.count(kJoker), 2);
  EXPECT_EQ(c.count(kQueen), 2);
  EXPECT_FALSE(parse_cards("jK", c, error));
  EXPECT_FALSE(parse_cards("3R", c, error));
  EXPECT_FALSE(parse_cards("jk", c, error, true));  // records: as written only
  EXPECT_TRUE(parse_cards("JK", c, error, true));
}

TEST(Profiles, OverridesAndErrors) {
  Rules r;
  std::string error;
  ASSERT_TRUE(parse_profile("two-player,target=3000", r, error)) << error;
  EXPECT_EQ(r.target, 3000);
  EXPECT_EQ(r.hand_size, 15);
  EXPECT_EQ(profile_spec(r), "two-player,target=3000");
  EXPECT_FALSE(parse_profile("poker", r, error));
  EXPECT_FALSE(parse_profile("classic,draw=9", r, error));
  EXPECT_FALSE(parse_profile("classic,colour=red", r, error));
  EXPECT_FALSE(parse_profile("classic,target", r, error));
  // The spanish tables are named profiles; players and decks are no overrides.
  for (const char* name : {"spanish", "spanish-2p", "spanish-3p", "spanish-6p", "spanish-6p3"}) {
    ASSERT_TRUE(parse_profile(name, r, error)) << error;
    EXPECT_EQ(profile_spec(r), name);
  }
  ASSERT_TRUE(parse_profile("spanish,closed=false", r, error)) << error;
  EXPECT_EQ(profile_spec(r), "spanish,closed=false");
  EXPECT_FALSE(parse_profile("spanish,players=5", r, error));
  ASSERT_TRUE(parse_profile("classic", r, error));
  EXPECT_EQ(profile_spec(r), "classic");
  EXPECT_FALSE(parse_profile("classic,target=nan", r, error));
  EXPECT_FALSE(parse_profile("classic,target=3000,target=4000", r, error));
  EXPECT_NE(error.find("twice"), std::string::npos);
  EXPECT_FALSE(parse_profile("classic,red3=later", r, error));
  EXPECT_NE(error.find("immediate, turn"), std::string::npos) << error;
  // Rules built in code are held to the engine's limits too.
  for (int wilds = 0; wilds <= 5; ++wilds) {
    Rules rules = spanish_rules();
    rules.max_wilds = static_cast<uint8_t>(wilds);
    EXPECT_EQ(check_rules(rules) == nullptr, wilds >= 1 && wilds <= 3) << wilds;
  }
  for (int canastas = 0; canastas <= 5; ++canastas) {
    Rules rules = two_player_rules();
    rules.canastas_to_go_out = static_cast<uint8_t>(canastas);
    EXPECT_EQ(check_rules(rules) == nullptr, canastas >= 1 && canastas <= 3) << canastas;
  }
  // Two or three sides of equal size: the state holds melds for three.
  for (int players = 1; players <= kMaxSeats + 1; ++players)
    for (int teams = 1; teams <= players; ++teams) {
      Rules rules;
      rules.players = static_cast<uint8_t>(players);
      rules.teams = static_cast<uint8_t>(teams);
      const bool ok =
          players >= 2 && players <= kMaxSeats && teams >= 2 && teams <= kMaxTeams && players % teams == 0;
      if (ok) continue;  // a valid table may still deal too many cards: the deck is checked apart
      EXPECT_NE(check_rules(rules), nullptr) << players << " players, " << teams << " sides";
    }
}

// Every override of the table is read, changes the rules, and is written
// back by profile_spec in table order.
TEST(Profiles, EveryOverrideRoundTrips) {
  const std::string spec =
      "classic,hand=13,draw=2,canastas=2,max_wilds=2,wilds_le_naturals=true,one_card_rule=false,ask=false,"
      "red3=turn,stock_end=last_draw,wild_melds=true,closed=true,frozen_until_taken=true,red3_canasta=true,"
      "premiums=true,target=7000,tie=draw,max_deals=50";
  Rules r;
  std::string error;
  ASSERT_TRUE(parse_profile(spec, r, error)) << error;
  // Written back from the profile that needs the fewest overrides.
  EXPECT_EQ(profile_spec(r),
            "spanish,hand=13,draw=2,canastas=2,max_wilds=2,ask=false,red3=turn,"
            "stock_end=last_draw,red3_canasta=true,"
            "target=7000,max_deals=50");
  Rules again;
  ASSERT_TRUE(parse_profile(profile_spec(r), again, error)) << error;
  EXPECT_EQ(again, r);
  EXPECT_EQ(r.hand_size, 13);
  EXPECT_EQ(r.red3_deal, RedThreeDeal::kOwnersTurn);
  EXPECT_EQ(r.tie, TieRule::kDraw);
  EXPECT_EQ(r.max_deals, 50);
  for (const auto& p : rule_params()) {
    Rules base;
    const std::string one = spec.substr(spec.find(std::string(p.name) + "="));
    ASSERT_TRUE(parse_profile("classic," + one.substr(0, one.find(',')), base, error)) << error;
    EXPECT_NE(base, Rules{}) << p.name;
  }
  // A table of two players is named after its profile.
  ASSERT_TRUE(parse_profile("two-player,one_card_rule=true", r, error)) << error;
  EXPECT_EQ(profile_spec(r), "two-player,one_card_rule=true");
}

}  // namespace
}  // namespace canasta::test
