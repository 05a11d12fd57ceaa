// What the probes of bench/probes share: the deals they play and how a deal
// counts.
#pragma once

#include <cstdint>

#include "canasta/engine.h"

namespace canasta::probe {

// Deal `d` of a probe's run: its deck comes next from `decks` (the run's
// seed), its players' random stream from the seed and `d` alone, so that
// two runs over the same seed play the same deck orders whatever is played
// in them. The probed agent holds the table side `side`.
struct Deal {
  State state;
  Rng play;
  int side;
};
inline Deal deal(const Rules& rules, Rng& decks, uint64_t seed, int d) {
  Deck deck;
  const int n = shuffled_deck(rules, decks, deck);
  Deal out{State{}, Rng(seed ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(d + 1))), d % 2};
  start_deal(out.state, rules, deck, n, d % rules.players, {0, 0});
  return out;
}

// A finished deal for side `side`: 1 won, 0.5 tied, 0 lost.
inline double won(const State& s, int side) {
  const auto score = deal_score(s);
  const int margin = score[side].total() - score[1 - side].total();
  return margin > 0 ? 1 : margin == 0 ? 0.5 : 0;
}

}  // namespace canasta::probe
