// The legal actions of every phase, with the feasibility checks of feasible.h
// that keep them free of dead ends.
#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <type_traits>
#include <utility>

#include "canasta/engine.h"
#include "feasible.h"

namespace canasta {

using detail::TurnCtx;

CardSet State::pile_set() const {
  CardSet s;
  for (int i = 0; i < pile_size; ++i) s.add(pile[i]);
  return s;
}

namespace {

// The pile without its red threes: what joins a hand when the pile is taken.
CardSet pile_cards(const State& s) {
  CardSet p = s.pile_set();
  p.set(kRed3, 0);
  return p;
}

TurnCtx context(const State& s) {
  TurnCtx c;
  c.hand = s.hand[s.seat];
  c.melds = s.melds[s.team()];
  c.flags = s.flags;
  c.need = (s.flags & kOpening) ? opening_minimum(s, s.team()) - s.turn_value : 0;
  if (s.flags & kPilePending) {
    c.pile = pile_cards(s);
    c.pile_n = c.pile.total();
  }
  return c;
}

// The context after the meld or cleaning `a` (with `from_pile` natural from
// the pile top, for a take).
TurnCtx after_meld(TurnCtx c, Action a, int from_pile) {
  const CardSet used = a.cards();
  c.hand = c.hand - used;
  if (a.type() == ActionType::kClean)
    detail::apply_clean(c.melds, a);
  else
    detail::add_meld(c.melds, a.kind(), a.naturals() + from_pile, a.jokers(), a.twos());
  c.need -= a.value() + from_pile * card_value(a.kind());
  if (a.kind() == kBlack3) c.flags |= kCommitted;
  if ((c.flags & kOpening) && c.need <= 0) {
    c.flags &= static_cast<uint16_t>(~kOpening);
    c.need = 0;
    if (c.flags & kPilePending) {
      c.hand = c.hand + c.pile;
      c.flags &= static_cast<uint16_t>(~kPilePending);
      c.pile = CardSet();
      c.pile_n = 0;
    }
  }
  return c;
}

// True when a turn in context `c` (just after a meld) can end legally.
bool finishes(const TurnCtx& c, const Rules& r) {
  if (c.hand.empty() && !(c.flags & kPilePending)) {
    // The player has gone out by melding the last card.
    const bool exempt = (c.flags & kOpening) && (c.flags & kDrewStock);
    return !(c.flags & kAnsweredNo) && c.melds.canastas() >= r.canastas_to_go_out &&
           (!(c.flags & kOpening) || exempt);
  }
  return detail::viable(c, r);
}

// The ways to take the pile; returns how many were written to `out`.
int take_actions(const State& s, Action* out) {
  if (s.pile_size == 0) return 0;
  const int t = s.top();
  if (!is_natural(t)) return 0;  // a wild card or a black three on top blocks the pile
  const CardSet& hand = s.hand[s.seat];
  if (s.rules.one_card_rule && hand.total() == 1 && s.pile_size == 1) return 0;
  const TeamMelds& m = s.melds[s.team()];
  const bool frozen = s.pile_frozen || !m.any();  // pile_frozen covers "until taken once" too
  Action cand[3];
  int nc = 0;
  if (frozen) {
    if (hand.count(t) >= 2) cand[nc++] = Action::make(ActionType::kTakePile, t, 2);
  } else if (m.has(t)) {
    cand[nc++] = Action::make(ActionType::kTakePile, t, 0);
  } else {
    if (hand.count(t) >= 2) cand[nc++] = Action::make(ActionType::kTakePile, t, 2);
    if (hand.count(t) >= 1 && hand.count(kJoker) >= 1)
      cand[nc++] = Action::make(ActionType::kTakePile, t, 1, 1, 0);
    if (hand.count(t) >= 1 && hand.count(kTwo) >= 1)
      cand[nc++] = Action::make(ActionType::kTakePile, t, 1, 0, 1);
  }
  if (nc == 0) return 0;
  // The turn after the take, built when a take needs it: an opened side's
  // take that leaves two cards of the hand can always end the turn (the
  // pile joins the hand at once).
  const bool opened = m.any();
  TurnCtx base;
  bool built = false;
  int n = 0;
  for (int i = 0; i < nc; ++i) {
    const Action a = cand[i];
    if (!detail::natural_shape_ok(m, t, a.naturals() + 1, a.jokers() + a.twos(), s.rules)) continue;
    if (opened && hand.total() - a.naturals() - a.jokers() - a.twos() >= 2) {
      out[n++] = a;
      continue;
    }
    if (!built) {
      base.hand = hand;
      base.melds = m;
      base.flags = static_cast<uint16_t>(kTookPile | (opened ? 0 : kOpening));
      base.need = opened ? 0 : opening_minimum(s, s.team());
      CardSet rest = pile_cards(s);
      rest.remove(t);
      if (base.flags & kOpening) {
        base.flags |= kPilePending;
        base.pile = rest;
        base.pile_n = rest.total();
      } else {
        base.hand = base.hand + rest;
      }
      built = true;
    }
    if (finishes(after_meld(base, a, 1), s.rules)) out[n++] = a;
  }
  return n;
}

void draw_actions(const State& s, ActionList& out) {
  if (s.stock_size() > 0) out.push(Action::make(ActionType::kDraw));
  Action takes[3];
  const int n = take_actions(s, takes);
  bool must = false;
  for (int i = 0; i < n; ++i) {
    out.push(takes[i]);
    must |= takes[i].naturals() == 0;
  }
  // With no stock, a pile that can be added to a meld must be taken; one that
  // can be taken only otherwise may be declined, which ends the deal.
  // Profiles where every take is compulsory (kMustTake) never offer the pass.
  if (s.stock_size() == 0 && n > 0 && !must && s.rules.stock_end != StockEnd::kMustTake)
    out.push(Action::make(ActionType::kPass));
}

}  // namespace

bool detail::can_take_pile(const State& s) {
  Action takes[3];
  return take_actions(s, takes) > 0;
}

namespace {

// The wild cards one meld can take, as (jokers, twos) pairs in the order of
// the legal actions (jokers ascending, then twos ascending): every pair with
// j <= jmax, t <= tmax and lo <= j + t <= hi, for jmax, tmax, hi up to 3 (a meld takes
// at most 3 wild cards, check_rules) and lo 0 or 1. A pair is stored as the
// action's jokers and twos fields, j << 12 | t << 15.
constexpr int kSplitMax = 3;
// How many (jokers, twos) pairs WildSplits holds in all.
constexpr int wild_splits_size() {
  int n = 0;
  for (int jmax = 0; jmax <= kSplitMax; ++jmax)
    for (int tmax = 0; tmax <= kSplitMax; ++tmax)
      for (int lo = 0; lo < 2; ++lo)
        for (int hi = 0; hi <= kSplitMax; ++hi)
          for (int j = 0; j <= jmax; ++j)
            for (int t = 0; t <= tmax; ++t) n += j + t >= lo && j + t <= hi;
  return n;
}

class WildSplits {
 public:
  static constexpr int kMax = kSplitMax;
  constexpr WildSplits() {
    int n = 0;
    for (int i = 0; i < kLists; ++i) {
      start_[i] = static_cast<uint16_t>(n);
      const int jmax = i / (kSide * 2 * kSide), tmax = i / (2 * kSide) % kSide, lo = i / kSide % 2,
                hi = i % kSide;
      for (int j = 0; j <= jmax; ++j)
        for (int t = 0; t <= tmax; ++t)
          if (j + t >= lo && j + t <= hi)
            code_[n++] = static_cast<uint32_t>(j) << 12 | static_cast<uint32_t>(t) << 15;
    }
    start_[kLists] = static_cast<uint16_t>(n);
  }
  // The lists of jmax jokers and tmax twos (each at most kMax), for every lo and
  // hi: a pair with j + t <= hi has j, t <= hi, so the lists of any larger
  // jmax or tmax are those of kMax.
  const uint16_t* row(int jmax, int tmax) const { return &start_[index(jmax, tmax, 0, 0)]; }
  // The pairs of a row for lo, hi as [first, last).
  std::pair<const uint32_t*, const uint32_t*> list(const uint16_t* row, int lo, int hi) const {
    const uint16_t* at = row + lo * kSide + hi;
    return {code_.data() + at[0], code_.data() + at[1]};
  }
  static constexpr int wilds(uint32_t code) {
    return static_cast<int>((code >> 12 & 7U) + (code >> 15 & 7U));
  }

