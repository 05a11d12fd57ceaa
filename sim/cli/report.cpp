// The summaries as `canasta sim` and `canasta merge` print them.
#include <fmt/format.h>

#include <cmath>
#include <string>

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

namespace {

// What A scored: wins, pairs, share, Elo, normalized Elo, LOS, draws.
void print_score(const ScoreStats& s, const char* unit, const char* drawn) {
  const std::string what = fmt::format("{}s won", unit);
  fmt::print("  {:<12} A {}, B {}, {} {}; A's score {:.2f}% [{:.2f}%, {:.2f}%] ({})\n", what, s.a_won,
             s.b_won, drawn, s.drawn, 100 * s.share.mean, 100 * s.share.lo, 100 * s.share.hi,
             s.paired     ? "95%, over duplicate groups"
             : s.pairwise ? "95%"
                          : "Wilson 95%");
  if (s.pairwise)
    fmt::print(
        "  three sides  A's score in a deal is its share of the comparisons with each other side;"
        " A 'won' it above 1/2\n");
  if (s.paired && s.penta.pairs() > 0)
    fmt::print("  pairs        LL {}, LD {}, WL {}, DD {}, WD {}, WW {} (A's results in the two twins)\n",
               s.penta.ll, s.penta.ld, s.penta.wl, s.penta.dd, s.penta.wd, s.penta.ww);
  // nElo has no value when every deal, game or pair scored alike.
  const std::string nelo = std::isnan(s.nelo.mean)
                               ? fmt::format("n/a (every {} scored alike)", s.paired ? "pair" : unit)
                               : fmt::format("{:+.1f} [{:+.1f}, {:+.1f}]", s.nelo.mean, s.nelo.lo, s.nelo.hi);
  fmt::print("  Elo          {:+.1f} for A [{:+.1f}, {:+.1f}]; nElo {}; LOS {:.1f}%; draws {:.1f}%\n",
             s.elo.mean, s.elo.lo, s.elo.hi, nelo, 100 * s.los, 100 * s.draw_ratio);
  if (s.mirror)
    fmt::print(
        "  mirror       every pair cancelled exactly: the twins were played alike, so this duplicate run "
        "measures "
        "nothing\n");
}

}  // namespace

namespace {

// How often each deal (or game) is played, for the "played" line.
std::string twins_text(const ExperimentConfig& c, const char* what) {
  switch (twin_count(c)) {
    case 2:
      return fmt::format(" (every {} twice, the agents' sides swapped)", what);
    case 3:
      return fmt::format(" (every {} 3 times, the agents rotated round the three sides)", what);
    case 6:
      return fmt::format(" (every {} 6 times, the three agents in every order)", what);
    default:
      return "";
  }
}

// Who A and B (and C) are.
void print_agents(const ExperimentConfig& c) {
  if (c.rules.teams == 2) {
    fmt::print("  A = {} (side 0{}), B = {}\n", c.side0.to_string(),
               c.duplicate ? ", side 1 in the twin" : "", c.side1.to_string());
  } else if (c.side2) {
    fmt::print("  A = {} (side 0{}), B = {} (side 1), C = {} (side 2)\n", c.side0.to_string(),
               c.duplicate ? "; every side in the twins" : "", c.side1.to_string(), c.side2->to_string());
  } else {
    fmt::print("  A = {} (side 0{}), B = {} (the two other sides)\n", c.side0.to_string(),
               c.duplicate ? "; every side in the twins" : "", c.side1.to_string());
  }
  if (c.rules.teams == 3) fmt::print("  margin of A  its score less the mean of the other two sides'\n");
}

}  // namespace

void print_summary(const ExperimentConfig& c, const Summary& s) {
  const bool compare = c.side0 != c.side1 || c.duplicate || (c.side2 && *c.side2 != c.side0);
  fmt::print("  deals        {} played{}\n", s.rows, twins_text(c, "deal"));
  if (compare) {
    print_agents(c);
    print_score(s.score, "deal", "tied");
    fmt::print("  margin       {:+.1f} points per deal for A [{:+.1f}, {:+.1f}]{}\n", s.margin.mean,
               s.margin.lo, s.margin.hi, c.duplicate ? " (paired)" : "");
    if (c.duplicate && s.unpaired_width > 0)
      fmt::print("  pairing      interval width {:.1f} paired against {:.1f} unpaired ({:.0f}% narrower)\n",
                 s.margin.hi - s.margin.lo, s.unpaired_width,
                 100 * (1 - (s.margin.hi - s.margin.lo) / s.unpaired_width));
  } else {
    fmt::print("  mean margin  {:+.1f} points per deal for side 0 [{:+.1f}, {:+.1f}]\n", s.margin.mean,
               s.margin.lo, s.margin.hi);
  }
  if (s.sides > 2) {
    // Without side2, B's spec plays sides 1 and 2: one figure for both.
    const double b_score = c.side2 ? s.agent_score[1] : (s.agent_score[1] + s.agent_score[2]) / 2;
    const double b_first = c.side2 ? s.agent_first[1] : (s.agent_first[1] + s.agent_first[2]) / 2;
    fmt::print(
        "  per agent    mean deal score of a side it plays: A {:+.1f}, B {:+.1f}{}; wins outright A {:.1f}%, "
        "B {:.1f}%{}\n",
        s.agent_score[0], b_score, c.side2 ? fmt::format(", C {:+.1f}", s.agent_score[2]) : "",
        100 * s.agent_first[0], 100 * b_first,
        c.side2 ? fmt::format(", C {:.1f}%", 100 * s.agent_first[2]) : "");
  }
  print_per_deal(s.per_deal);
}

void print_game_summary(const ExperimentConfig& c, const GameSummary& s) {
  fmt::print("  games        {} played{}, {:.1f} deals per game\n", s.rows, twins_text(c, "game"), s.deals);
  print_agents(c);
  print_score(s.score, "game", "drawn or abandoned");
  fmt::print("  final margin {:+.1f} points per game for A [{:+.1f}, {:+.1f}]{}\n", s.margin.mean,
             s.margin.lo, s.margin.hi, c.duplicate ? " (paired)" : "");
  print_per_deal(s.per_deal);
}

}  // namespace canasta::cli
