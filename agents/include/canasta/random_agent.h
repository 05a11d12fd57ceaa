// The random agent: uniform over the legal actions.
#pragma once

#include "canasta/agent_base.h"

namespace canasta {

struct RandomParams {
  friend bool operator==(const RandomParams&, const RandomParams&) = default;
};

class RandomAgent final : public Agent {
 public:
  explicit RandomAgent(const RandomParams& = {}) {}
  Action act(const View& view, Rng& rng) override {
    view.legal_actions(legal_);
    return legal_[static_cast<int>(rng.below(static_cast<uint32_t>(legal_.size())))];
  }

 private:
  ActionList legal_;
};

}  // namespace canasta