 private:
  static constexpr int kSide = kMax + 1;
  static constexpr int kLists = kSide * kSide * 2 * kSide;
  static constexpr int index(int jmax, int tmax, int lo, int hi) {
    return ((jmax * kSide + tmax) * 2 + lo) * kSide + hi;
  }
  std::array<uint16_t, kLists + 1> start_{};
  std::array<uint32_t, wild_splits_size() + ActionList::kBlock> code_{};  // padded for push_codes
};
constexpr WildSplits kWildSplits;

// The most wild cards (hi) a meld of nat0 naturals and wild0 wild cards can
// take with x more naturals: at most Rules::max_wilds, never more wild cards
// than naturals with `le`, none past a closed canasta's size with `closed`
// (seven cards with a wild card, eight naturals), for counts up to 15, each
// set of rules one table of kRoomSize, built at compile time.
constexpr int kRoomSize = 16 * 4 * 16;
constexpr int room_index(int nat0, int wild0, int x) { return (nat0 * 4 + wild0) * 16 + x; }
constexpr auto kMeldRoom = [] {
  std::array<int8_t, 2 * 2 * 3 * kRoomSize> t{};
  for (int le = 0; le < 2; ++le)
    for (int closed = 0; closed < 2; ++closed)
      for (int mw = 1; mw <= 3; ++mw)
        for (int nat0 = 0; nat0 < 16; ++nat0)
          for (int wild0 = 0; wild0 < 4; ++wild0)
            for (int x = 0; x < 16; ++x) {
              const int nat = nat0 + x;
              int hi = std::max(std::min(mw - wild0, WildSplits::kMax), 0);
              if (le) hi = std::max(std::min(hi, nat - wild0), 0);
              if (closed) hi = std::min(hi, std::max(kCanastaSize - nat - wild0, 0));
              t[((le * 2 + closed) * 3 + mw - 1) * kRoomSize + room_index(nat0, wild0, x)] =
                  static_cast<int8_t>(hi);
            }
  return t;
}();

// The melds of each natural rank: x naturals from the hand, with the wild
// cards of kWildSplits, in that order. For each x the bounds on the wild
// cards added (j + t) are looked up once: at least one card added, and
// three in a new meld; at most the room for wild cards (kMeldRoom with
// LeNaturals or Closed).
// In a plain turn (`fast`) every meld that leaves two cards in the hand is
// legal as it is; the others go to `consider`.
struct NaturalMelds {
  const TeamMelds& m;
  CardSet hand;
  int h, max_wilds;
  bool fast;

