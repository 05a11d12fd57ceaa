// Experiments: agents per side over many deals or whole games on the oneTBB
// pool, in duplicate when two different agents meet. The rows come out in
// (index, twin) order whatever the thread count, a few at a time, so that
// the statistics (canasta/stats.h, integer tallies of the rows) are the same
// too, shards merge exactly, and a run holds the same memory however long
// it is (sim/doc/experiments.md).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canasta/agent.h"
#include "canasta/rules.h"

namespace canasta {

struct Tally;  // canasta/stats.h

// A sequential probability ratio test on Elo: H0 "A is elo0 better than B"
// against H1 "A is elo1 better".
struct SprtConfig {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
  friend bool operator==(const SprtConfig&, const SprtConfig&) = default;
};

// A seat that plays another agent than its side's.
struct SeatAgent {
  int seat = 0;
  AgentSpec agent;
  friend bool operator==(const SeatAgent&, const SeatAgent&) = default;
};

struct ExperimentConfig {
  Rules rules;                     // the profile
  AgentSpec side0;                 // agent of side 0 ("A")
  AgentSpec side1;                 // agent of side 1 ("B"), and of side 2 unless side2 is given
  std::optional<AgentSpec> side2;  // agent of side 2 ("C") at a table of three sides
  // Seats that play another agent than their side's. In the duplicate twin
  // the named agent moves with its side, to the next seat.
  std::vector<SeatAgent> seats;
  uint64_t seed = 1;
  int64_t deals = 100000;     // run_deals: deal indices 0 .. deals-1 (each played twice in duplicate)
  int64_t games = 0;          // run_games: game indices 0 .. games-1
  bool duplicate = false;     // also play every deal with the agents on the other sides (twin_count)
  int shard = 0, shards = 1;  // run only the indices k with k % shards == shard
  int threads = 0;            // 0: all cores
  // run_deals only: deals run in batches of kSprtBatch indices and the run
  // stops at the first batch after which the test decides.
  std::optional<SprtConfig> sprt;
};
constexpr int64_t kSprtBatch = 1024;

// How many of the indices 0 .. n-1 the shard of `c` plays (those with
// index mod shards = shard).
inline int64_t shard_size(int64_t n, const ExperimentConfig& c) {
  return n > c.shard ? (n - c.shard + c.shards - 1) / c.shards : 0;
}

// The agent that plays `seat` in the original deal.
const AgentSpec& seat_agent(const ExperimentConfig& c, int seat);

// Checks what the types cannot: a side2 only at a table of three sides, a
// sequential test only with two, named seats at the table, a valid shard.
// Returns false with a one-line error.
bool check_config(const ExperimentConfig& c, std::string& error);

// The duplicate default, the same for the program and the Python module:
// in duplicate when the sides' agents differ.
inline bool sides_differ(const ExperimentConfig& c) {
  return c.side0 != c.side1 || (c.side2 && *c.side2 != c.side0);
}

// A shard as written, "i/n" with 0 <= i < n.
bool parse_shard(std::string_view text, int& index, int& count);
inline constexpr const char* kShardUsage = "wants i/n with 0 <= i < n";
// A sequential test from its 2 or 4 values, elo0, elo1[, alpha, beta], with
// elo0 < elo1 and 0 < alpha, beta < 0.5 (5% each by default); or as written,
// "elo0,elo1[,alpha,beta]".
bool sprt_of(std::span<const double> values, SprtConfig& out);
bool parse_sprt(std::string_view text, SprtConfig& out);
inline constexpr const char* kSprtUsage =
    "wants elo0,elo1[,alpha,beta] with elo0 < elo1 and 0 < alpha, beta < 0.5";

// How many times a run plays each deal (or game): once; in duplicate twice
// with two sides (the agents swap sides), three times with three (the
// agents rotate round the sides), six when side2 names a third agent (every
// order of the three).
int twin_count(const ExperimentConfig& c);
// The seat whose agent plays `seat` in twin `twin`: in twin t the agents
// move t mod sides seats on, and twins from `sides` on also mirror the table
// (seat s takes the agent of seat -s), so each side's agents stay together.
int player_of(const Rules& rules, int seat, int twin);
// The agent (0 A, 1 B, 2 C: the side whose spec it is) that plays table side
// `side` in twin `twin` at a table of `sides` sides (player_of, side by side).
inline int role_of(int side, int twin, int sides) {
  return (((twin >= sides ? -side : side) - twin % sides) % sides + sides) % sides;
}
// The table side that side0's agent ("A") plays in twin `twin`.
inline int a_side_of(int twin, int sides) {
  int side = 0;
  while (role_of(side, twin, sides) != 0) ++side;
  return side;
}

// One played deal. Columns of deals.csv, in this order (sim/doc/experiments.md).
struct DealRow {
  int64_t deal = 0;    // deal index
  int8_t swapped = 0;  // the duplicate twin (0 .. twin_count - 1); A plays side a_side_of(swapped, sides)
  int8_t end = 0;      // EndReason
  int8_t out_seat = -1;
  int8_t concealed = 0;
  int16_t turns = 0, actions = 0;
  int32_t score[kMaxTeams] = {};  // deal score of each table side
  int8_t natural_canastas[kMaxTeams] = {};
  int8_t mixed_canastas[kMaxTeams] = {};  // mixed and wild canastas
  int8_t red_threes[kMaxTeams] = {};
  int16_t opening_turn[kMaxTeams] = {};  // turn of the side's first meld, 0: never
  int16_t pickups = 0;                   // piles taken
  int16_t pickup_cards = 0;              // cards in those piles, summed
  int16_t freezes = 0;                   // wild cards discarded onto an unfrozen pile
  int16_t blocks = 0;                    // black threes discarded
};

// Game-level counts summed over deals: integers, so any grouping of the
// deals gives the same sums. The fields are listed in deal_count_fields().
struct DealCounts {
  int64_t deals = 0, went_out = 0, concealed = 0, stock_out = 0, red_three_last = 0, turns = 0, actions = 0;
  int64_t natural_canastas = 0, mixed_canastas = 0, red_threes = 0;  // all sides
  int64_t pickups = 0, pickup_cards = 0, freezes = 0, blocks = 0;
  int64_t opening_turns = 0, openings = 0;  // sum of the sides' opening turns, sides that opened

