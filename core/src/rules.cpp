#include "canasta/rules.h"

namespace canasta {

const char* check_rules(const Rules& r) {
  if (r.players < 2 || r.players > kMaxSeats || r.teams < 2 || r.teams > kMaxTeams ||
      r.players % r.teams != 0)
    return "unsupported table (2 to 6 players in 2 or 3 sides of equal size)";
  if (r.deck_cards() > kMaxCards) return "deck larger than the engine supports";
  if (r.max_wilds < 1 || r.max_wilds > 3) return "a meld takes 1 to 3 wild cards";
  if (r.canastas_to_go_out < 1 || r.canastas_to_go_out > 3) return "a side needs 1 to 3 canastas to go out";
  const int stock = r.deck_cards() - r.players * r.hand_size - 1;
  if (stock < 2 * r.players) return "too many cards dealt for the deck";
  return nullptr;
}

}  // namespace canasta
