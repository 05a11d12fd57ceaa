// Feasibility of the rest of a turn: the checks that keep the legal-action
// generator free of dead ends. Internal to the core.
#pragma once

#include <bit>

#include "canasta/rules.h"
#include "canasta/state.h"

namespace canasta::detail {

// What the rest of a turn depends on: the player's hand, the side's melds, the
// pile rest waiting for an opening, the opening value still needed, and the
// turn's flags.
struct TurnCtx {
  CardSet hand;
  TeamMelds melds;
  CardSet pile;    // pile rest waiting to join the hand (kPilePending), red threes left out
  int pile_n = 0;  // its number of cards
  int need = 0;    // opening value still needed (<= 0: met or not opening)
  uint16_t flags = 0;
};

struct Greedy {
  int value;   // largest card value meldable from the hand (no black threes)
  int melded;  // cards melded in that arrangement
};
// The most card value that can be melded from `hand` onto `melds`, in one turn.
Greedy greedy_max(CardSet hand, const TeamMelds& melds, const Rules& r);

struct MeldAll {
  bool ok;       // every card of the hand can be melded
  int canastas;  // the most canastas the side can then hold, at most `enough`
};
// Can every card of `hand` be melded onto `melds` (black threes as a 3-4
// meld)? Canastas beyond `enough` (at least 1) are not counted.
MeldAll meld_all(CardSet hand, const TeamMelds& melds, const Rules& r, int enough);

// Whether the player to move in the draw phase has a way to take the pile
// that leaves a turn able to end (legal_actions.cpp).
bool can_take_pile(const State& s);

// Whether `b3` black threes of a hand can all be melded onto `m`: none, or
// three or four as the side's one meld of them.
inline bool black_threes_meld(int b3, const TeamMelds& m) {
  return b3 == 0 || (b3 >= 3 && b3 <= 4 && !m.has(kBlack3));
}

// Profiles with wild melds or closed canastas: greedy_max and meld_all as an
// exact search over the ranks (meld_search.cpp).
Greedy greedy_max_dp(CardSet hand, const TeamMelds& melds, const Rules& r);
MeldAll meld_all_dp(CardSet hand, const TeamMelds& melds, const Rules& r, int enough);
// Whether meld_all_dp cannot succeed with one natural of rank `k` fewer in
// the hand (n - 1 instead of n) where it failed with n: every change of the
// meld's wild cards that n - 1 naturals allow, n allow too, with a canasta
// wherever n - 1 give one.
bool no_better_with_one_less(const TeamMelds& m, int k, int n, const Rules& r);
// Whether cleaning a canasta this turn could free a wild card: only with
// closed canastas, where a mixed canasta of seven takes a natural of the
// hand in place of a wild card.
bool cleaning_may_free(CardSet hand, const TeamMelds& m, const Rules& r);

// May the player go out from here (canastas, permission, opening)?
bool can_go_out(const TurnCtx& c, const Rules& r);
// Is there a legal way to finish the turn from here?
bool viable(const TurnCtx& c, const Rules& r);

// Whether a turn that must go out (kCommitted or kAnsweredYes; not opening,
// no pile waiting, in a profile with wild melds or closed canastas) can
// still end after each of several melds on natural ranks: the search of
// meld_all over the hand's ranks is done once forwards and once backwards
// (for each number of wild cards a meld takes), so that a meld then costs
// the search of its own rank. The answer of finishes() after the meld where
// that is the search of meld_all; -1 where it needs more (the hand emptied,
// the card to discard to be chosen). Built without work; the searches run
// at the first question.
class OutAfterMeld {
 public:
  static bool applies(uint16_t flags, const Rules& r) {
    return (flags & (kAnsweredYes | kCommitted)) && !(flags & (kOpening | kPilePending | kAnsweredNo)) &&
           (r.wild_melds || r.closed_canastas);
  }
  OutAfterMeld(const TurnCtx& c, const Rules& r) : c_(c), r_(r) {}
  // After melding x naturals, j jokers and t twos on natural rank k: 1 the
  // turn can end, 0 it cannot, -1 unknown (ask finishes()).
  int after(int k, int x, int j, int t);
  // The same after the cleaning `a` (kClean).
  int after_clean(Action a);

 private:
  __extension__ using Word = unsigned __int128;  // the lanes of meld_all_levels
  static constexpr int kMaxPlaced = 3;           // wild cards a meld takes (Rules::max_wilds), at most
  void start();
  void back(int placed);