  void add(const DealRow& r);
  void add(const DealCounts& o);
};

// Every field of DealCounts with its name, in declaration order.
struct DealCountField {
  std::string_view name;
  int64_t DealCounts::*member;
};
constexpr std::array<DealCountField, 16> deal_count_fields() {
  return {{{"deals", &DealCounts::deals},
           {"went_out", &DealCounts::went_out},
           {"concealed", &DealCounts::concealed},
           {"stock_out", &DealCounts::stock_out},
           {"red_three_last", &DealCounts::red_three_last},
           {"turns", &DealCounts::turns},
           {"actions", &DealCounts::actions},
           {"natural_canastas", &DealCounts::natural_canastas},
           {"mixed_canastas", &DealCounts::mixed_canastas},
           {"red_threes", &DealCounts::red_threes},
           {"pickups", &DealCounts::pickups},
           {"pickup_cards", &DealCounts::pickup_cards},
           {"freezes", &DealCounts::freezes},
           {"blocks", &DealCounts::blocks},
           {"opening_turns", &DealCounts::opening_turns},
           {"openings", &DealCounts::openings}}};
}

// One played game (`sim --games`): deals in series to the profile's target.
struct GameRow {
  int64_t game = 0;
  int8_t swapped = 0;             // the duplicate twin, as in DealRow
  int8_t end = 0;                 // GameEnd
  int8_t winner = -1;             // table side that won, or -1
  int32_t total[kMaxTeams] = {};  // final totals of the table sides
  DealCounts counts;              // over the game's deals; counts.deals: deals played
};

// Receives JSON Lines game records (core/doc/records.md) of this process's
// finished indices, in (index, twin) order whatever the thread count, a few
// indices at a time. It is called from a writer thread of the run, one call
// at a time, while play goes on; the run returns after the last call.
using RecordSink = std::function<void(const std::string& lines)>;
// Receives the rows of this process's finished indices the same way: in
// (index, twin) order, every twin of an index together, a few indices at a
// time, one call at a time (from a thread of the run); the run keeps none.
template <class Row>
using RowSink = std::function<void(std::span<const Row> rows)>;

// Positions of a shard (0 .. shard_size - 1: the shard's i-th index is
// shard + i * shards) as sorted, disjoint, non-empty ranges [begin, end).
using Ranges = std::vector<std::pair<int64_t, int64_t>>;
// The union of two such lists, and the positions of [0, n) not in `r`.
Ranges merge_ranges(const Ranges& a, const Ranges& b);
Ranges missing_ranges(const Ranges& r, int64_t n);
int64_t ranges_size(const Ranges& r);

// The processes a run is spread over (MPI ranks): this one is `index` of
// `count`. In each batch every process plays one contiguous block of the
// batch's indices (block()), so that the batch's rows are the blocks in
// process order. `sum` adds int64 words over the processes, in place; every
// process calls it at the same points of a run.
struct Processes {
  int index = 0, count = 1;
  std::function<void(std::span<int64_t>)> sum;

