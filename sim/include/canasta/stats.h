// The statistics of a run: pure functions of its rows in (index, twin)
// order, so a run, its shards merged and a re-read of its files give the
// same numbers bit for bit (sim/doc/experiments.md, "The summary").
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "canasta/experiment.h"

namespace canasta {

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

// A deals run. Agent A is side0's, B side1's; with duplicate both table sides count.
struct Summary {
  int64_t rows = 0;
  int64_t a_won = 0, b_won = 0, tied = 0;
  Interval a_win_share;       // Wilson, ties count half
  Interval margin;            // A minus B per deal; paired over duplicate twins when duplicate
  Interval elo;               // Elo difference of A over B from the score share
  double unpaired_width = 0;  // the margin interval's width as if the deals were not paired
  PerDeal per_deal;           // game-level counts
};
Summary summarize(std::span<const DealRow> rows, bool duplicate);

// A games run.
struct GameSummary {
  int64_t rows = 0, a_won = 0, b_won = 0, other = 0;  // other: drawn or abandoned
  Interval a_win_share;                               // Wilson; drawn or abandoned games count half
  Interval margin;  // A's final total minus B's, paired over twins in duplicate
  Interval elo;
  double deals = 0;  // deals per game
  PerDeal per_deal;  // game-level counts over all deals of all games
};
GameSummary summarize_games(std::span<const GameRow> rows, bool duplicate);

// The state of a sequential test.
struct SprtResult {
  double llr = 0;               // log-likelihood ratio of H1 against H0
  double lower = 0, upper = 0;  // ln(beta / (1 - alpha)), ln((1 - beta) / alpha)
  int decision = 0;             // +1: H1 accepted, -1: H0 accepted, 0: undecided
};
// The generalized SPRT on the per-deal (or, in duplicate, per-pair) score
// share of A, by the normal approximation.
SprtResult sprt(std::span<const DealRow> rows, bool duplicate, const SprtConfig& test);

// The building blocks, for other summaries (tournaments).
Interval wilson(double successes, double n);        // a share with its Wilson interval
Interval mean_interval(std::span<const double> x);  // a mean with its normal interval
double elo_of(double share);                        // -400 log10(1/p - 1), p clamped away from 0 and 1
Interval elo_interval(const Interval& share);       // elo_of of the share and of its bounds

}  // namespace canasta
