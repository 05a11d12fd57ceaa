// A game: deals in series, the dealer rotating, until a side wins (core/doc/rules.md section 11).
#pragma once

#include <array>
#include <cstdint>

#include "canasta/engine.h"

namespace canasta {

enum class GameEnd : uint8_t {
  kPlaying,    // more deals to play
  kWon,        // `winner` reached the target with the strictly highest total
  kDrawn,      // a tie at or above the target under TieRule::kDraw
  kAbandoned,  // Rules::max_deals deals played without a winner
};

struct Game {
  Rules rules;
  uint64_t seed = 0;
  int deal = 0;    // index of the next deal
  int dealer = 0;  // dealer of the next deal
  std::array<int32_t, kMaxTeams> totals{};
  GameEnd end = GameEnd::kPlaying;
  int winner = -1;
};

// A new game: the first dealer is drawn by lot from the seed.
Game new_game(const Rules& rules, uint64_t seed);

// The deck of deal `deal` of the game with this seed.
int game_deck(const Rules& rules, uint64_t seed, int deal, Deck& deck);

// Starts the game's next deal in `s`.
void start_next_deal(const Game& g, State& s);

// A single deal outside any game (a simulation's deal `k`): its deck comes
// from the stream (seed, k), its dealer is k mod players, both sides start at 0.
int single_deal_deck(const Rules& rules, uint64_t seed, int64_t k, Deck& deck);
void start_single_deal(State& s, const Rules& rules, uint64_t seed, int64_t k);

// Adds a finished deal's scores, rotates the dealer and decides the game.
void finish_deal(Game& g, const State& s);

}  // namespace canasta
