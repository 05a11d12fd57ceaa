// Whether the rest of a turn can end (feasible.h): going out, meeting the
// opening minimum, an opening by the pile waiting for it; and greedy_max and
// meld_all in closed form for the profiles without wild melds or closed
// canastas (the others: meld_search.cpp).
#include "feasible.h"

#include <algorithm>
#include <array>
#include <bit>

namespace canasta::detail {

namespace {

// Room for wild cards left in a meld of `nat` naturals and `wild` wilds.
int wild_room(int nat, int wild, const Rules& r) {
  int cap = r.max_wilds - wild;
  if (r.wilds_le_naturals) cap = std::min(cap, nat - wild);
  return std::max(cap, 0);
}

bool may_go_out(const TurnCtx& c, const Rules& r) {
  return !(c.flags & kAnsweredNo) && c.melds.canastas() >= r.canastas_to_go_out;
}

bool exempt(const TurnCtx& c) {
  // Concealed going out after a draw from the stock needs no opening minimum.
  return (c.flags & kOpening) && (c.flags & kDrewStock);
}

bool opening_pending(const TurnCtx& c) {
  return (c.flags & kPilePending) || ((c.flags & kOpening) && c.melds.any() && c.need > 0);
}

// Going out by melding all of `rest` except at most one discarded card, with
// `min_value` of card value melded (0: no minimum).
bool out_with(CardSet rest, const TurnCtx& c, const Rules& r, int min_value) {
  const int stuck_kind = stuck_card(rest, c.melds);
  if (stuck_kind == kTwoStuck) return false;
  const bool stuck = stuck_kind != kNoneStuck;
  // Too few canastas whatever is melded: nothing to search.
  if (c.melds.canastas_bound(rest, r.wild_melds, r.closed_canastas) < r.canastas_to_go_out) return false;
  auto try_rest = [&](CardSet melded) {
    if (melded.value() < min_value) return false;
    MeldAll m = meld_all(melded, c.melds, r, r.canastas_to_go_out);
    return m.ok && m.canastas >= r.canastas_to_go_out;
  };
  if (stuck) {
    rest.remove(stuck_kind);
    return try_rest(rest);
  }
  if (try_rest(rest)) return true;
  // Which card to discard. Without wild melds and closed canastas, leaving
  // out a natural never helps: it cannot give a meld room for more wild
  // cards, spare a wild card, or add a canasta (a pair it breaks cannot be
  // melded, a triple it breaks needs a wild card). Only a wild card (too many
  // to place) or a fifth black three can be the one.
  uint16_t candidates = rest.kinds();
  if (!r.wild_melds && !r.closed_canastas)
    candidates &=
        static_cast<uint16_t>(1U << kJoker | 1U << kTwo | (rest.count(kBlack3) > 4 ? 1U << kBlack3 : 0U));
  for (uint16_t kinds = candidates; kinds; kinds &= static_cast<uint16_t>(kinds - 1)) {
    const int k = std::countr_zero(kinds);
    if (is_natural(k) && (r.wild_melds || r.closed_canastas) &&
        no_better_with_one_less(c.melds, k, rest.count(k), r))
      continue;
    CardSet melded = rest;
    melded.remove(k);
    if (try_rest(melded)) return true;
  }
  return false;
}

// The context after moving the cards of `used` from the hand, the side's
// melds becoming `into`.
TurnCtx with_cards(TurnCtx c, CardSet used, const TeamMelds& into) {
  c.hand = c.hand - used;
  c.melds = into;
  c.need -= used.value();
  if (c.need <= 0) {
    c.flags &= static_cast<uint16_t>(~(kOpening | kPilePending));
    c.need = 0;
    c.hand = c.hand + c.pile;
    c.pile = CardSet();
    c.pile_n = 0;
  }
  return c;
}

TurnCtx with_meld(const TurnCtx& c, int rank, int x, int j, int t) {
  CardSet used;
  used.add(rank, x);
  used.add(kJoker, j);
  used.add(kTwo, t);
  TeamMelds m = c.melds;
  add_meld(m, rank, x, j, t);
  return with_cards(c, used, m);
}

bool pending_out(const TurnCtx& c, const Rules& r, int from);

// The next step of pending_out after a move that led to `c2`.
bool pending_next(const TurnCtx& c2, const Rules& r, int from) {
  if (c2.flags & kPilePending) return !c2.hand.empty() && pending_out(c2, r, from);
  return can_go_out(c2, r);
}

// Going out after an opening by the pile: meld from the hand until the
// minimum is met (the rest of the pile then joins the hand), then meld
// everything. An exact search over the melds made before the pile arrives,
// one rank at a time in rank order (the order of melds does not matter);
// cleanings, which join two melds, at any point.
bool pending_out(const TurnCtx& c, const Rules& r, int from) {
  const CardSet hand = c.hand;
  const int jokers = hand.count(kJoker), twos = hand.count(kTwo);
  if (r.wild_melds && from <= kTwo)
    for (int j = 0; j <= jokers; ++j)
      for (int t = 0; t <= twos; ++t)
        if (meld_shape_ok(c.melds, kTwo, 0, j + t, r) &&
            pending_next(with_meld(c, kTwo, 0, j, t), r, kBlack3))
          return true;
  if (r.closed_canastas) {
    bool out = false;
    for_each_clean(c.melds, hand, r, [&](Action a) {
      if (out) return;
      TeamMelds m = c.melds;
      apply_clean(m, a);
      out = pending_next(with_cards(c, a.cards(), m), r, from);
    });
    if (out) return true;
  }
  for (int k = std::max(from, static_cast<int>(kBlack3)); k <= kLastNatural; ++k) {
    const int n = hand.count(k);
    const bool has = c.melds.has(k);
    if (k == kBlack3) {
      if (has) continue;
      for (int x = 3; x <= std::min(n, 4); ++x)
        if (pending_next(with_meld(c, k, x, 0, 0), r, k + 1)) return true;
      continue;
    }
    if (!has && n < 2) continue;
    const int room = r.max_wilds - c.melds.wilds(k);
    for (int x = has ? 0 : 2; x <= n; ++x)
      for (int j = 0; j <= std::min(jokers, room); ++j)
        for (int t = 0; t <= std::min(twos, room - j); ++t) {
          if (x + j + t == 0 || !natural_shape_ok(c.melds, k, x, j + t, r)) continue;
          if (pending_next(with_meld(c, k, x, j, t), r, k + 1)) return true;
        }
  }
  return false;
}

// Whether one simple plan melds `need` of card value from `hand` onto
// `melds` and leaves `keep` cards: every natural that can join its rank's
// meld and new melds of three or more naturals; then, one at a time, jokers
// before twos, a wild card with each natural pair (the most valuable first),
// then wild cards onto the melds that have room. Each meld of the plan is
// checked with meld_shape_ok, so a plan found is a legal one; a plan not
// found proves nothing.
bool simple_plan_reaches(CardSet hand, const TeamMelds& m, const Rules& r, int need, int keep) {
  const int nat_cap = r.closed_canastas ? kClosedNaturalMax : 99;
  std::array<int, kLastNatural + 1> x{}, w{};  // naturals and wild cards a rank takes
  int value = 0, melded = 0;
  uint64_t in_plan = ~m.naturals.none_bits() & kNaturalBits;  // the ranks with a meld (bit 4k)
  for (uint64_t kinds = ~hand.none_bits() & kNaturalBits; kinds; kinds &= kinds - 1) {
    const int k = std::countr_zero(kinds) >> 2, n = hand.count(k);
    if (m.has(k)) {
      const int w0 = m.wilds(k);
      const int size = m.naturals.count(k) + w0;
      x[k] = r.closed_canastas ? std::clamp((w0 > 0 ? kCanastaSize : nat_cap) - size, 0, n) : n;
    } else if (n >= 3) {
      x[k] = std::min(n, nat_cap);
      in_plan |= kinds & -kinds;
    }
    value += x[k] * card_value(k);
    melded += x[k];
  }
  const int total = hand.total();
  if (value >= need) return total - melded >= keep;
  int jokers = hand.count(kJoker), twos = hand.count(kTwo);
  // A wild card more melds one card more: none can go with `keep` left.
  if (jokers + twos == 0 || total - melded <= keep) return false;
  // Adds one wild card to rank k, with `naturals` more naturals; true once
  // the plan reaches the minimum.
  const auto add_wild = [&](int k, int naturals) {
    const bool joker = jokers > 0;
    (joker ? jokers : twos) -= 1;
    x[k] += naturals;
    ++w[k];
    value += card_value(joker ? kJoker : kTwo) + naturals * card_value(k);
    melded += naturals + 1;
    return value >= need;
  };
  // Highest rank first (bit 4k): the most valuable naturals.
  const auto highest = [](uint64_t bits) { return (63 - std::countl_zero(bits)) >> 2; };
  for (uint64_t pairs = hand.two_bits() & m.naturals.none_bits() & kNaturalBits;
       pairs && jokers + twos > 0;) {
    const int k = highest(pairs);
    pairs &= ~(uint64_t{1} << (4 * k));
    if (!natural_shape_ok(m, k, 2, 1, r)) continue;
    in_plan |= uint64_t{1} << (4 * k);
    if (add_wild(k, 2)) return total - melded >= keep;
  }
  for (uint64_t ranks = in_plan; ranks && jokers + twos > 0;) {
    const int k = highest(ranks);
    ranks &= ~(uint64_t{1} << (4 * k));
    while (jokers + twos > 0 && natural_shape_ok(m, k, x[k], w[k] + 1, r))
      if (add_wild(k, 0)) return total - melded >= keep;
  }
  return false;
}

// At least the most card value `hand` can meld onto `melds` in one turn
// (greedy_max): its wild cards, and the naturals of every rank that can
// take them. A rank the side has not melded takes none from a lone natural,
// nor from a pair where no wild card is at hand (none in the hand, none that
// cleaning a canasta could free); a closed canasta takes at most eight
// naturals.
int value_bound(CardSet hand, const TeamMelds& m, const Rules& r) {
  const bool wild_at_hand = hand.wilds() > 0 || cleaning_may_free(hand, m, r);
  const int most = r.closed_canastas ? kClosedNaturalMax : kMaxCards;
  int value = card_value(kJoker) * hand.count(kJoker) + card_value(kTwo) * hand.count(kTwo);
  for (uint64_t kinds = ~hand.none_bits() & kNaturalBits; kinds; kinds &= kinds - 1) {
    const int k = std::countr_zero(kinds) >> 2, n = hand.count(k);
    const int x = m.has(k)                              ? std::min(n, most - m.naturals.count(k))
                  : n == 1 || (n == 2 && !wild_at_hand) ? 0
                                                        : std::min(n, most);
    value += std::max(x, 0) * card_value(k);
  }
  return value;
}

// The opening minimum can be met by melding from the hand, leaving a turn that
// can end: with at least `keep` cards in hand (rest of the pile aside), or by
// going out.
bool reach_min(const TurnCtx& c, const Rules& r) {
  const int rest_n = (c.flags & kPilePending) ? c.pile_n : 0;
  const int keep = std::max(0, 2 - rest_n);
  // Where greedy_max is a search (wild melds, closed canastas), quick answers
  // first: a simple legal plan (one that leaves `keep` cards is one the
  // search below finds too), and a bound on the value that can meld (when
  // short of the minimum, the search finds nothing).
  bool short_of = false;
  if (r.wild_melds || r.closed_canastas) {
    if (simple_plan_reaches(c.hand, c.melds, r, c.need, keep)) return true;
    short_of = value_bound(c.hand, c.melds, r) < c.need;
  }
  const Greedy g = short_of ? Greedy{0, 0} : greedy_max(c.hand, c.melds, r);
  if (g.value >= c.need && c.hand.total() - g.melded >= keep) return true;
  // Hold back `keep` cards (one or two) and meld the most of the rest.
  const uint16_t kinds = g.value >= c.need ? c.hand.kinds() : 0;
  for (uint16_t a = kinds; a; a &= static_cast<uint16_t>(a - 1)) {
    const int ka = std::countr_zero(a);
    CardSet h1 = c.hand;
    h1.remove(ka);
    if (keep == 1) {
      if (greedy_max(h1, c.melds, r).value >= c.need) return true;
      continue;
    }
    for (uint16_t b = h1.kinds(); b; b &= static_cast<uint16_t>(b - 1)) {
      const int kb = std::countr_zero(b);
      if (kb < ka) continue;
      CardSet h2 = h1;
      h2.remove(kb);
      if (greedy_max(h2, c.melds, r).value >= c.need) return true;
    }
  }
  // Otherwise only by going out in this turn.
  if (!(c.flags & kPilePending)) return false;
  if (c.flags & kAnsweredNo) return false;
  if (rest_n == 0) return out_with(c.hand, c, r, c.need);
  return rest_n == 1 && pending_out(c, r, kTwo);
}

}  // namespace

bool meld_shape_ok(const TeamMelds& m, int rank, int naturals, int wilds, const Rules& r) {
  if (rank == kBlack3) return wilds == 0 && !m.has(kBlack3) && (naturals == 3 || naturals == 4);
  if (rank == kTwo) {
    const int size = m.wild_meld() + wilds;
    return r.wild_melds && naturals == 0 && wilds > 0 && size >= 3 && size <= kCanastaSize;
  }
  return is_natural(rank) && natural_shape_ok(m, rank, naturals, wilds, r);
}

Greedy greedy_max(CardSet hand, const TeamMelds& m, const Rules& r) {
  if (r.wild_melds || r.closed_canastas) return greedy_max_dp(hand, m, r);
  int value = 0, melded = 0, room = 0;
  std::array<int, 11> pair_value{};
  std::array<int, 11> pair_room{};
  int pairs = 0;
  for (int k = kFirstNatural; k <= kLastNatural; ++k) {
    const int n = hand.count(k);
    if (m.has(k)) {
      value += n * card_value(k);
      melded += n;
      room += wild_room(m.naturals.count(k) + n, m.wilds(k), r);
    } else if (n >= 3) {
      value += n * card_value(k);
      melded += n;
      room += wild_room(n, 0, r);
    } else if (n == 2) {
      // A pair melds only with a wild card; insert in decreasing value.
      int i = pairs++;
      while (i > 0 && pair_value[i - 1] < 2 * card_value(k)) {
        pair_value[i] = pair_value[i - 1];
        pair_room[i] = pair_room[i - 1];
        --i;
      }
      pair_value[i] = 2 * card_value(k);
      pair_room[i] = wild_room(2, 1, r);
    }
  }
  const int jokers = hand.count(kJoker), wilds = jokers + hand.count(kTwo);
  const int enabled = std::min(pairs, wilds);
  for (int i = 0; i < enabled; ++i) {
    value += pair_value[i];
    melded += 2;
    room += pair_room[i];
  }
  const int placed = enabled + std::min(wilds - enabled, room);
  const int placed_jokers = std::min(jokers, placed);
  value += 50 * placed_jokers + 20 * (placed - placed_jokers);
  melded += placed;
  return {value, melded};
}

MeldAll meld_all(CardSet hand, const TeamMelds& m, const Rules& r, int enough) {
  if (!black_threes_meld(hand.count(kBlack3), m)) return {false, 0};
  if (r.wild_melds || r.closed_canastas) return meld_all_dp(hand, m, r, enough);
  const int wilds = hand.wilds();
  int required = 0, room = 0, canastas = 0;
  // gaps[g]: the melds g cards short of a canasta that their room can fill.
  std::array<int, kCanastaSize + 1> gaps{};
  for (uint64_t bits = ~(hand.none_bits() & m.naturals.none_bits()) & kNaturalBits; bits; bits &= bits - 1) {
    const int k = std::countr_zero(bits) >> 2;
    const int n = hand.count(k);
    int nat, wild, need_wild = 0;
    if (m.has(k)) {
      nat = m.naturals.count(k) + n;
      wild = m.wilds(k);
    } else if (n == 1) {
      return {false, 0};
    } else {
      nat = n;
      wild = 0;
      need_wild = n == 2 ? 1 : 0;
    }
    const int cap = wild_room(nat, wild, r);
    required += need_wild;
    room += cap;
    const int size = nat + wild + need_wild;
    const int missing = kCanastaSize - size;
    if (missing <= 0)
      ++canastas;
    else if (missing <= cap - need_wild)
      ++gaps[missing];
  }
  if (required > wilds || wilds > room) return {false, 0};
  // The spare wild cards fill the smallest gaps first, until one does not fit.
  int spare = wilds - required;
  for (int g = 1; g < kCanastaSize && canastas < enough; ++g) {
    const int fill = std::min(gaps[g], spare / g);
    canastas += fill;
    spare -= fill * g;
    if (fill < gaps[g]) break;
  }
  return {true, std::min(canastas, enough)};
}

bool can_go_out(const TurnCtx& c, const Rules& r) {
  if (c.flags & kAnsweredNo) return false;
  if (c.flags & kPilePending) {
    // Every card of the hand and of the pile must go, one as the discard: two
    // that no meld can ever take (out_with's first test) rule it out.
    if (stuck_card(c.hand + c.pile, c.melds) == kTwoStuck) return false;
    return pending_out(c, r, kTwo);
  }
  const int min_value = ((c.flags & kOpening) && !exempt(c)) ? std::max(c.need, 0) : 0;
  return out_with(c.hand, c, r, min_value);
}

bool viable(const TurnCtx& c, const Rules& r) {
  if (c.flags & (kAnsweredYes | kCommitted)) return can_go_out(c, r);
  if (opening_pending(c)) return reach_min(c, r) || (exempt(c) && can_go_out(c, r));
  const int h = c.hand.total();
  // One card left: discard it to go out, or meld it to complete the canastas.
  return h >= 2 || (h == 1 && (may_go_out(c, r) || can_go_out(c, r)));
}

}  // namespace canasta::detail
