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

// kGame: a deal of a game (deck from the game's seed and deal index, the
// dealer rotating, scores carried). kSingle: a single deal outside any game
// (start_single_deal: deck from (seed, deal), dealer deal mod players).
enum class RecordKind : uint8_t { kGame, kSingle };

// The longest agent text a record may hold (a spec with every parameter
// of the largest agent is about 450 characters).
constexpr size_t kMaxAgentText = 1000;

struct DealRecord {
  RecordKind kind = RecordKind::kGame;
  Rules rules;        // written as its profile spec
  uint64_t seed = 0;  // the game's seed, or the simulation's for a single deal
  int64_t deal = 0;   // index of the deal in the game, or in the simulation
  int dealer = 0;
  std::vector<std::string> agents;  // agent spec per seat, if known (its form is checked, not the agent)
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

// Fills the header of a record for the deal `s` was started with: deal
// `g.deal` of game `g`, or single deal `deal` of the simulation `seed`.
// The actions and agents are left empty.
void begin_record(DealRecord& rec, const Game& g, const State& s);
void begin_single_record(DealRecord& rec, const State& s, uint64_t seed, int64_t deal);
// Fills the result from the finished deal (a single deal's totals are its
// scores; its game stays "playing"), and from the game after finish_deal.
void end_record(DealRecord& rec, const State& s);
void end_record(DealRecord& rec, const State& s, const Game& g);

// The record as one line of JSON (without, or appended to `out` with, its newline).
std::string to_json_line(const DealRecord& rec);
void append_json_line(std::string& out, const DealRecord& rec);
// Reads a line; returns false with a one-line error naming the bad field.
// An agent must be written as the program writes one (core/doc/records.md).
bool parse_record(std::string_view line, DealRecord& rec, std::string& error);

std::string_view end_name(EndReason e);
std::string_view game_end_name(GameEnd e);

}  // namespace canasta
