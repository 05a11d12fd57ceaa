// Self-play: single deals in parallel on the oneTBB pool, and whole games.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/game.h"
#include "canasta/record.h"

namespace canasta {

// Counts over finished deals. Integer sums only, so any combination order
// gives the same numbers.
struct DealStats {
  int64_t deals = 0;
  int64_t went_out = 0;        // a player went out (normally or concealed)
  int64_t concealed = 0;       // ... concealed
  int64_t stock_out = 0;       // the stock ran out
  int64_t red_three_last = 0;  // the last card of the stock was a red three
  int64_t actions = 0;         // actions played
  int64_t turns = 0;           // turns begun
  int64_t natural_canastas = 0;
  int64_t mixed_canastas = 0;
  std::array<int64_t, kMaxTeams> score{};  // sum of deal scores per side

  void add(const DealStats& o);
  void count(const State& finished, int actions);
};

// Plays the deal to its end with uniformly random legal actions; returns the
// number of actions played. `scratch` is reused, so nothing is allocated.
int play_random_deal(State& s, Rng& rng, ActionList& scratch);

struct SimConfig {
  Rules rules;
  uint64_t seed = 1;
  int64_t deals = 100000;
  int threads = 0;  // 0: all cores
};

struct SimResult {
  DealStats stats;
  double seconds = 0;
  int threads = 0;
};

// Plays `deals` independent random-play deals on the task pool. The numbers
// are the same for every thread count. `progress` (optional) is called from
// worker threads with the number of deals finished so far.
SimResult run_random_deals(const SimConfig& config, const std::function<void(int64_t)>& progress = {});

// Plays a whole game with one agent per seat. `on_deal` (optional) receives
// each finished deal's record.
Game play_game(const Rules& rules, uint64_t seed, const std::array<Agent*, kMaxSeats>& agents,
               const std::function<void(const DealRecord&)>& on_deal = {});

}  // namespace canasta
