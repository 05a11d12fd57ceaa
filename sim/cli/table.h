// A deal's table as text, for `canasta show` and the human seat of
// `canasta play`: the pile, the stock, each side's melds and red threes, and
// the hands (all, or what one seat may see), in colour on a terminal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "canasta/record.h"
#include "canasta/state.h"

namespace canasta::cli {

struct TableStyle {
  int seat = -1;       // show only this seat's hand (-1: every hand)
  bool color = false;  // ANSI colours: wild cards, threes, canastas, the player to move
};

std::string table_text(const State& s, const TableStyle& style);
// The deal's score per side, item by item (for a deal that is over).
std::string score_text(const State& s);
// A seat's action as a line of the log: "seat 2: meld K: K K K".
std::string action_line(int seat, Action a);
// True when standard output is a terminal that takes colours.
bool color_terminal();

// A recorded deal with its states: states[0] as dealt, states[i] after action i - 1.
struct ShownDeal {
  int64_t line = 0;  // in its file
  DealRecord record;
  std::vector<State> states;
};

// A self-contained HTML page that steps through the deals (no network, no
// external script or font): the table drawn as cards, the action log and a
// chart of the sides' table scores.
std::string replay_page(const std::vector<ShownDeal>& deals);

}  // namespace canasta::cli
