// Properties over many random-play deals, checked after every action.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "canasta/game.h"
#include "canasta/heuristic.h"
#include "canasta/notation.h"
#include "canasta/record.h"
#include "canasta/replay.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// The deal's score per side counted again, directly from the cards, without
// the engine's scoring code.
int recount(const State& s, int team) {
  const Rules& r = s.rules;
  auto value = [](int kind) {
    switch (kind) {
      case kJoker:
        return 50;
      case kTwo:
      case kAce:
        return 20;
      case kEight:
      case kNine:
      case kTen:
      case kJack:
      case kQueen:
      case kKing:
        return 10;
      case kRed3:
        return 0;
      default:
        return 5;
    }
  };
  int total = 0, reds = 0, canastas = 0;
  const TeamMelds& m = s.melds[team];
  bool melded = false;
  for (int k = 0; k < kKindNb; ++k) {
    const int nat = m.naturals.count(k), jok = m.jokers.count(k), two = m.twos.count(k);
    melded |= nat + jok + two > 0;
    total += nat * value(k) + jok * 50 + two * 20;
    if (k == kTwo && jok + two >= 7) {
      total += 2000;  // the wild canasta
      ++canastas;
    }
    if (k >= kFour && nat + jok + two >= 7) {
      total += (jok + two == 0) ? 500 : 300;
      ++canastas;
    }
  }
  if (r.premiums) {
    if (m.naturals.count(kBlack3) == 4) total += 500 - 20;
    total += (canastas >= 5 ? 500 : 0) + (canastas >= 7 ? 2000 : 0);  // seven canastas: 2500
  }
  for (int seat = 0; seat < r.players; ++seat) {
    if (seat % r.teams != team) continue;
    for (int k = 0; k < kKindNb; ++k) total -= s.hand[seat].count(k) * value(k);
    const int b3 = s.hand[seat].count(kBlack3);
    if (r.premiums && b3 >= 4) total -= 500 - 5 * b3;
    reds += s.red3[seat];
  }
  const int red_bonus = reds >= 4 ? reds * 200 : reds * 100;
  const bool plus = r.red3_need_canasta ? canastas > 0 : melded;
  total += plus ? red_bonus : -red_bonus;
  if (s.end == EndReason::kWentOut && s.out_seat % r.teams == team) {
    if (!s.concealed) {
      total += 100;
    } else if (r.premiums) {
      const bool leaning = s.concealed & kConcealedLeaning, later = s.concealed & kConcealedLater;
      total += later ? (leaning ? 200 : 500) : (leaning ? 500 : 1000);
    } else {
      total += 200;
    }
  }
  return total;
}

void check_deals(const char* profile, int deals, uint64_t seed) {
  Rules rules;
  std::string error;
  ASSERT_TRUE(parse_profile(profile, rules, error));
  Deck full;
  const int n = ordered_deck(rules, full);
  std::array<int, kKindNb> copies{};
  for (int i = 0; i < n; ++i) ++copies[full[i]];
  State s, again;
  ActionList list, list2;
  int64_t went_out = 0, actions = 0;
  RecordChecker checker;
  for (int k = 0; k < deals; ++k) {
    start_single_deal(s, rules, seed, k);
    again = s;
    DealRecord rec;
    begin_single_record(rec, s, seed, k);
    Rng rng(derive_seed(seed, Stream::kRandomPlay, static_cast<uint64_t>(k)));
    while (!s.over()) {
      ASSERT_EQ(check_invariants(s), nullptr) << position_to_string(s);
      for (int seat = 0; seat < rules.players; ++seat)
        for (int kind = 0; kind < kKindNb; ++kind) ASSERT_LE(s.hand[seat].count(kind), copies[kind]);
      legal_actions(s, list);
      ASSERT_GT(list.size(), 0) << "dead end\n" << position_to_string(s);
      // The canonical order (types.h): strictly increasing, so sorted and unique.
      for (int i = 1; i < list.size(); ++i)
        ASSERT_LT(order_key(list[i - 1]), order_key(list[i])) << position_to_string(s);
      const Action a = list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))];
      rec.actions.emplace_back(s.actor(), a);
      apply(s, a);
      ++actions;
    }
    ASSERT_EQ(check_invariants(s), nullptr);
    went_out += s.end == EndReason::kWentOut;
    const auto score = deal_score(s);
    for (int t = 0; t < rules.teams; ++t) ASSERT_EQ(score[t].total(), recount(s, t)) << position_to_string(s);
    // The same seed gives the same deal and the same actions.
    Rng rng2(derive_seed(seed, Stream::kRandomPlay, static_cast<uint64_t>(k)));
    for (auto [seat, a] : rec.actions) {
      ASSERT_EQ(again.actor(), seat);
      legal_actions(again, list2);
      ASSERT_EQ(list2[static_cast<int>(rng2.below(static_cast<uint32_t>(list2.size())))], a);
      apply(again, a);
    }
    ASSERT_TRUE(again.over());
    // Every record replays, through its JSON text.
    end_record(rec, s);
    DealRecord parsed;
    ASSERT_TRUE(parse_record(to_json_line(rec), parsed, error)) << error;
    ASSERT_TRUE(checker.check(parsed, error)) << error;
  }
  // Not a degenerate game: deals end in more than one way and are long.
  EXPECT_GT(went_out, 0);
  EXPECT_LT(went_out, deals);
  EXPECT_GT(actions, 30LL * deals);
}

