// Writes what a seat sees as numbers, in order, for learning code: plain
// values, counts by card kind, one-hot codes, bit sets, and the pieces of a
// View that every encoding writes alike (the features of canasta/features.h
// and the Python module's observation). Allocates nothing: the caller gives
// room for every number written.
#pragma once

#include <cstdint>

#include "canasta/features.h"
#include "canasta/view.h"

namespace canasta {

struct ViewEncoder {
  float* p;  // where the next number goes

  void value(double x) { *p++ = static_cast<float>(x); }
  void zeros(int n) {
    for (int i = 0; i < n; ++i) *p++ = 0.0F;
  }
  // kKindNb numbers: the cards of each kind, in the order JK 2 3r 3b 4 ... A.
  void kinds(CardSet c) {
    for (int k = 0; k < kKindNb; ++k) *p++ = static_cast<float>(c.count(k));
  }
  // n numbers: 1 at `value`, 0 elsewhere (all 0 when `value` is not in 0..n-1).
  void one_hot(int value, int n) {
    for (int i = 0; i < n; ++i) *p++ = i == value ? 1.0F : 0.0F;
  }
  // n numbers: bit i of `mask`, 0/1.
  void bits(unsigned mask, int n) {
    for (int i = 0; i < n; ++i) value(mask >> i & 1U);
  }

  // The kind of the pile's top card, one-hot (all 0: no pile).
  void top(const View& v) { one_hot(v.top(), kKindNb); }
  // The phase of the turn, one-hot (kPhaseNb).
  void phase(const View& v) { one_hot(static_cast<int>(v.phase()), kPhaseNb); }
  // The turn's flags (kTurnFlagNb bits of TurnFlag).
  void turn_flags(const View& v) { bits(v.turn_flags(), kTurnFlagNb); }
  // The kinds `seat` has discarded in the deal, 0/1 per kind.
  void discarded(const View& v, int seat) { bits(v.discarded(seat), kKindNb); }
};

}  // namespace canasta
