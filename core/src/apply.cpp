// A deal in play: dealing, and applying an action (draws, takes of the pile,
// melds, discards, and the ends of turns and of the deal).
#include <algorithm>
#include <array>
#include <bit>
#include <cassert>

#include "canasta/engine.h"
#include "feasible.h"

namespace canasta {

namespace {

void end_deal(State& s, EndReason why) {
  s.phase = Phase::kOver;
  s.end = why;
}

// Draws one card for the player to move; a red three is exposed and replaced.
// Returns false when the deal ended (a red three was the last card).
bool draw_one(State& s) {
  while (s.stock_size() > 0) {
    const int k = s.deck[s.stock_pos++];
    if (k != kRed3) {
      s.hand[s.seat].add(k);
      return true;
    }
    ++s.red3[s.seat];
    if (s.stock_size() == 0) {
      end_deal(s, EndReason::kRedThreeLast);
      return false;
    }
  }
  return true;
}

// Exposes the red threes dealt to `seat`; returns how many.
int expose_dealt_red3(State& s, int seat) {
  const int n = s.hand[seat].count(kRed3);
  s.hand[seat].remove(kRed3, n);
  s.red3[seat] = static_cast<uint8_t>(s.red3[seat] + n);
  return n;
}

// Draws `n` replacements for `seat`'s exposed red threes. Returns false when
// the deal ended (a red three was the last card).
bool replace_red3(State& s, int seat, int n) {
  const int saved = s.seat;
  s.seat = static_cast<uint8_t>(seat);
  bool alive = true;
  for (int i = 0; i < n && alive; ++i) alive = draw_one(s);
  s.seat = static_cast<uint8_t>(saved);
  return alive;
}

void forget_played(State& s, CardSet played) {
  CardSet& known = s.known[s.seat];
  if (known.empty()) return;
  for (uint64_t kinds = ~played.none_bits() & ~known.none_bits() & detail::kKindBits; kinds;
       kinds &= kinds - 1) {
    const int k = std::countr_zero(kinds) >> 2;
    known.set(k, std::max(0, known.count(k) - played.count(k)));
  }
}

void went_out(State& s) {
  const TeamMelds& m = s.melds[s.team()];
  int own_canastas = 0;
  for (int k = kTwo; k <= kLastNatural; ++k)
    if (!(s.start_ranks >> k & 1U) && m.is_canasta(k)) ++own_canastas;
  // Concealed: the whole hand melded in this turn, with a canasta of its own
  // among it (the others a side needs to go out may be on the table).
  // Without premiums, leaning on the partner's melds is not concealed; with
  // them it is, at a lower premium, as is going out after the first turn.
  const bool leaning = s.flags & kAddedToOld;
  const bool concealed =
      !(s.melded_before >> s.seat & 1U) && (s.rules.premiums || !leaning) && own_canastas >= 1;
  s.concealed = concealed ? static_cast<uint8_t>(kConcealed | (leaning ? kConcealedLeaning : 0) |
                                                 (s.turns > s.rules.players ? kConcealedLater : 0))
                          : 0;
  s.out_seat = static_cast<int8_t>(s.seat);
  end_deal(s, EndReason::kWentOut);
}

void pick_up_pile(State& s) {
  for (int i = 0; i < s.pile_size; ++i) {
    const int k = s.pile[i];
    if (k == kRed3) {
      ++s.red3[s.seat];  // exposed, not replaced
    } else {
      s.hand[s.seat].add(k);
      s.known[s.seat].add(k);
    }
  }
  s.pile_size = 0;
  s.pile_frozen = false;
}

void begin_turn(State& s) {
  ++s.turns;
  const TeamMelds& m = s.melds[s.team()];
  s.flags = m.any() ? 0 : kOpening;
  s.turn_value = 0;
  s.start_ranks = m.ranks();
  s.phase = Phase::kDraw;
  if (s.red3_pending >> s.seat & 1U) {
    s.red3_pending = static_cast<uint8_t>(s.red3_pending & ~(1U << s.seat));
    // With kExposedNow they were exposed at the deal: every red three the
    // seat has before its first turn was dealt to it.
    const int n =
        s.rules.red3_deal == RedThreeDeal::kExposedNow ? s.red3[s.seat] : expose_dealt_red3(s, s.seat);
    if (!replace_red3(s, s.seat, n)) return;
  }
  if (s.stock_size() == 0) {
    if (s.rules.stock_end == StockEnd::kAfterLastDraw || !detail::can_take_pile(s))
      end_deal(s, EndReason::kStockOut);
  }
}

void end_turn(State& s) {
  if (s.flags & (kTookPile | kMeldedExtra)) s.melded_before |= static_cast<uint8_t>(1U << s.seat);
  if (s.rules.stock_end == StockEnd::kAfterLastDraw && s.stock_size() < s.rules.draw_count) {
    end_deal(s, EndReason::kStockOut);
    return;
  }
  s.seat = static_cast<uint8_t>(s.rules.next_seat(s.seat));
  begin_turn(s);
}

// The opening minimum is met: the side has opened, a pile waiting joins the hand.
void check_opened(State& s) {
  if ((s.flags & kOpening) && s.turn_value >= opening_minimum(s, s.team())) {
    s.flags &= static_cast<uint16_t>(~kOpening);
    if (s.flags & kPilePending) {
      s.flags &= static_cast<uint16_t>(~kPilePending);
      pick_up_pile(s);
    }
  }
}

// Melds `a` (plus `from_pile` natural from the pile top) for the player's
// side; a cleaning also moves its wild card to the meld of its destination.
void meld(State& s, Action a, int from_pile) {
  const CardSet used = a.cards();
  s.hand[s.seat] = s.hand[s.seat] - used;
  forget_played(s, used);
  const bool clean = a.type() == ActionType::kClean;
  if (clean)
    detail::apply_clean(s.melds[s.team()], a);
  else
    detail::add_meld(s.melds[s.team()], a.kind(), a.naturals() + from_pile, a.jokers(), a.twos());
  s.turn_value = static_cast<int16_t>(s.turn_value + a.value() + from_pile * card_value(a.kind()));
  if ((s.start_ranks >> a.kind() & 1U) || (clean && (s.start_ranks >> a.dest() & 1U))) s.flags |= kAddedToOld;
  if (a.kind() == kBlack3) s.flags |= kCommitted;
  check_opened(s);
}

// After a meld: a player whose hand is empty (and who waits for no pile) is out.
void check_out(State& s) {
  if (s.hand[s.seat].empty() && !(s.flags & kPilePending)) went_out(s);
}

}  // namespace

void start_deal(State& s, const Rules& rules, const Deck& deck, int deck_size, int dealer,
                const std::array<int32_t, kMaxTeams>& scores) {
  s = State{};
  s.rules = rules;
  s.deck = deck;
  s.deck_size = static_cast<uint8_t>(deck_size);
  s.dealer = static_cast<uint8_t>(dealer);
  s.score_before = scores;
  s.out_seat = -1;
  s.pile_frozen = rules.frozen_until_taken;
  const int first = rules.next_seat(dealer);
  for (int i = 0; i < rules.players * rules.hand_size; ++i)
    s.hand[(first + i) % rules.players].add(deck[s.stock_pos++]);
  // The upcard; wild cards and red threes are covered and freeze the pile.
  do {
    const int k = deck[s.stock_pos++];
    s.pile[s.pile_size++] = static_cast<uint8_t>(k);
    if (is_wild(k) || k == kRed3) s.pile_frozen = true;
  } while ((is_wild(s.top()) || s.top() == kRed3) && s.stock_size() > 0);
  s.seat = static_cast<uint8_t>(first);
  for (int i = 0; i < rules.players; ++i) {
    const int seat = (first + i) % rules.players;
    if (s.hand[seat].count(kRed3) == 0) continue;
    if (rules.red3_deal == RedThreeDeal::kOwnersTurn) {
      s.red3_pending |= static_cast<uint8_t>(1U << seat);
    } else if (rules.red3_deal == RedThreeDeal::kExposedNow) {
      // Exposed now (they score even if the owner never plays); the owner
      // draws their replacements when the first turn begins.
      expose_dealt_red3(s, seat);
      s.red3_pending |= static_cast<uint8_t>(1U << seat);
    } else if (!replace_red3(s, seat, expose_dealt_red3(s, seat))) {
      return;
    }
  }
  begin_turn(s);
}

// Debug builds check the precondition and every invariant after every action.
void apply(State& s, Action a) {
  assert(is_legal(s, a));
  apply_unchecked(s, a);
  assert(check_invariants(s) == nullptr);
}

void apply_unchecked(State& s, Action a) {
  switch (a.type()) {
    case ActionType::kDraw:
      for (int i = 0; i < s.rules.draw_count && s.stock_size() > 0; ++i)
        if (!draw_one(s)) return;
      s.flags |= kDrewStock;
      s.phase = Phase::kMeld;
      break;
    case ActionType::kTakePile: {
      --s.pile_size;  // the top card goes to the meld
      s.flags |= kTookPile;
      if (s.flags & kOpening) s.flags |= kPilePending;
      s.phase = Phase::kMeld;
      meld(s, a, 1);
      if (!(s.flags & kPilePending)) pick_up_pile(s);
      check_out(s);
      break;
    }
    case ActionType::kMeld:
    case ActionType::kClean:
      s.flags |= kMeldedExtra;
      meld(s, a, 0);
      check_out(s);
      break;
    case ActionType::kAsk:
      s.flags |= kAsked;
      s.phase = Phase::kAnswer;
      break;
    case ActionType::kYes:
      s.flags |= kAnsweredYes;
      s.phase = Phase::kMeld;
      break;
    case ActionType::kNo:
      s.flags |= kAnsweredNo;
      s.phase = Phase::kMeld;
      break;
    case ActionType::kPass:
      end_deal(s, EndReason::kStockOut);
      break;
    case ActionType::kDiscard: {
      const int k = a.kind();
      s.hand[s.seat].remove(k);
      forget_played(s, a.cards());
      s.pile[s.pile_size++] = static_cast<uint8_t>(k);
      if (is_wild(k)) s.pile_frozen = true;
      s.discarded[s.seat] |= static_cast<uint16_t>(1U << k);
      if (s.hand[s.seat].empty()) {
        went_out(s);
      } else {
        end_turn(s);
      }
      break;
    }
    case ActionType::kTypeNb:
      assert(false);
      break;
  }
}

}  // namespace canasta