// Test helpers: positions, actions, profiles and agents from text.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/notation.h"
#include "canasta/position.h"
#include "canasta/profile.h"

namespace canasta::test {

// How many random deals a test plays: `n`, `more` times as many with
// CANASTA_LONG_TESTS, a quarter under the sanitizers (CANASTA_SANITIZED),
// where every action is also checked and play is about ten times slower;
// the release build plays them all.
constexpr int test_deals(int n, [[maybe_unused]] int more) {
#if defined(CANASTA_LONG_TESTS)
  return n * more;
#elif defined(CANASTA_SANITIZED)
  return n / 4;
#else
  return n;
#endif
}

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
// A profile spec's rules; fails the test on a bad spec.
Rules rules_of(const std::string& profile);
// An agent spec, and a new agent from it; fail the test on a bad spec.
AgentSpec agent_spec(const std::string& spec);
std::unique_ptr<Agent> agent(const std::string& spec);

}  // namespace canasta::test
