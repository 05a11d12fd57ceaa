#include "feasible.h"

#include <algorithm>
#include <array>

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
  auto try_rest = [&](CardSet melded) {
    if (melded.value() < min_value) return false;
    MeldAll m = meld_all(melded, c.melds, r);
    return m.ok && m.canastas >= r.canastas_to_go_out;
  };
  if (try_rest(rest)) return true;
  for (uint16_t kinds = rest.kinds(); kinds; kinds &= static_cast<uint16_t>(kinds - 1)) {
    CardSet melded = rest;
    melded.remove(std::countr_zero(kinds));
    if (try_rest(melded)) return true;
  }
  return false;
}

TurnCtx with_meld(TurnCtx c, int rank, int x, int j, int t) {
  CardSet used;
  used.add(rank, x);
  used.add(kJoker, j);
  used.add(kTwo, t);
  c.hand = c.hand - used;
  c.melds.naturals.add(rank, x);
  c.melds.jokers.add(rank, j);
  c.melds.twos.add(rank, t);
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

// Going out after an opening by the pile: meld from the hand until the
// minimum is met (the rest of the pile then joins the hand), then meld
// everything. An exact search over the melds made before the pile arrives,
// one rank at a time in rank order (the order of melds does not matter).
bool pending_out(const TurnCtx& c, const Rules& r, int from) {
  const CardSet hand = c.hand;
  const int jokers = hand.count(kJoker), twos = hand.count(kTwo);
  for (int k = std::max(from, static_cast<int>(kBlack3)); k <= kLastNatural; ++k) {
    const int n = hand.count(k);
    const bool has = c.melds.has(k);
    if (k == kBlack3) {
      if (has) continue;
      for (int x = 3; x <= std::min(n, 4); ++x) {
        const TurnCtx c2 = with_meld(c, k, x, 0, 0);
        if (!(c2.flags & kPilePending) ? can_go_out(c2, r) : pending_out(c2, r, k + 1)) return true;
      }
      continue;
    }
    if (!has && n < 2) continue;
    const int room = r.max_wilds - c.melds.wilds(k);
    for (int x = has ? 0 : 2; x <= n; ++x)
      for (int j = 0; j <= std::min(jokers, room); ++j)
        for (int t = 0; t <= std::min(twos, room - j); ++t) {
          if (x + j + t == 0 || !meld_shape_ok(c.melds, k, x, j + t, r)) continue;
          const TurnCtx c2 = with_meld(c, k, x, j, t);
          if (c2.flags & kPilePending) {
            if (!c2.hand.empty() && pending_out(c2, r, k + 1)) return true;
          } else if (can_go_out(c2, r)) {
            return true;
          }
        }
  }
  return false;
}

// The opening minimum can be met by melding from the hand, leaving a turn that
// can end: with at least `keep` cards in hand (rest of the pile aside), or by
// going out.
bool reach_min(const TurnCtx& c, const Rules& r) {
  const int rest_n = (c.flags & kPilePending) ? c.pile_n : 0;
  const int keep = std::max(0, 2 - rest_n);
  const Greedy g = greedy_max(c.hand, c.melds, r);
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
  return rest_n == 1 && pending_out(c, r, kBlack3);
}

}  // namespace

bool meld_shape_ok(const TeamMelds& m, int rank, int naturals, int wilds, const Rules& r) {
  if (rank == kBlack3) return wilds == 0 && !m.has(kBlack3) && (naturals == 3 || naturals == 4);
  const int nat = m.naturals.count(rank) + naturals;
  const int wild = m.wilds(rank) + wilds;
  if (nat < 2 || nat + wild < 3 || wild > r.max_wilds) return false;
  if (r.wilds_le_naturals && wild > nat) return false;
  return naturals + wilds > 0;
}

Greedy greedy_max(CardSet hand, const TeamMelds& m, const Rules& r) {
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

MeldAll meld_all(CardSet hand, const TeamMelds& m, const Rules& r) {
  const int b3 = hand.count(kBlack3);
  if (b3 != 0 && (b3 < 3 || b3 > 4 || m.has(kBlack3))) return {false, 0};
  const int wilds = hand.wilds();
  int required = 0, room = 0, canastas = 0, gaps = 0;
  std::array<int, 11> gap{};
  for (int k = kFirstNatural; k <= kLastNatural; ++k) {
    const int n = hand.count(k);
    int nat, wild, need_wild = 0;
    if (m.has(k)) {
      nat = m.naturals.count(k) + n;
      wild = m.wilds(k);
    } else if (n == 0) {
      continue;
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
    if (missing <= 0) {
      ++canastas;
    } else if (missing <= cap - need_wild) {
      int i = gaps++;
      while (i > 0 && gap[i - 1] > missing) {
        gap[i] = gap[i - 1];
        --i;
      }
      gap[i] = missing;
    }
  }
  if (required > wilds || wilds > room) return {false, 0};
  int spare = wilds - required;
  for (int i = 0; i < gaps && gap[i] <= spare; ++i) {
    spare -= gap[i];
    ++canastas;
  }
  return {true, canastas};
}

bool can_go_out(const TurnCtx& c, const Rules& r) {
  if (c.flags & kAnsweredNo) return false;
  if (c.flags & kPilePending) return pending_out(c, r, kBlack3);
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
