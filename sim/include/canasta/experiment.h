// Experiments: agents per side over many deals on the oneTBB pool, in
// duplicate when two different agents meet, with per-deal rows and a summary
// that is a pure function of the rows in deal order (so shards merge exactly).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "canasta/rules.h"

namespace canasta {

struct ExperimentConfig {
  std::string profile = "classic";  // profile spec
  std::string side0 = "random";     // agent spec of side 0
  std::string side1 = "random";     // agent spec of side 1
  // Seats that play another spec than their side's (seat, spec). In the
  // duplicate twin the named agent moves with its side, to the next seat.
  std::vector<std::pair<int, std::string>> seats;
  uint64_t seed = 1;
  int64_t deals = 100000;     // deal indices 0 .. deals-1 (each played twice in duplicate)
  int64_t games = 0;          // run_games: game indices 0 .. games-1
  bool duplicate = false;     // also play every deal with the sides' agents swapped
  int shard = 0, shards = 1;  // run only the indices k with k % shards == shard
  int threads = 0;            // 0: all cores
  // Sequential probability ratio test on Elo (sprt_on): H0 elo = elo0 against
  // H1 elo = elo1; deals run in batches of 1024 indices and the run stops at
  // the first batch after which the log-likelihood ratio crosses a bound.
  bool sprt_on = false;
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
};

// How many of the indices 0 .. n-1 the shard of `c` plays (those with
// index mod shards = shard).
inline int64_t shard_size(int64_t n, const ExperimentConfig& c) {
  return n > c.shard ? (n - c.shard + c.shards - 1) / c.shards : 0;
}

// The state of a sequential test.
struct SprtResult {
  double llr = 0;               // log-likelihood ratio of H1 against H0
  double lower = 0, upper = 0;  // ln(beta / (1 - alpha)), ln((1 - beta) / alpha)
  int decision = 0;             // +1: H1 accepted, -1: H0 accepted, 0: undecided
};

// One played deal. Columns of deals.csv, in this order (sim/doc/experiments.md).
struct DealRow {
  int64_t deal = 0;    // deal index
  int8_t swapped = 0;  // 1: side0's agent played side 1 (the duplicate twin)
  int8_t end = 0;      // EndReason: 1 went out, 2 stock ran out, 3 red three last
  int8_t out_seat = -1;
  int8_t concealed = 0;
  int16_t turns = 0, actions = 0;
  int32_t score[2] = {0, 0};  // deal score of side 0 and side 1 (table sides)
  int8_t natural_canastas[2] = {0, 0};
  int8_t mixed_canastas[2] = {0, 0};
  int8_t red_threes[2] = {0, 0};
  int16_t opening_turn[2] = {0, 0};  // turn of the side's first meld, 0: never
  int16_t pickups = 0;               // piles taken
  int16_t pickup_cards = 0;          // cards in those piles, summed
  int16_t freezes = 0;               // wild cards discarded onto an unfrozen pile
  int16_t blocks = 0;                // black threes discarded
};

// A value with its 95% interval.
struct Interval {
  double mean = 0, lo = 0, hi = 0;
};

// Game-level counts summed over deals: integers, so any grouping of the
// deals gives the same sums.
struct DealCounts {
  int64_t deals = 0, went_out = 0, concealed = 0, stock_out = 0, red_three_last = 0, turns = 0, actions = 0;
  int64_t natural_canastas = 0, mixed_canastas = 0, red_threes = 0;  // both sides
  int64_t pickups = 0, pickup_cards = 0, freezes = 0, blocks = 0;
  int64_t opening_turns = 0, openings = 0;  // sum of the sides' opening turns, sides that opened

  void add(const DealRow& r);
  void add(const DealCounts& o);
};

// The counts per deal: shares of the ways deals end, means of the rest;
// `pickup_size` per pickup, `opening_turn` per side that opened.
struct PerDeal {
  double went_out = 0, concealed = 0, stock_out = 0, red_three_last = 0;
  double turns = 0, actions = 0, natural_canastas = 0, mixed_canastas = 0, red_threes = 0;
  double pickups = 0, pickup_size = 0, freezes = 0, blocks = 0, opening_turn = 0;

