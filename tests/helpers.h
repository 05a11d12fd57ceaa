// Test helpers: positions from text, actions from text.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "canasta/engine.h"
#include "canasta/notation.h"

namespace canasta::test {

// Parses a position (core/doc/notation.md); fails the test on a bad position.
State position(const std::string& text);
// Parses an action; fails the test on bad notation.
Action action(const std::string& text);
// True when the action written `text` is legal in `s`.
bool legal(const State& s, const std::string& text);
// Applies the action written `text`, which must be legal.
void play(State& s, const std::string& text);
// The legal actions as notation, joined by " | ".
std::string legal_list(const State& s);

}  // namespace canasta::test