  // This process's block of the indices first .. next-1.
  std::pair<int64_t, int64_t> block(int64_t first, int64_t next) const {
    const int64_t n = next - first;
    return {first + n * index / count, first + n * (index + 1) / count};
  }
  // Adds `words` over the processes (nothing to do for one).
  void add_up(std::span<int64_t> words) const {
    if (count > 1) sum(words);
  }
};

// How many of a shard's positions a run plays between the points where its
// processes add up what they played: the sequential test's batches of
// kSprtBatch, or all of them. Within a batch every thread plays until the
// batch's last index.
int64_t batch_size(const ExperimentConfig& c);

// What a run reports besides its rows; every member is optional.
struct RunHooks {
  // Ends the run early: no index is started after it, every index started
  // is played to its end and kept (complete pairs only), so that a single
  // process keeps every position before the first it had not started.
  const std::atomic<bool>* stop = nullptr;
  // Called from workers with the number of rows done.
  std::function<void(int64_t)> progress;
  // Receives the record of every kept row (every deal of every kept game).
  RecordSink records;
  // Receive the kept rows (run_deals, run_games collect them).
  RowSink<DealRow> deal_rows;
  RowSink<GameRow> game_rows;
  // Called after each batch (batch_size), once its rows and records have
  // gone to their sinks.
  std::function<void()> batch_end;
  // A run resumed: the positions already played (every process is given
  // the same), and the tally of their rows, which a sequential test counts.
  Ranges done;
  const Tally* done_tally = nullptr;
  // Makes the agent of a seat (as seated in the original deal) instead of
  // its spec, when it returns one: agents that no spec names, such as the
  // Python module's. Called once per seat and worker.
  std::function<std::unique_ptr<Agent>(int seat)> agent_for;
  // A run spread over processes (MPI): this one plays its block of every
  // batch and keeps their rows; the sequential test's counts and the stops
  // are summed over the processes after every batch.
  Processes processes;
};

// What a run played, besides its rows.
struct RunOutcome {
  Tally* tally = nullptr;  // when set: receives the tally of this process's kept rows (added to it)
  Ranges done;             // the positions played, with hooks.done, by every process
  bool stopped = false;    // hooks.stop ended it (on any process)
};

// Plays single deals: deal k is dealt from the stream (seed, kSingleDeck, k),
// its dealer is k mod players, and the agents draw on (seed, kDealPlay +
// twin, k). The rows go to hooks.deal_rows. Returns false (error set) when
// check_config refuses `c`.
bool stream_deals(const ExperimentConfig& c, RunOutcome& out, std::string& error, const RunHooks& hooks);
// ... and collects them, in order.
bool run_deals(const ExperimentConfig& c, std::vector<DealRow>& rows, std::string& error,
               const RunHooks& hooks = {});

// Plays whole games: game g has the seed (seed, kGameSeed, g) and its agents
// draw on (game seed, kGameDealPlay + twin, deal).
bool stream_games(const ExperimentConfig& c, RunOutcome& out, std::string& error, const RunHooks& hooks);
bool run_games(const ExperimentConfig& c, std::vector<GameRow>& rows, std::string& error,
               const RunHooks& hooks = {});

}  // namespace canasta
