// The best of a list by score, the first in list order among equals, when
// the candidates need a costly check: each is checked only when it is the
// best one left. Scores and positions go into one key, ordered as the choice
// is (a higher score, then an earlier position).
#pragma once

#include <cstdint>

#include "canasta/types.h"

namespace canasta {

static_assert(ActionList::kCapacity <= 2048, "a position takes 11 bits of a key");

constexpr uint64_t best_first_key(int score, int at) {
  return static_cast<uint64_t>(static_cast<int64_t>(score) - INT32_MIN) << 11 |
         (2047U - static_cast<uint32_t>(at));
}
constexpr int key_position(uint64_t key) { return static_cast<int>(2047U - (key & 2047U)); }

// Of keys[0, n), those above `bar`, best first: the position of the first
// that passes `check(position)`, or -1. Reorders and overwrites keys.
template <class Check>
int best_passing(uint64_t* keys, int n, uint64_t bar, const Check& check) {
  int left = 0;
  for (int j = 0; j < n; ++j)
    if (keys[j] > bar) keys[left++] = keys[j];
  while (left > 0) {
    int m = 0;
    for (int j = 1; j < left; ++j)
      if (keys[j] > keys[m]) m = j;
    const int at = key_position(keys[m]);
    if (check(at)) return at;
    keys[m] = keys[--left];
  }
  return -1;
}

}  // namespace canasta
