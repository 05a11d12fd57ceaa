// The policy agent: plays what a learned policy (canasta/policy_model.h)
// finds most likely on its own view, or, with a temperature above 0, draws
// an action from the policy's probabilities (sharpened or flattened by the
// temperature) with the agent's own random stream.
#pragma once

#include "canasta/agent_base.h"
#include "canasta/params.h"
#include "canasta/policy_model.h"

namespace canasta {

#define CANASTA_POLICY_PARAMS(X)                                                                 \
  X(model, ParamText, ParamText{}, 0, 0,                                                         \
    "the policy file (canasta train --policy); default: the built-in one of the game's profile") \
  X(temperature, double, 0, 0, 100,                                                              \
    "0: the most likely action; above 0: an action drawn with probabilities p^(1/temperature)")

struct PolicyParams {
#define CANASTA_FIELD(name, type, value, lo, hi, help) type name = value;
  CANASTA_POLICY_PARAMS(CANASTA_FIELD)
#undef CANASTA_FIELD
  friend bool operator==(const PolicyParams&, const PolicyParams&) = default;
};

class PolicyAgent final : public Agent {
 public:
  explicit PolicyAgent(const PolicyParams& p = {});
  Action act(const View& view, Rng& rng) override;

 private:
  PolicyParams p_;
  AgentPolicy policy_;
};

}  // namespace canasta
