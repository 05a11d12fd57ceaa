// Game records: JSON Lines, one line per deal (core/doc/records.md).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canasta/engine.h"
#include "canasta/game.h"

namespace canasta {

struct DealRecord {
  std::string profile;  // profile spec with overrides, as parse_profile reads it
  uint64_t seed = 0;    // the game's seed
  int deal = 0;         // index of the deal in the game
  int dealer = 0;
  std::array<int32_t, kMaxTeams> scores_before{};
  Deck deck{};
  int deck_size = 0;
  std::vector<std::pair<int, Action>> actions;  // (seat, action)
  // The result.
  EndReason end = EndReason::kNone;
  int out_seat = -1;
  bool concealed = false;
  std::array<int32_t, kMaxTeams> deal_score{};
  std::array<int32_t, kMaxTeams> totals{};
  GameEnd game_end = GameEnd::kPlaying;
  int winner = -1;
};

// Fills the header of a record for the deal `s` was started with.
void begin_record(DealRecord& rec, const Game& g, const State& s);
// Fills the result from the finished deal and the game after finish_deal.
void end_record(DealRecord& rec, const State& s, const Game& g);

std::string to_json_line(const DealRecord& rec);
bool parse_record(std::string_view line, DealRecord& rec, std::string& error);

// Re-plays a record: every action must be legal for the seat that made it,
// and the result must equal the engine's own. Returns false with a message
// naming the first disagreement (its action index).
bool replay_record(const DealRecord& rec, std::string& error);

std::string_view end_name(EndReason e);
std::string_view game_end_name(GameEnd e);

}  // namespace canasta
