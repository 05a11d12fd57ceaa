// The statistics of a run: pure functions of its rows in (index, twin)
// order, so a run, its shards merged and a re-read of its files give the
// same numbers bit for bit (sim/doc/experiments.md, "The summary").
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/experiment.h"

namespace canasta {

// How a run's rows are read: in duplicate (the twins of an index a group)
// or one by one, at a table of `sides` sides.
struct RunShape {
  bool duplicate = false;
  int sides = 2;
  // A run's: its duplicate setting and its profile's sides.
  static RunShape of(const ExperimentConfig& c) { return {c.duplicate, c.rules.teams}; }
};

// A value with its 95% interval.
struct Interval {
  double mean = 0, lo = 0, hi = 0;
};

// The counts per deal: shares of the ways deals end, means of the rest;
// `pickup_size` per pickup, `opening_turn` per side that opened.
struct PerDeal {
  double went_out = 0, concealed = 0, stock_out = 0, red_three_last = 0;
  double turns = 0, actions = 0, natural_canastas = 0, mixed_canastas = 0, red_threes = 0;
  double pickups = 0, pickup_size = 0, freezes = 0, blocks = 0, opening_turn = 0;

  static PerDeal of(const DealCounts& c);
};

// Every field of PerDeal with its name, in declaration order (summary.json).
struct PerDealField {
  std::string_view name;
  double PerDeal::*member;
};
constexpr std::array<PerDealField, 14> per_deal_fields() {
  return {{{"went_out", &PerDeal::went_out},
           {"concealed", &PerDeal::concealed},
           {"stock_out", &PerDeal::stock_out},
           {"red_three_last", &PerDeal::red_three_last},
           {"turns", &PerDeal::turns},
           {"actions", &PerDeal::actions},
           {"natural_canastas", &PerDeal::natural_canastas},
           {"mixed_canastas", &PerDeal::mixed_canastas},
           {"red_threes", &PerDeal::red_threes},
           {"pickups", &PerDeal::pickups},
           {"pickup_size", &PerDeal::pickup_size},
           {"freezes", &PerDeal::freezes},
           {"blocks", &PerDeal::blocks},
           {"opening_turn", &PerDeal::opening_turn}}};
}

// The pairs of a duplicate run by what A scored in the deal (or game) and
// in its twin: both lost, a loss and a draw, a win and a loss, both drawn, a
// win and a draw, both won.
struct Pentanomial {
  int64_t ll = 0, ld = 0, wl = 0, dd = 0, wd = 0, ww = 0;
  int64_t pairs() const { return ll + ld + wl + dd + wd + ww; }
  friend bool operator==(const Pentanomial&, const Pentanomial&) = default;
};

// How A scored against B (a win 1, a draw 1/2, a loss 0, from the point of
// view of A) and what follows, as fastchess reports it (sim/doc/experiments.md):
// over single deals or games (trinomial) in a plain run, over duplicate pairs
// (pentanomial) in a duplicate one.
struct ScoreStats {
  int64_t a_won = 0, b_won = 0, drawn = 0;  // deals or games
  bool paired = false;                      // the figures below come from duplicate pairs
  Pentanomial penta;                        // paired only
  Interval share;    // A's mean score; Wilson interval (trinomial) or normal over pairs (pentanomial)
  Interval elo;      // -400 log10(1/share - 1), and of the share's bounds
  Interval nelo;     // normalized Elo: (share - 1/2) / sd * 800 / ln 10, sd per deal or sqrt(2) x per pair;
                     // not a number when sd is 0 (every deal or pair scored alike)
  double los = 0.5;  // likelihood of superiority: P(A stronger), normal approximation
  double draw_ratio = 0;  // draws per deal (trinomial), or pairs scoring 1/2 (WL or DD) per pair
  bool mirror = false;    // paired, and every pair cancelled exactly: duplicate play measures nothing
  bool pairwise = false;  // three sides: A's score in a deal is its share of two pairwise comparisons
};

// The state of a sequential test.
struct SprtResult {
  double llr = 0;               // log-likelihood ratio of H1 against H0
  double lower = 0, upper = 0;  // ln(beta / (1 - alpha)), ln((1 - beta) / alpha)
  int decision = 0;             // +1: H1 accepted, -1: H0 accepted, 0: undecided
};
// Exact sums of integer samples x: their count, sum and sum of squares
// (sq_hi * 2^32 + sq_lo). Sums of integers do not depend on the order they
// are added in, so the tallies of any split of a run's rows add up to the
// run's, bit for bit.
struct Moments {
  int64_t n = 0, sum = 0, sq_hi = 0, sq_lo = 0;
  void add(int64_t x);
  // The same sums with sq_lo below 2^32: word-by-word sums of moments (of
  // tallies, over processes) carry nothing between the two words.
  void normalize() {
    sq_hi += sq_lo >> 32;
    sq_lo &= 0xffffffff;
  }
  // The mean of x / unit with its 95% normal interval: mean +/- z s / sqrt(n),
  // s the sample standard deviation.
  Interval interval(double unit) const;
  // The population variance of x / unit.
  double variance(double unit) const;
};

// Everything a summary needs from a run's rows, as integer sums, so that
// processes that played parts of a run (MPI ranks) add their tallies word by
// word (one reduction) instead of sending their rows. Scores are counted in
// quarters, margins in halves; a group is the complete duplicate twins of one
// index (two, or three or six at a table of three sides).
struct Tally {
  int64_t rows = 0, a_won = 0, b_won = 0, drawn = 0;
  int64_t fractional = 0;              // rows whose score is none of 0, 1/2, 1 (three sides)
  Moments score, margin;               // per row: A's score (quarters) and margin (halves)
  int64_t groups = 0, group_rows = 0;  // complete duplicate groups and their rows
  Pentanomial penta;                   // groups of two
  int64_t even_groups = 0;             // groups scoring exactly 1/2
  int64_t uneven_margins = 0;          // groups whose margins do not cancel
  Moments group_score, group_margin;   // per group: the sums of its scores and margins
  DealCounts counts;                   // game-level counts (over the games' deals for games)
  std::array<int64_t, kMaxTeams> agent_rows{}, agent_points{}, agent_first{};  // three sides; first in sixths

