// A slow, obviously correct generator of legal actions, for differential tests.
//
// It tries every action that can be written, keeps those that the rules of
// core/doc/rules.md allow on their own (card by card, without looking ahead), and then
// keeps those after which the turn can still be finished legally, found by
// exhaustive search over the same local rules. Nothing here calls the
// engine's generator or its feasibility checks; it uses only apply_unchecked().
// The search is exponential; it gives up on a position past a node budget.
#pragma once

#include <optional>
#include <vector>

#include "canasta/engine.h"

namespace canasta::test {

// The legal actions in Action order, or nothing when the search needed more
// than its node budget (a rare position with a very large hand).
std::optional<std::vector<Action>> reference_legal_actions(const State& s);

}  // namespace canasta::test
