// The summaries as `canasta sim` and `canasta merge` print them.
#include <fmt/format.h>

#include "cli.h"

namespace canasta::cli {

namespace {

void print_per_deal(const PerDeal& p) {
  fmt::print(
      "  deal ended   went out {:.2f}% (concealed {:.2f}%), stock ran out {:.2f}%, red three last {:.2f}%\n",
      100 * p.went_out, 100 * p.concealed, 100 * p.stock_out, 100 * p.red_three_last);
  fmt::print(
      "  per deal     {:.1f} actions, {:.1f} turns, {:.2f} natural + {:.2f} mixed canastas,"
      " {:.2f} red threes\n",
      p.actions, p.turns, p.natural_canastas, p.mixed_canastas, p.red_threes);
  fmt::print(
      "  the pile     {:.2f} pickups per deal of {:.1f} cards, {:.2f} freezes by a wild,"
      " {:.2f} black-three blocks; a side opens on turn {:.1f}\n",
      p.pickups, p.pickup_size, p.freezes, p.blocks, p.opening_turn);
}

}  // namespace

void print_summary(const ExperimentConfig& c, const Summary& s) {
  const bool compare = c.side0 != c.side1 || c.duplicate;
  fmt::print("  deals        {} played{}\n", static_cast<long long>(s.rows),
             c.duplicate ? " (every deal twice, the agents' sides swapped)" : "");
  if (compare) {
    fmt::print("  A = {} (side 0{}), B = {}\n", c.side0.to_string().c_str(),
               c.duplicate ? ", side 1 in the twin deal" : "", c.side1.to_string().c_str());
    fmt::print("  deals won    A {}, B {}, tied {}; A's share {:.2f}% [{:.2f}%, {:.2f}%] (Wilson 95%)\n",
               static_cast<long long>(s.a_won), static_cast<long long>(s.b_won),
               static_cast<long long>(s.tied), 100 * s.a_win_share.mean, 100 * s.a_win_share.lo,
               100 * s.a_win_share.hi);
    fmt::print("  margin       {:+.1f} points per deal for A [{:+.1f}, {:+.1f}]{}\n", s.margin.mean,
               s.margin.lo, s.margin.hi, c.duplicate ? " (paired)" : "");
    if (c.duplicate && s.unpaired_width > 0)
      fmt::print("  pairing      interval width {:.1f} paired against {:.1f} unpaired ({:.0f}% narrower)\n",
                 s.margin.hi - s.margin.lo, s.unpaired_width,
                 100 * (1 - (s.margin.hi - s.margin.lo) / s.unpaired_width));
    fmt::print("  Elo          {:+.1f} for A [{:+.1f}, {:+.1f}]\n", s.elo.mean, s.elo.lo, s.elo.hi);
  } else {
    fmt::print("  mean margin  {:+.1f} points per deal for side 0 [{:+.1f}, {:+.1f}]\n", s.margin.mean,
               s.margin.lo, s.margin.hi);
  }
  print_per_deal(s.per_deal);
}

void print_game_summary(const ExperimentConfig& c, const GameSummary& s) {
  fmt::print("  games        {} played{}, {:.1f} deals per game\n", static_cast<long long>(s.rows),
             c.duplicate ? " (every game twice, the agents' sides swapped)" : "", s.deals);
  fmt::print(
      "  games won    A {}, B {}, drawn or abandoned {};"
      " A's share {:.2f}% [{:.2f}%, {:.2f}%] (Wilson 95%)\n",
      static_cast<long long>(s.a_won), static_cast<long long>(s.b_won), static_cast<long long>(s.other),
      100 * s.a_win_share.mean, 100 * s.a_win_share.lo, 100 * s.a_win_share.hi);
  fmt::print("  final margin {:+.1f} points per game for A [{:+.1f}, {:+.1f}]{}\n", s.margin.mean,
             s.margin.lo, s.margin.hi, c.duplicate ? " (paired)" : "");
  fmt::print("  Elo          {:+.1f} for A [{:+.1f}, {:+.1f}]\n", s.elo.mean, s.elo.lo, s.elo.hi);
  print_per_deal(s.per_deal);
}

}  // namespace canasta::cli