  static PerDeal of(const DealCounts& c);
};

struct Summary {
  int64_t rows = 0;
  // Agent A is side0's spec, B side1's; with duplicate both table sides count.
  int64_t a_won = 0, b_won = 0, tied = 0;
  Interval a_win_share;       // Wilson, ties count half
  Interval margin;            // A minus B per deal; paired over duplicate twins when duplicate
  Interval elo;               // Elo difference of A over B from the score share
  double unpaired_width = 0;  // the margin interval's width as if the deals were not paired
  PerDeal per_deal;           // game-level counts
};

// Receives JSON Lines game records (core/doc/records.md), the lines of one
// deal or game index at a time, in (index, twin) order whatever the thread
// count. It is called from a writer thread of the run, one call at a time,
// while the next deals play; the run returns after the last call.
using RecordSink = std::function<void(const std::string& lines)>;

// Plays the experiment; rows come back in (deal, swapped) order whatever the
// thread count. `stop` (optional) ends the run early: the rows of the deals
// finished before it are kept, in order, complete pairs only. `progress`
// (optional) is called from workers with the number of rows done. `records`
// (optional) receives the record of every kept row, as a single deal.
bool run_experiment(const ExperimentConfig& c, std::vector<DealRow>& rows, std::string& error,
                    const std::atomic<bool>* stop = nullptr,
                    const std::function<void(int64_t)>& progress = {}, const RecordSink& records = {});

Summary summarize(const std::vector<DealRow>& rows, bool duplicate);

// The generalized SPRT on the per-deal (or, in duplicate, per-pair) score
// share of A, by the normal approximation.
SprtResult sprt(std::span<const DealRow> rows, bool duplicate, double elo0, double elo1, double alpha,
                double beta);

// Files: deals.csv (header + one line per row) and summary.json.
std::string rows_to_csv(const std::vector<DealRow>& rows);
bool rows_from_csv(const std::string& text, std::vector<DealRow>& rows, std::string& error);
std::string summary_to_json(const ExperimentConfig& c, const Summary& s);
// Reads the configuration of a deals or a games summary.json (c.games > 0
// for a games run).
bool config_from_json(const std::string& text, ExperimentConfig& c, std::string& error);

}  // namespace canasta

namespace canasta {

// One point of a parameter sweep: a concrete agent spec and the values that
// made it.
struct SweepPoint {
  std::string spec;
  std::vector<std::pair<std::string, std::string>> values;  // (parameter, value)
};

// Expands a spec with one or two ranges, "{from..to..step}", "{from..to}" or
// "{a,b,c}", into its points: "heuristic:freeze={0..12..2}" gives 7 specs.
bool expand_sweep(std::string_view spec, std::vector<SweepPoint>& out, std::string& error);

}  // namespace canasta

namespace canasta {

// One played game (`sim --games`): deals in series to the profile's target.
struct GameRow {
  int64_t game = 0;
  int8_t swapped = 0;         // 1: the duplicate twin, side0's spec on table side 1
  int8_t end = 0;             // GameEnd: 1 won, 2 drawn, 3 abandoned
  int8_t winner = -1;         // table side that won, or -1
  int32_t total[2] = {0, 0};  // final totals of table sides 0 and 1
  DealCounts counts;          // over the game's deals; counts.deals: deals played
};

struct GameSummary {
  int64_t rows = 0, a_won = 0, b_won = 0, other = 0;  // other: drawn or abandoned
  Interval a_win_share;                               // Wilson; drawn or abandoned games count half
  Interval margin;  // A's final total minus B's, paired over twins in duplicate
  Interval elo;
  double deals = 0;  // deals per game
  PerDeal per_deal;  // game-level counts over all deals of all games
};

// Plays `c.games` whole games (game g from the stream (seed, g)), with the
// same agents, duplicate, shards and thread independence as run_experiment.
// `progress` (optional) gets the number of games done, `records` (optional)
// every deal of every kept game.
bool run_games(const ExperimentConfig& c, std::vector<GameRow>& rows, std::string& error,
               const std::atomic<bool>* stop = nullptr, const std::function<void(int64_t)>& progress = {},
               const RecordSink& records = {});
GameSummary summarize_games(const std::vector<GameRow>& rows, bool duplicate);
// Files of a games run: games.csv and summary.json.
std::string game_rows_to_csv(const std::vector<GameRow>& rows);
bool game_rows_from_csv(const std::string& text, std::vector<GameRow>& rows, std::string& error);
std::string game_summary_to_json(const ExperimentConfig& c, const GameSummary& s);

}  // namespace canasta
