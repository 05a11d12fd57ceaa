// Replaying records through the engine (core/doc/records.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "canasta/game.h"
#include "canasta/record.h"

namespace canasta {

// Re-plays a record: every action must be legal for the seat that made it,
// and the result must equal the engine's own. Returns false with a message
// naming the first disagreement (its action index).
// `end` (optional) receives the deal's final state.
bool replay_record(const DealRecord& rec, std::string& error, State* end = nullptr);
// The same, keeping the deal's states for viewers: states[0] as dealt,
// states[i] after action i - 1.
bool replay_states(const DealRecord& rec, std::vector<State>& states, std::string& error);

// Checks a stream of records in order: every record replays clean; a game's
// records follow each other (same seed, the next deal, the rotated dealer,
// the totals carried, the deck the seed gives, the game result); a single
// deal's deck and dealer are those of its seed and index, from zero scores.
class RecordChecker {
 public:
  // Returns false with `error` naming the first disagreement.
  bool check(const DealRecord& rec, std::string& error);

  int64_t games = 0, game_deals = 0, single_deals = 0, actions = 0;

 private:
  Game game_;
  bool in_game_ = false;
};

}  // namespace canasta