  void add(const Tally& o);
  // add() where the sum stays within what a run can hold (in_range); false,
  // leaving this tally as it was, where it would not.
  bool add_in_range(const Tally& o);
  // Whether every word lies within what a run of at most 2^40 deals (or
  // games) can hold, so that nothing computed from the tally can overflow:
  // a tally read from a file is checked before any arithmetic on it.
  bool in_range() const;
  // The canonical words of the same tally (Moments::normalize), as run.json writes them.
  Tally normalized() const {
    Tally t = *this;
    for (Moments* m : {&t.score, &t.margin, &t.group_score, &t.group_margin}) m->normalize();
    return t;
  }
  // The tally as int64 words, to be summed word by word.
  std::span<int64_t> words();
  std::span<const int64_t> words() const;
};
Tally tally(std::span<const DealRow> rows, RunShape shape);

// What a stopped run (or one match, one point of a sweep) has played: its
// positions and the tally of their rows, to go on from (RunHooks::done,
// done_tally).
struct Played {
  Ranges done;
  Tally tally;
};
Tally tally_games(std::span<const GameRow> rows, RunShape shape);

// A deals run. Agent A is side0's, B side1's (and, at a table of three sides,
// side 2's unless side2 names C); with duplicate every twin counts. With
// three sides A's margin is its score less the mean of the other two, and
// its score in a deal its share of the two pairwise comparisons.
struct Summary {
  int64_t rows = 0;
  ScoreStats score;
  Interval margin;                 // A minus B per deal; paired over duplicate twins when duplicate
  double unpaired_width = 0;       // the margin interval's width as if the deals were not paired
  PerDeal per_deal;                // game-level counts
  std::string_view status;         // "complete", "decided" (by the sequential test) or "partial"
  std::optional<SprtResult> sprt;  // when the run has a sequential test
  // Tables of three sides: per agent, by the side whose spec it is (side 2's
  // is side 1's unless side2 is given), the mean deal score of a table side it
  // plays, and the share of those deals it won outright (ties split).
  int sides = 2;
  std::array<double, kMaxTeams> agent_score{}, agent_first{};
};
// The summary of a run's tally, with its sequential test and status ...
Summary summarize(const Tally& t, const ExperimentConfig& c);
// ... or of a tally alone (no test, no status).
Summary summarize(const Tally& t, RunShape shape);

// A games run. A drawn or abandoned game counts as a draw.
struct GameSummary {
  int64_t rows = 0;
  ScoreStats score;
  Interval margin;          // A's final total minus B's, paired over twins in duplicate
  double deals = 0;         // deals per game
  PerDeal per_deal;         // game-level counts over all deals of all games
  std::string_view status;  // "complete" or "partial"
};
// The summary of a games run's tally, with its status, or of a tally alone.
GameSummary summarize_games(const Tally& t, const ExperimentConfig& c);
GameSummary summarize_games(const Tally& t, RunShape shape);

// One deal's (or game's) result for A, for score_stats: its index, its twin,
// A's score (1, 1/2 or 0) and A's margin.
struct Outcome {
  int64_t index = 0;
  int twin = 0;
  double score = 0, margin = 0;
};
// The statistics of outcomes in (index, twin) order; in duplicate, a twin 1
// that follows its twin 0 makes a pair. Scores are multiples of 1/4,
// margins of 1/2.
ScoreStats score_stats(std::span<const Outcome> outcomes, RunShape shape);

// Adds the tally of `rows` (complete duplicate groups only) to `t`, with
// `scratch` as working space: no allocation once it has held as many rows.
void add_tally(Tally& t, std::span<const DealRow> rows, RunShape shape, std::vector<Outcome>& scratch);
void add_tally_games(Tally& t, std::span<const GameRow> rows, RunShape shape, std::vector<Outcome>& scratch);

// The generalized SPRT on the per-deal (or, in duplicate, per-pair) score
// share of A, by the normal approximation, from the samples of the test by
// value, in quarters: a deal's share 0, 1/2, 1 (counts 0, 2, 4), a pair's 0,
// 1/4, ..., 1 (counts 0 .. 4), taken from a tally of two sides. Counts of
// parts of the rows add up, so processes can share them.
using SprtCounts = std::array<int64_t, 5>;
SprtCounts sprt_counts(const Tally& t, RunShape shape);
SprtResult sprt(const SprtCounts& counts, const SprtConfig& test);

// The building blocks, for other summaries (tournaments).
Interval wilson(double successes, double n);   // a share with its Wilson interval
double elo_of(double share);                   // -400 log10(1/p - 1), p clamped away from 0 and 1
Interval elo_interval(const Interval& share);  // elo_of of the share and of its bounds
double normal_cdf(double z);                   // the standard normal distribution function

}  // namespace canasta
