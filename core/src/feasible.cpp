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

// ---------------------------------------------------------------------------
// Profiles with wild melds or closed canastas: an exact dynamic programme over
// the ranks. For each natural rank the turn melds x of the hand's naturals and
// changes the meld's wild cards by d (d < 0: cleaning frees -d wild cards);
// the wild meld takes y more wild cards. Wild cards are interchangeable for
// feasibility, so the ranks interact only through D = the sum of the d's: the
// hand places P = D + y of its wild cards, 0 <= P <= its wild cards. A new
// wild meld is started with three wild cards from the hand (P >= 3); freed
// wild cards join existing melds, new melds with a natural pair, or the wild
// meld. Every plan that satisfies these counts can be played in some order
// (naturals first, then cleanings, then wild cards), so the programme is exact.

constexpr int kDMin = -kCanastaSize;  // net wild cards freed, at most what the wild meld absorbs
constexpr int kDMax = 18;             // net wild cards placed, at most the hand's (12 twos, 6 jokers)
constexpr int kDSpan = kDMax - kDMin + 1;

// One way to play rank k this turn.
struct RankMove {
  int x;     // naturals melded from the hand
  int d;     // change of the meld's wild cards
  bool can;  // the meld is then a canasta
};

// The ways to play rank `k` with `n` naturals in hand (x = n only when `all`);
// returns how many were written.
int rank_moves(const TeamMelds& m, int k, int n, bool all, const Rules& r, RankMove* out) {
  const int nat0 = m.naturals.count(k), w0 = m.wilds(k);
  const int nat_cap = r.closed_canastas ? kClosedNaturalMax : 99;
  int cnt = 0;
  for (int x = all ? n : 0; x <= n; ++x) {
    const int nat = nat0 + x;
    if (nat0 == 0) {
      if (x == 0) {
        out[cnt++] = {0, 0, false};
        continue;
      }
      if (x < 2) continue;
    }
    for (int d = -w0; d <= r.max_wilds - w0; ++d) {
      const int w = w0 + d, size = nat + w;
      if (size < 3 || (r.wilds_le_naturals && w > nat)) continue;
      if (d < 0) {
        // Cleaning: the meld reaches seven, then naturals replace wild cards.
        if (!r.closed_canastas || size < kCanastaSize || size > (w > 0 ? kCanastaSize : nat_cap)) continue;
      } else if (x > 0 || d > 0) {
        if (r.closed_canastas && size > (w > 0 ? kCanastaSize : nat_cap)) continue;
      }
      out[cnt++] = {x, d, size >= kCanastaSize};
    }
  }
  return cnt;
}

// Largest y the wild meld can take, and whether a new one must be started.
struct WildMeld {
  int have;  // cards in the side's wild meld
  int room;  // most it can take (0 without wild melds)
};
WildMeld wild_meld_of(const TeamMelds& m, const Rules& r) {
  const int have = m.wild_meld();
  return {have, r.wild_melds ? kCanastaSize - have : 0};
}
bool wild_meld_ok(const WildMeld& wm, int y, int placed) {
  if (y == 0) return true;
  if (y > wm.room) return false;
  return wm.have > 0 || (y >= 3 && placed >= 3);
}

int wild_value(int placed, int jokers) {
  const int j = std::min(placed, jokers);
  return card_value(kJoker) * j + card_value(kTwo) * (placed - j);
}

Greedy greedy_max_dp(CardSet hand, const TeamMelds& m, const Rules& r) {
  // best[D]: the most natural value (then the fewest naturals) with net wild change D.
  struct Cell {
    int value = -1;
    int melded = 0;
  };
  std::array<Cell, kDSpan> best{}, next{};
  int lo = -kDMin, hi = -kDMin;  // the cells that can be reached
  best[lo] = {0, 0};
  RankMove moves[128];
  for (int k = kFirstNatural; k <= kLastNatural; ++k) {
    const int n = hand.count(k);
    if (n == 0 && !m.has(k)) continue;
    const int cnt = rank_moves(m, k, n, false, r, moves);
    next.fill(Cell{});
    int nlo = kDSpan, nhi = -1;
    for (int i = lo; i <= hi; ++i) {
      if (best[i].value < 0) continue;
      for (int c = 0; c < cnt; ++c) {
        const int j = i + moves[c].d;
        if (j < 0 || j >= kDSpan) continue;
        const Cell cand{best[i].value + moves[c].x * card_value(k), best[i].melded + moves[c].x};
        if (cand.value > next[j].value || (cand.value == next[j].value && cand.melded < next[j].melded))
          next[j] = cand;
        nlo = std::min(nlo, j);
        nhi = std::max(nhi, j);
      }
    }
    best = next;
    lo = nlo;
    hi = nhi;
  }
  const int wilds = hand.wilds(), jokers = hand.count(kJoker);
  const WildMeld wm = wild_meld_of(m, r);
  Greedy g{0, 0};
  for (int i = 0; i < kDSpan; ++i) {
    if (best[i].value < 0) continue;
    const int D = i + kDMin;
    for (int y = 0; y <= wm.room; ++y) {
      const int placed = D + y;
      if (placed < 0 || placed > wilds || !wild_meld_ok(wm, y, placed)) continue;
      const int value = best[i].value + wild_value(placed, jokers);
      const int melded = best[i].melded + placed;
      if (value > g.value || (value == g.value && melded < g.melded)) g = {value, melded};
    }
  }
  return g;
}