TEST(Properties, ClassicRandomDeals) { check_deals("classic", test_deals(20000, 50), 101); }
TEST(Properties, TwoPlayerRandomDeals) { check_deals("two-player", test_deals(10000, 50), 202); }
TEST(Properties, SpanishRandomDeals) { check_deals("spanish", test_deals(5000, 50), 303); }
TEST(Properties, Spanish2pRandomDeals) { check_deals("spanish-2p", test_deals(5000, 50), 404); }
TEST(Properties, Spanish3pRandomDeals) { check_deals("spanish-3p", test_deals(5000, 50), 505); }
TEST(Properties, Spanish6pRandomDeals) { check_deals("spanish-6p", test_deals(5000, 50), 606); }
TEST(Properties, Spanish6p3RandomDeals) { check_deals("spanish-6p3", test_deals(5000, 50), 707); }

// Whether the player to move, in its meld phase, can go out this turn, by
// trying every sequence of legal actions of the turn (asking aside: going out
// never needs it); `seen` holds the positions already found not to.
bool reaches_out(const State& s, std::set<std::string>& seen) {
  if (!seen.insert(position_to_string(s)).second) return false;
  ActionList list;
  legal_actions(s, list);
  for (Action a : list) {
    if (a.type() == ActionType::kAsk) continue;
    State t = s;
    apply(t, a);
    if (t.over()) {
      if (t.end == EndReason::kWentOut && t.out_seat == s.seat) return true;
      continue;
    }
    if (a.type() != ActionType::kDiscard && t.phase == Phase::kMeld && reaches_out(t, seen)) return true;
  }
  return false;
}

bool reaches_out(const State& s) {
  std::set<std::string> seen;
  return reaches_out(s, seen);
}

// can_go_out (engine.h), now and after each legal meld, against that search,
// in the meld phases of random deals where the player holds at most `cards`.
void check_can_go_out(const char* profile, int deals, uint64_t seed, int cards) {
  const Rules rules = rules_of(profile);
  int checked = 0, can = 0, emptied = 0, cleanings = 0;
  random_play(rules, deals, seed, [&](const State& s, const ActionList& list) {
    if (s.phase != Phase::kMeld || s.hand[s.seat].total() > cards) return;
    const bool out = reaches_out(s);
    ASSERT_EQ(can_go_out(s), out) << position_to_string(s);
    // The heuristic's quick test never rules out a way out.
    if (out && !(s.flags & kPilePending)) {
      ASSERT_TRUE(out_in_reach(s.hand[s.seat], s.melds[s.team()]));
    }
    ++checked;
    can += out;
    for (Action a : list) {
      if (a.type() != ActionType::kMeld && a.type() != ActionType::kClean) continue;
      State t = s;
      apply(t, a);
      const bool after = t.over() ? t.end == EndReason::kWentOut : t.phase == Phase::kMeld && reaches_out(t);
      emptied += t.over();
      cleanings += a.type() == ActionType::kClean;
      ASSERT_EQ(can_go_out(s, a), after) << position_to_string(s) << action_to_string(a);
    }
  });
  // Both answers come up, the yes often enough to mean something; melds
  // that go out, and cleanings where the profile has them, are among those
  // checked. (Openings and the pile waiting for the minimum hardly come up
  // with so few cards: test_rules.cpp checks them by hand.)
  EXPECT_GT(emptied, 0);
  if (rules.closed_canastas) {
    EXPECT_GT(cleanings, 0);
  }
  EXPECT_GT(can, deals / 20);
  EXPECT_GT(checked - can, can);
}

// The legal actions with the costly checks left to the caller, once the
// caller has run them, are the legal actions, in the same order, in every
// profile; some checks fail, so that the filter is tried both ways.
void check_deferred(const std::string& profile, int deals, uint64_t seed) {
  const Rules rules = rules_of(profile);
  ActionList candidates;
  DeferredChecks later;
  int64_t deferred = 0, failed = 0;
  random_play(rules, deals, seed, [&](const State& s, const ActionList& legal) {
    legal_actions(s, candidates, &later);
    std::vector<Action> kept;
    for (int i = 0, j = 0; i < candidates.size(); ++i) {
      if (j < later.size() && later[j] == i) {
        ++j;
        ++deferred;
        ASSERT_TRUE(candidates[i].type() == ActionType::kMeld || candidates[i].type() == ActionType::kClean);
        if (!passes_deferred_check(s, candidates[i])) {
          ++failed;
          continue;
        }
      }
      kept.push_back(candidates[i]);
    }
    for (int j = 1; j < later.size(); ++j) ASSERT_LT(later[j - 1], later[j]);
    ASSERT_EQ(kept, std::vector<Action>(legal.begin(), legal.end())) << position_to_string(s);
  });
  EXPECT_GT(deferred, failed);
  EXPECT_GT(failed, 0);
}

// An action's value from its counts is the value of its cards, for every
// legal action of random play (cleanings in spanish).
TEST(Properties, ActionValueIsTheValueOfItsCards) {
  for (const char* p : {"classic", "spanish"})
    random_play(rules_of(p), test_deals(200, 10), 1212, [](const State&, const ActionList& legal) {
      for (Action a : legal) ASSERT_EQ(a.value(), a.cards().value()) << action_to_string(a);
    });
}

TEST(Properties, DeferredChecksGiveTheLegalActions) {
  for (const char* p :
       {"classic", "two-player", "spanish", "spanish-2p", "spanish-3p", "spanish-6p", "spanish-6p3"})
    check_deferred(p, test_deals(400, 10), 1111);
}

TEST(Properties, CanGoOutMatchesASearchOfTheTurnClassic) {
  check_can_go_out("classic", test_deals(400, 10), 808, 5);
}
TEST(Properties, CanGoOutMatchesASearchOfTheTurnTwoPlayer) {
  check_can_go_out("two-player", test_deals(200, 10), 909, 7);
}
TEST(Properties, CanGoOutMatchesASearchOfTheTurnSpanish) {
  check_can_go_out("spanish", test_deals(200, 10), 1010, 7);
}

}  // namespace
}  // namespace canasta::test
