// What the probes of bench/probes share: the deals they play and how a deal
// counts.
#pragma once

#include <cstdint>

#include "canasta/engine.h"
#include "canasta/game.h"
#include "canasta/rng.h"

namespace canasta::probe {

// Deal `k` of a probe's run with seed `seed` is the simulator's deal k
// (`canasta sim --seed SEED`) in its twin k % 2: the probed agent holds
// side k % 2 and the decisions draw on that twin's stream. Two runs over the
// same seed play the same deals, whatever is played in them.
struct Deal {
  State state;
  Rng play;
  int side;
};
inline Deal deal(const Rules& rules, uint64_t seed, int k) {
  const int side = k % 2;
  Deal out{State{}, Rng(derive_seed(seed, twin_stream(Stream::kDealPlay, side), static_cast<uint64_t>(k))),
           side};
  start_single_deal(out.state, rules, seed, k);
  return out;
}

// A finished deal for side `side`: 1 won, 0.5 tied, 0 lost.
inline double won(const State& s, int side) {
  const auto score = deal_score(s);
  const int margin = score[side].total() - score[1 - side].total();
  return margin > 0 ? 1 : margin == 0 ? 0.5 : 0;
}

}  // namespace canasta::probe