  template <bool LeNaturals, bool Closed, class Consider>
  void run(ActionList& out, const Consider& consider) const {
    const int jokers = hand.count(kJoker), twos = hand.count(kTwo);
    const uint16_t* splits =
        kWildSplits.row(std::min(jokers, WildSplits::kMax), std::min(twos, WildSplits::kMax));
    const int8_t* rooms = kMeldRoom.data() + ((LeNaturals * 2 + Closed) * 3 + max_wilds - 1) *
                                                 kRoomSize;  // with LeNaturals or Closed
    // The ranks the side has melded, and those the hand holds two of (bit
    // 4k for rank k).
    // Without a wild card in hand, only naturals can be added: a melded rank
    // needs one from the hand, a new meld three.
    const bool no_wilds = jokers + twos == 0;
    const uint64_t melded = ~m.naturals.none_bits() & (no_wilds ? ~hand.none_bits() : ~uint64_t{0});
    const uint64_t pairs = no_wilds ? hand.pair_bits() & ~hand.two_bits() : hand.pair_bits();
    for (uint64_t ranks = (melded | pairs) & detail::kNaturalBits; ranks; ranks &= ranks - 1) {
      const int k = std::countr_zero(ranks) >> 2;
      const int n = hand.count(k);
      const int nat0 = m.naturals.count(k), wild0 = m.wilds(k);
      const int x0 = nat0 > 0 ? 0 : 2;
      const int room = std::min(max_wilds - wild0, WildSplits::kMax);
      // With Closed, a meld holds at most seven cards with a wild card, eight
      // naturals without one.
      int x_end = n;
      if constexpr (Closed)
        x_end = std::min(n, (wild0 > 0 ? kCanastaSize - wild0 : kClosedNaturalMax) - nat0);
      const int8_t* room_of = rooms + room_index(nat0, wild0, 0);
      for (int x = no_wilds ? x0 + 1 : x0; x <= x_end; ++x) {
        const int hi = LeNaturals || Closed ? room_of[x] : room;
        const int lo = x == x0 ? 1 : 0;  // x0 + the wild cards: one card added, or a new meld's three
        auto [p, end] = kWildSplits.list(splits, lo, hi);
        const uint32_t base = Action::make(ActionType::kMeld, k, x).raw();
        const int plain = fast ? h - x - 2 : -1;  // the wild cards that leave two cards or more
        if (hi <= plain) {
          out.push_codes(base, p, static_cast<int>(end - p));
        } else {
          for (; p != end; ++p) {
            const Action a(base | *p);
            if (WildSplits::wilds(*p) <= plain)
              out.push(a);
            else
              consider(a, !fast);
          }
        }
      }
    }
  }
};

struct NoOutAfterMeld {
  NoOutAfterMeld(const TurnCtx&, const Rules&) {}
};

// Whether the player may ask the partner to go out: asking needs a way to
// go out (for a yes) and a way to finish without going out (for a no), so
// that the partner's answer never strands the player. (Most hands hold two
// cards that only a discard can take: the test can_go_out starts with,
// asked here first.)
[[gnu::always_inline]] inline bool may_ask(const State& s, const TurnCtx& c) {
  const Rules& r = s.rules;
  if (!(r.ask_partner && r.seats_per_team() >= 2 && !(s.flags & (kAsked | kMeldedExtra)) &&
        ((s.flags & kPilePending) || detail::stuck_card(c.hand, c.melds) != detail::kTwoStuck) &&
        detail::can_go_out(c, r)))
    return false;
  TurnCtx after_no = c;
  after_no.flags |= kAnsweredNo;
  return detail::viable(after_no, r);
}

// Whether the turn may end with a discard: with two cards or more it
// simply ends (no "yes" or black threes to go out with, no opening still
// `pending`); the last card ends it by going out (the canastas the side
// needs, no "no" from the partner, no pile waiting, an opening pending only
// after a draw from the stock).
[[gnu::always_inline]] inline bool may_discard(const State& s, int h, int canastas, bool pending) {
  bool may;
  if (h >= 2) {
    may = !(s.flags & (kAnsweredYes | kCommitted)) && !pending;
  } else {
    const bool exempt = (s.flags & kOpening) && (s.flags & kDrewStock);
    may = !(s.flags & kAnsweredNo) && canastas >= s.rules.canastas_to_go_out && !(s.flags & kPilePending) &&
          (!pending || exempt);
  }
  return may;
}

// With `later`, the melds and cleanings whose legality needs the search of
// how the turn can end are listed unchecked and their positions kept there.
// With kOut, in a turn where detail::OutAfterMeld applies, the melds of
// natural ranks ask it first.
template <bool kDefer, bool kOut = false>
void meld_phase_actions(const State& s, ActionList& out, DeferredChecks* later) {
  const Rules& r = s.rules;
  const TurnCtx c = context(s);
  const CardSet hand = c.hand;
  const TeamMelds& m = c.melds;
  const int h = hand.total();
  const int canastas = m.canastas();
  const bool no = s.flags & kAnsweredNo;
  const bool pending = (s.flags & kPilePending) || ((s.flags & kOpening) && m.any() && c.need > 0);
  const bool fast = !(s.flags & (kOpening | kPilePending | kAnsweredYes | kCommitted));
  // An opening turn with nothing else pending: a meld that reaches the
  // minimum needs no search.
  const bool opening_only = (s.flags & (kOpening | kPilePending | kAnsweredYes | kCommitted)) == kOpening;

  if (may_ask(s, c)) out.push(Action::make(ActionType::kAsk));

  // With kOut (a turn that must go out), the same search asked of many melds.
  std::conditional_t<kOut, detail::OutAfterMeld, NoOutAfterMeld> out_after(c, r);

  // `used`: the hand cards the action melds; `k`, `added`: the meld that
  // grows and by how many cards.
  auto consider_move = [&](Action a, bool slow, int used, int k, int added) {
    if (!slow) {
      const int left = h - used;
      const int grown = m.size(k) + added;
      const int canastas_after = canastas + ((!m.is_canasta(k) && grown >= kCanastaSize) ? 1 : 0);
      if (left >= 2 || (!no && canastas_after >= r.canastas_to_go_out)) {
        out.push(a);
        return;
      }
      // One card left and too few canastas: only melding that card too, to
      // complete the canastas, can finish the turn.
      if (left == 0 || no) return;
    } else if (opening_only && h - used >= 2 && a.kind() != kBlack3 && a.value() >= c.need) {
      // It meets the opening minimum and leaves two cards: the turn then
      // ends as any other does.
      out.push(a);
      return;
    }
    if constexpr (kDefer) {
      later->push(out.size());
      out.push(a);
    } else {
      int ends = -1;
      if constexpr (kOut) {
        if (a.type() == ActionType::kClean)
          ends = out_after.after_clean(a);
        else if (is_natural(a.kind()))
          ends = out_after.after(a.kind(), a.naturals(), a.jokers(), a.twos());
      }
      if (ends < 0) ends = finishes(after_meld(c, a, 0), r);
      if (ends) out.push(a);
    }
  };
  auto consider = [&](Action a, bool slow) {
    const int used = a.naturals() + a.jokers() + a.twos();
    consider_move(a, slow, used, a.kind(), used);
  };

  const int jokers = hand.count(kJoker), twos = hand.count(kTwo);
  // The meld of wild cards only.
  if (r.wild_melds && jokers + twos > 0) {
    // j + t cards, at least one, to a meld of 3 to kCanastaSize.
    const int have = m.wild_meld();
    for (int j = 0; j <= std::min(jokers, kCanastaSize - have); ++j)
      for (int t = std::max({0, 3 - have - j, j == 0 ? 1 : 0}); t <= std::min(twos, kCanastaSize - have - j);
           ++t)
        consider(Action::make(ActionType::kMeld, kTwo, 0, j, t), !fast);
  }
  // Black threes: only as three or four at once, and only to go out.
  const int b3 = hand.count(kBlack3);
  if (b3 >= 3 && !m.has(kBlack3) && !no)
    for (int x = 3; x <= std::min(b3, 4); ++x) consider(Action::make(ActionType::kMeld, kBlack3, x), true);
  // The melds of each natural rank (a profile's rules select the loop once).
  const NaturalMelds melds{m, hand, h, r.max_wilds, fast};
  if (r.wilds_le_naturals)
    r.closed_canastas ? melds.run<true, true>(out, consider) : melds.run<true, false>(out, consider);
  else
    r.closed_canastas ? melds.run<false, true>(out, consider) : melds.run<false, false>(out, consider);

  // Cleanings: a natural from the hand replaces a wild card of a mixed
  // canasta; the wild card joins another meld at once.
  if (r.closed_canastas)
    detail::for_each_clean(m, hand, r, [&](Action a) {
      const int moved = 1 + a.naturals();  // from the hand, and onto the destination
      consider_move(a, !fast, moved, a.dest(), moved);
    });

  // Discards, in kind order.
  if (may_discard(s, h, canastas, pending))
    for (uint64_t kinds = ~hand.none_bits() & detail::kKindBits; kinds; kinds &= kinds - 1)
      out.push(Action::make(ActionType::kDiscard, std::countr_zero(kinds) >> 2));
}

[[gnu::always_inline]] inline void list_actions(const State& s, ActionList& out, DeferredChecks* later) {
  out.clear();
  if (later) later->clear();
  switch (s.phase) {
    case Phase::kDraw:
      draw_actions(s, out);
      break;
    case Phase::kMeld:
      if (later)
        meld_phase_actions<true>(s, out, later);
      else if (detail::OutAfterMeld::applies(s.flags, s.rules))
        meld_phase_actions<false, true>(s, out, nullptr);
      else
        meld_phase_actions<false>(s, out, nullptr);
      break;
    case Phase::kAnswer:
      out.push(Action::make(ActionType::kYes));
      out.push(Action::make(ActionType::kNo));
      break;
    case Phase::kOver:
      break;
  }
}

}  // namespace

void legal_actions(const State& s, ActionList& out) { list_actions(s, out, nullptr); }

void legal_actions(const State& s, ActionList& out, DeferredChecks* later) { list_actions(s, out, later); }

bool can_go_out(const State& s, Action after) {
  assert(after == Action{} || after.type() == ActionType::kMeld || after.type() == ActionType::kClean);
  if (s.phase != Phase::kMeld) return false;
  const TurnCtx c = context(s);
  if (after == Action{}) return detail::can_go_out(c, s.rules);
  const TurnCtx next = after_meld(c, after, 0);
  if (next.hand.empty() && !(next.flags & kPilePending)) return finishes(next, s.rules);
  return detail::can_go_out(next, s.rules);
}

bool passes_deferred_check(const State& s, Action a) {
  assert(s.phase == Phase::kMeld && (a.type() == ActionType::kMeld || a.type() == ActionType::kClean));
  return finishes(after_meld(context(s), a, 0), s.rules);
}

bool is_legal(const State& s, Action a) {
  ActionList list;
  legal_actions(s, list);
  return list.contains(a);
}

}  // namespace canasta
