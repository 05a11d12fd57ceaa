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

// May the player go out from here (canastas, permission, opening)?
bool can_go_out(const TurnCtx& c, const Rules& r);
// Is there a legal way to finish the turn from here?
bool viable(const TurnCtx& c, const Rules& r);

// True when a meld of rank `rank` with these added cards is a legal meld.
bool meld_shape_ok(const TeamMelds& m, int rank, int naturals, int wilds, const Rules& r);

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

// Calls f(a) for every cleaning the cards of `hand` allow on `m` (profiles
// with closed canastas), in the canonical order (types.h). Only the shapes are
// checked here; whether the turn can then be finished is the caller's question.
template <class F>
void for_each_clean(const TeamMelds& m, CardSet hand, const Rules& r, F&& f) {
  // The ranks of the hand whose meld holds a wild card.
  const uint64_t with_wild = ~(m.jokers.none_bits() & m.twos.none_bits());
  for (uint64_t ranks = ~hand.none_bits() & with_wild & kNaturalBits; ranks; ranks &= ranks - 1) {
    const int k = std::countr_zero(ranks) >> 2;
    if (!m.is_canasta(k)) continue;
    for (int q = kTwo; q <= kLastNatural; ++q) {
      if (q == k || q == kRed3 || q == kBlack3) continue;
      for (int pair = 0; pair <= 2; pair += 2) {
        // Onto an existing meld (the wild meld included), or a new one with a pair.
        if (pair ? (q == kTwo || m.has(q) || hand.count(q) < 2) : !(q == kTwo ? m.wild_meld() > 0 : m.has(q)))
          continue;
        if (!meld_shape_ok(m, q, pair, 1, r)) continue;
        if (m.twos.count(k)) f(Action::clean(k, false, q, pair != 0));
        if (m.jokers.count(k)) f(Action::clean(k, true, q, pair != 0));
      }
    }
  }
}

}  // namespace canasta::detail
