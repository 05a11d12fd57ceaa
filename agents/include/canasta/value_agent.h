// The value agent: one step of lookahead on a learned evaluation
// (canasta/value_model.h). For every legal action it averages the model's
// predicted margin for its side after that action over a few samples of the
// hidden cards (the same samples for every action), and plays the best.
#pragma once

#include <memory>

#include "canasta/agent_base.h"
#include "canasta/params.h"
#include "canasta/value_model.h"

namespace canasta {

#define CANASTA_VALUE_PARAMS(X)                                                              \
  X(eval, ParamText, ParamText{}, 0, 0,                                                      \
    "the value model file (canasta train); default: the built-in one of the game's profile") \
  X(samples, int, 8, 1, 1000, "samples of the hidden cards a decision")

struct ValueParams {
#define CANASTA_FIELD(name, type, value, lo, hi, help) type name = value;
  CANASTA_VALUE_PARAMS(CANASTA_FIELD)
#undef CANASTA_FIELD
  friend bool operator==(const ValueParams&, const ValueParams&) = default;
};

class ValueAgent final : public Agent {
 public:
  explicit ValueAgent(const ValueParams& p = {});
  Action act(const View& view, Rng& rng) override;

 private:
  ValueParams p_;
  AgentModel model_;
  std::vector<State> samples_;
};

}  // namespace canasta
