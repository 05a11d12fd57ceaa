// The rules engine: dealing, the legal actions of every phase (with the
// feasibility checks of feasible.h that keep them free of dead ends), and
// applying an action.
#include "canasta/engine.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <type_traits>
#include <utility>

#include "feasible.h"

namespace canasta {

using detail::TurnCtx;

CardSet State::pile_set() const {
  CardSet s;
  for (int i = 0; i < pile_size; ++i) s.add(pile[i]);
  return s;
}

int opening_minimum(const State& s, int team) { return s.rules.opening_minimum(s.score_before[team]); }

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

void add_meld(TeamMelds& m, int rank, int naturals, int jokers, int twos) {
  m.naturals.add(rank, naturals);
  m.jokers.add(rank, jokers);
  m.twos.add(rank, twos);
}

// The context after melding `used` (with `extra` natural from the pile top) on `rank`.
TurnCtx after_meld(TurnCtx c, const Rules& r, Action a, int from_pile) {
  const CardSet used = a.cards();
  c.hand = c.hand - used;
  if (a.type() == ActionType::kClean)
    detail::apply_clean(c.melds, a);
  else
    add_meld(c.melds, a.kind(), a.naturals() + from_pile, a.jokers(), a.twos());
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
  (void)r;
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
    if (finishes(after_meld(base, s.rules, a, 1), s.rules)) out[n++] = a;
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

// The wild cards one meld can take, as (jokers, twos) pairs in the order of
// the legal actions (jokers ascending, then twos ascending): every pair with
// j <= J, t <= T and lo <= j + t <= hi, for J, T, hi up to 3 (a meld takes
// at most 3 wild cards, check_rules) and lo 0 or 1. A pair is stored as the
// action's jokers and twos fields, j << 12 | t << 15.
constexpr int kSplitMax = 3;
// How many (jokers, twos) pairs WildSplits holds in all.
constexpr int wild_splits_size() {
  int n = 0;
  for (int J = 0; J <= kSplitMax; ++J)
    for (int T = 0; T <= kSplitMax; ++T)
      for (int lo = 0; lo < 2; ++lo)
        for (int hi = 0; hi <= kSplitMax; ++hi)
          for (int j = 0; j <= J; ++j)
            for (int t = 0; t <= T; ++t) n += j + t >= lo && j + t <= hi;
  return n;
}

class WildSplits {
 public:
  static constexpr int kMax = kSplitMax;
  constexpr WildSplits() {
    int n = 0;
    for (int i = 0; i < kLists; ++i) {
      start_[i] = static_cast<uint16_t>(n);
      const int J = i / (kSide * 2 * kSide), T = i / (2 * kSide) % kSide, lo = i / kSide % 2, hi = i % kSide;
      for (int j = 0; j <= J; ++j)
        for (int t = 0; t <= T; ++t)
          if (j + t >= lo && j + t <= hi)
            code_[n++] = static_cast<uint32_t>(j) << 12 | static_cast<uint32_t>(t) << 15;
    }
    start_[kLists] = static_cast<uint16_t>(n);
  }
  // The lists of J jokers and T twos (each at most kMax), for every lo and
  // hi: a pair with j + t <= hi has j, t <= hi, so the lists of any larger
  // J or T are those of kMax.
  const uint16_t* row(int J, int T) const { return &start_[index(J, T, 0, 0)]; }
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
  static constexpr int index(int J, int T, int lo, int hi) { return ((J * kSide + T) * 2 + lo) * kSide + hi; }
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
  const bool must_out = s.flags & (kAnsweredYes | kCommitted);
  const bool pending = (s.flags & kPilePending) || ((s.flags & kOpening) && m.any() && c.need > 0);
  const bool fast = !(s.flags & (kOpening | kPilePending | kAnsweredYes | kCommitted));
  // An opening turn with nothing else pending: a meld that reaches the
  // minimum needs no search.
  const bool opening_only = (s.flags & (kOpening | kPilePending | kAnsweredYes | kCommitted)) == kOpening;

  // Asking needs a way to go out (for a yes) and a way to finish without
  // going out (for a no): the partner's answer may never strand the player.
  // (Most hands hold two cards that only a discard can take: the test
  // can_go_out starts with, asked here first.)
  if (r.ask_partner && r.seats_per_team() >= 2 && !(s.flags & (kAsked | kMeldedExtra)) &&
      ((s.flags & kPilePending) || detail::stuck_card(hand, m) != detail::kTwoStuck) &&
      detail::can_go_out(c, r)) {
    TurnCtx after_no = c;
    after_no.flags |= kAnsweredNo;
    if (detail::viable(after_no, r)) out.push(Action::make(ActionType::kAsk));
  }

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
      if (ends < 0) ends = finishes(after_meld(c, r, a, 0), r);
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

  // Discards, in kind order. With two cards or more the turn simply ends;
  // the last card ends it by going out.
  bool may_discard;
  if (h >= 2) {
    may_discard = !must_out && !pending;
  } else {
    const bool exempt = (s.flags & kOpening) && (s.flags & kDrewStock);
    may_discard =
        !no && canastas >= r.canastas_to_go_out && !(s.flags & kPilePending) && (!pending || exempt);
  }
  if (may_discard)
    for (uint64_t kinds = ~hand.none_bits() & detail::kKindBits; kinds; kinds &= kinds - 1)
      out.push(Action::make(ActionType::kDiscard, std::countr_zero(kinds) >> 2));
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
    Action takes[3];
    if (s.rules.stock_end == StockEnd::kAfterLastDraw || take_actions(s, takes) == 0)
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
    add_meld(s.melds[s.team()], a.kind(), a.naturals() + from_pile, a.jokers(), a.twos());
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

namespace {

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
  const TurnCtx next = after_meld(c, s.rules, after, 0);
  if (next.hand.empty() && !(next.flags & kPilePending)) return finishes(next, s.rules);
  return detail::can_go_out(next, s.rules);
}

bool passes_deferred_check(const State& s, Action a) {
  assert(s.phase == Phase::kMeld && (a.type() == ActionType::kMeld || a.type() == ActionType::kClean));
  return finishes(after_meld(context(s), s.rules, a, 0), s.rules);
}

bool is_legal(const State& s, Action a) {
  ActionList list;
  legal_actions(s, list);
  return list.contains(a);
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
