// Positions as text: "key: value" lines (core/doc/notation.md#positions).
#pragma once

#include <string>
#include <string_view>

#include "canasta/state.h"

namespace canasta {

// parse_position accepts what position_to_string writes, and "stock: rest" to
// fill the stock with every card not placed elsewhere, in kind order.
std::string position_to_string(const State& s);
bool parse_position(std::string_view text, State& out, std::string& error);

}  // namespace canasta