MeldAll meld_all_dp(CardSet hand, const TeamMelds& m, const Rules& r) {
  // A single natural of a rank the side has not melded can never go: the
  // common answer, found before any table is built.
  for (uint16_t kinds = hand.kinds() & ~m.ranks() & 0x7FF0; kinds; kinds &= static_cast<uint16_t>(kinds - 1))
    if (hand.count(std::countr_zero(kinds)) == 1) return {false, 0};
  // most[D]: the most canastas of natural ranks with net wild change D (-1:
  // impossible); only the cells lo .. hi can be reached.
  std::array<int, kDSpan> most{}, next{};
  most.fill(-1);
  int lo = -kDMin, hi = -kDMin;
  most[lo] = 0;
  RankMove moves[128];
  for (int k = kFirstNatural; k <= kLastNatural; ++k) {
    const int n = hand.count(k);
    if (n == 0 && !m.has(k)) continue;
    const int cnt = rank_moves(m, k, n, true, r, moves);
    if (cnt == 0) return {false, 0};
    next.fill(-1);
    int nlo = kDSpan, nhi = -1;
    for (int i = lo; i <= hi; ++i) {
      if (most[i] < 0) continue;
      for (int c = 0; c < cnt; ++c) {
        const int j = i + moves[c].d;
        if (j < 0 || j >= kDSpan) continue;
        next[j] = std::max(next[j], most[i] + (moves[c].can ? 1 : 0));
        nlo = std::min(nlo, j);
        nhi = std::max(nhi, j);
      }
    }
    if (nhi < 0) return {false, 0};
    most = next;
    lo = nlo;
    hi = nhi;
  }
  const int wilds = hand.wilds();
  const WildMeld wm = wild_meld_of(m, r);
  int found = -1;
  for (int i = 0; i < kDSpan; ++i) {
    if (most[i] < 0) continue;
    const int y = wilds - (i + kDMin);  // every wild card of the hand is placed
    if (y < 0 || !wild_meld_ok(wm, y, wilds)) continue;
    found = std::max(found, most[i] + (wm.have + y >= kCanastaSize ? 1 : 0));
  }
  if (found < 0) return {false, 0};
  return {true, found};
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
  // Too few canastas whatever is melded: nothing to search.
  if (!r.closed_canastas && c.melds.canastas_bound(rest, r.wild_melds) < r.canastas_to_go_out) return false;
  auto try_rest = [&](CardSet melded) {
    if (melded.value() < min_value) return false;
    MeldAll m = meld_all(melded, c.melds, r);
    return m.ok && m.canastas >= r.canastas_to_go_out;
  };
  // Cards that no meld can take: a lone natural of a rank the side has not
  // melded (a new meld needs two naturals), one or two black threes (they
  // meld as three or four). Only one card can be left, for the discard: with
  // two such kinds nothing goes, with one only its discard may.
  int stuck = 0, stuck_kind = 0;
  for (uint16_t lone = rest.kinds() & ~c.melds.ranks() & 0x7FF0; lone;
       lone &= static_cast<uint16_t>(lone - 1)) {
    const int k = std::countr_zero(lone);
    if (rest.count(k) == 1) ++stuck, stuck_kind = k;
  }
  const int b3 = rest.count(kBlack3);
  if (b3 == 2) return false;
  if (b3 == 1) ++stuck, stuck_kind = kBlack3;
  if (stuck >= 2) return false;
  if (stuck == 1) {
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
    CardSet melded = rest;
    melded.remove(std::countr_zero(kinds));
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
  m.naturals.add(rank, x);
  m.jokers.add(rank, j);
  m.twos.add(rank, t);
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
          if (x + j + t == 0 || !meld_shape_ok(c.melds, k, x, j + t, r)) continue;
          if (pending_next(with_meld(c, k, x, j, t), r, k + 1)) return true;
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
  return rest_n == 1 && pending_out(c, r, kTwo);
}

}  // namespace

bool meld_shape_ok(const TeamMelds& m, int rank, int naturals, int wilds, const Rules& r) {
  if (rank == kBlack3) return wilds == 0 && !m.has(kBlack3) && (naturals == 3 || naturals == 4);
  if (rank == kTwo) {
    const int size = m.wild_meld() + wilds;
    return r.wild_melds && naturals == 0 && wilds > 0 && size >= 3 && size <= kCanastaSize;
  }
  if (!is_natural(rank)) return false;
  const int nat = m.naturals.count(rank) + naturals;
  const int wild = m.wilds(rank) + wilds;
  if (nat < 2 || nat + wild < 3 || wild > r.max_wilds) return false;
  if (r.wilds_le_naturals && wild > nat) return false;
  if (r.closed_canastas && nat + wild > (wild > 0 ? kCanastaSize : kClosedNaturalMax)) return false;
  return naturals + wilds > 0;
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

MeldAll meld_all(CardSet hand, const TeamMelds& m, const Rules& r) {
  const int b3 = hand.count(kBlack3);
  if (b3 != 0 && (b3 < 3 || b3 > 4 || m.has(kBlack3))) return {false, 0};
  if (r.wild_melds || r.closed_canastas) return meld_all_dp(hand, m, r);
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
  if (c.flags & kPilePending) return pending_out(c, r, kTwo);
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
