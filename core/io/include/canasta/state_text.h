// A deal in play as text: its start and the ids of its actions, lines of
// numbers, never raw memory (the Python module's serialize_state,
// sim/doc/python.md):
//
//   canasta-state/3
//   profile two-player,target=3000
//   deal SEED INDEX DEALER SCORE... DECK    (a deal of a seed)
//   world DEALER SCORE... DECK              (a redrawn deal: its deck alone)
//   actions ID...
//
// SCORE: each side's score before the deal; DECK: the deck in dealt order,
// one hexadecimal digit a card (its kind); ID: an action's id (action_ids.h).
// Texts of canasta-state/2 with a deal line read the same.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/action_ids.h"
#include "canasta/state.h"

namespace canasta {

// A deal from its start: how it was dealt, and every action since.
struct DealHistory {
  State start;          // the deal as dealt (start_deal)
  bool of_seed = true;  // deal `deal` of `seed` (start_single_deal), or a deck alone (redrawn)
  uint64_t seed = 0;    // of_seed only
  int64_t deal = 0;     // of_seed only
  std::vector<Action> actions;
};

// The text of `h`; `ids` are its profile's.
std::string state_text(const DealHistory& h, const ActionIds& ids);

// Reads the text of a deal of profile `rules` (ids: its ids), replaying its
// actions, each checked. Returns false with a one-line, printable `error`
// at the first number out of what the game can reach: a seed above
// 2^64 - 1 or below 0, a deal index below 0, a dealer who is no seat, scores
// before the deal that no game reaches (each side's within what max_deals - 1
// deals can score, kept where a deal's score added cannot overflow, and no
// side alone at or above the target, nor a tie there under TieRule::kDraw:
// such a game is over), a deck that is not the profile's pack, an action id
// out of range or illegal; at a text of another version or profile; and at
// anything more on a line or after the last.
bool parse_state_text(std::string_view text, const Rules& rules, const ActionIds& ids, DealHistory& out,
                      std::string& error);

}  // namespace canasta