  const TurnCtx& c_;
  const Rules& r_;
  bool started_ = false;
  bool dead_ = false;     // two cards stuck: no meld lets the turn end
  bool stuck_ = false;    // one card stuck: it is the discard
  bool no_plan_ = false;  // black threes that no meld of the rest takes
  int enough_ = 1, wilds_ = 0, n_ = 0;
  uint8_t layout_ = 0;      // the lanes of the words below (layout_for)
  uint8_t back_ready_ = 0;  // bit p: back_[p] is built
  CardSet hand_;            // the hand less the stuck card
  Word cells_, edges_;
  int8_t index_[kLastNatural + 1];               // a rank's place in the search, -1 none
  uint16_t masks_[kLastNatural + 1];             // the changes of each (change_masks)
  Word fwd_[kLastNatural + 2];                   // reached before each rank (at_least lanes)
  Word back_[kMaxPlaced + 1][kLastNatural + 2];  // from which each rank on can end, by wild cards placed
};

// True when a meld of rank `rank` with these added cards is a legal meld.
bool meld_shape_ok(const TeamMelds& m, int rank, int naturals, int wilds, const Rules& r);
// meld_shape_ok for a natural rank.
inline bool natural_shape_ok(const TeamMelds& m, int rank, int naturals, int wilds, const Rules& r) {
  const int nat = m.naturals.count(rank) + naturals;
  const int wild = m.wilds(rank) + wilds;
  if (nat < 2 || nat + wild < 3 || wild > r.max_wilds) return false;
  if (r.wilds_le_naturals && wild > nat) return false;
  if (r.closed_canastas && nat + wild > (wild > 0 ? kCanastaSize : kClosedNaturalMax)) return false;
  return naturals + wilds > 0;
}

// Adds to the meld of `rank` (kTwo: the wild meld).
inline void add_meld(TeamMelds& m, int rank, int naturals, int jokers, int twos) {
  m.naturals.add(rank, naturals);
  m.jokers.add(rank, jokers);
  m.twos.add(rank, twos);
}

// The melds after the cleaning `a`: a natural of the canasta's rank replaces
// the freed wild card, which joins the meld of a.dest() (with the natural
// pair from the hand, if any).
inline void apply_clean(TeamMelds& m, Action a) {
  const int k = a.kind(), q = a.dest();
  m.naturals.add(k);
  m.naturals.add(q, a.naturals());
  CardSet& wild = a.jokers() ? m.jokers : m.twos;
  wild.remove(k);
  wild.add(q);
}

// Calls f(a) for every cleaning of the canastas `ranks` (bit 4k, each a
// canasta of the hand's ranks holding a wild card): for_each_clean.
template <class F>
[[gnu::noinline]] void for_each_clean_of(uint64_t ranks, const TeamMelds& m, CardSet hand, const Rules& r,
                                         F&& f) {
  // Where the freed wild card can go, the same whichever canasta gives it
  // (bit 4q): onto an existing meld (the wild meld at kTwo), or into a new
  // one with a natural pair from the hand (a new meld of two naturals and a
  // wild card: legal under every profile's rules).
  const uint64_t melded = ~m.naturals.none_bits() & kNaturalBits;
  uint64_t onto = m.wild_room_bits(r);
  if (m.wild_meld() > 0 && meld_shape_ok(m, kTwo, 0, 1, r)) onto |= uint64_t{1} << (4 * kTwo);
  const uint64_t pair = hand.pair_bits() & ~melded & kNaturalBits;
  for (; ranks; ranks &= ranks - 1) {
    const int k = std::countr_zero(ranks) >> 2;
    const bool two = m.twos.count(k) > 0, joker = m.jokers.count(k) > 0;
    for (uint64_t qs = (onto | pair) & ~(uint64_t{1} << (4 * k)); qs; qs &= qs - 1) {
      const int q = std::countr_zero(qs) >> 2;
      if (onto >> (4 * q) & 1U) {
        if (two) f(Action::clean(k, false, q, false));
        if (joker) f(Action::clean(k, true, q, false));
      }
      if (pair >> (4 * q) & 1U) {
        if (two) f(Action::clean(k, false, q, true));
        if (joker) f(Action::clean(k, true, q, true));
      }
    }
  }
}

// Calls f(a) for every cleaning the cards of `hand` allow on `m` (profiles
// with closed canastas), in the canonical order (types.h). Only the shapes are
// checked here; whether the turn can then be finished is the caller's question.
template <class F>
void for_each_clean(const TeamMelds& m, CardSet hand, const Rules& r, F&& f) {
  // The ranks of the hand whose meld is a canasta holding a wild card.
  const uint64_t with_wild = ~(m.jokers.none_bits() & m.twos.none_bits());
  const uint64_t ranks = ~hand.none_bits() & with_wild & m.canasta_bits();
  if (ranks) for_each_clean_of(ranks, m, hand, r, f);
}

}  // namespace canasta::detail
