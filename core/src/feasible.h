// Feasibility of the rest of a turn: the checks that keep the legal-action
// generator free of dead ends. Internal to the core.
#pragma once

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
  int canastas;  // the most canastas the side can then hold
};
// Can every card of `hand` be melded onto `melds` (black threes as a 3-4 meld)?
MeldAll meld_all(CardSet hand, const TeamMelds& melds, const Rules& r);

// May the player go out from here (canastas, permission, opening)?
bool can_go_out(const TurnCtx& c, const Rules& r);
// Is there a legal way to finish the turn from here?
bool viable(const TurnCtx& c, const Rules& r);

// True when a meld of rank `rank` with these added cards is a legal meld.
bool meld_shape_ok(const TeamMelds& m, int rank, int naturals, int wilds, const Rules& r);

}  // namespace canasta::detail
