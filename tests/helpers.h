// Test helpers: positions, actions, profiles and agents from text.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <span>
#include <string>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/game.h"
#include "canasta/notation.h"
#include "canasta/position.h"
#include "canasta/profile.h"
#include "canasta/stats.h"

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

// Rows read in duplicate, at a table of two sides.
constexpr RunShape kDuplicate{.duplicate = true};
// The summary of rows, read as `shape` says or as a run's configuration does.
inline Summary summary_of(std::span<const DealRow> rows, RunShape shape) {
  return summarize(tally(rows, shape), shape);
}
inline Summary summary_of(std::span<const DealRow> rows, const ExperimentConfig& c) {
  return summarize(tally(rows, RunShape::of(c)), c);
}
inline GameSummary game_summary_of(std::span<const GameRow> rows, RunShape shape) {
  return summarize_games(tally_games(rows, shape), shape);
}

// A scratch file's path of this process (ctest runs test files side by
// side), and a file's bytes.
std::string test_file_path(const std::string& name);
std::string file_contents(const std::string& path);

// Parses a position (core/doc/notation.md); fails the test on a bad position.
State position(const std::string& text);
// Parses an action; fails the test on bad notation.
Action action(const std::string& text);
// True when the action written `text` is legal in `s`.
bool legal(const State& s, const std::string& text);
// Applies the action written `text`, which must be legal.
void play(State& s, const std::string& text);
// Plays `actions` in `s`, after which the player has gone out, concealed or
// not, for a going-out bonus of `bonus` to side 0.
void expect_out(State& s, std::initializer_list<const char*> actions, bool concealed, int bonus);
// The legal actions as notation, joined by " | ".
std::string legal_list(const State& s);
// A profile spec's rules; fails the test on a bad spec.
Rules rules_of(const std::string& profile);
// An agent spec, and a new agent from it; fail the test on a bad spec.
AgentSpec agent_spec(const std::string& spec);
std::unique_ptr<Agent> agent(const std::string& spec);

// Plays `deals` deals of uniform random play (deal k as start_single_deal
// gives it, the actions drawn from the kRandomPlay stream of `seed` and k)
// and calls visit(state, legal actions) before every action. Stops at the
// first fatal test failure.
template <class Visit>
void random_play(const Rules& rules, int deals, uint64_t seed, Visit&& visit) {
  State s;
  ActionList list;
  for (int k = 0; k < deals; ++k) {
    start_single_deal(s, rules, seed, k);
    Rng rng(derive_seed(seed, Stream::kRandomPlay, static_cast<uint64_t>(k)));
    while (!s.over()) {
      legal_actions(s, list);
      visit(static_cast<const State&>(s), static_cast<const ActionList&>(list));
      if (::testing::Test::HasFatalFailure()) return;
      apply(s, list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
    }
  }
}

}  // namespace canasta::test
