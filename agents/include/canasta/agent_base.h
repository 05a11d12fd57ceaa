// The interface every agent implements.
#pragma once

#include "canasta/rng.h"
#include "canasta/view.h"

namespace canasta {

class Agent {
 public:
  virtual ~Agent() = default;
  // The action to play; `view.actor() == view.seat()` and the deal is not over.
  virtual Action act(const View& view, Rng& rng) = 0;
};

}  // namespace canasta
