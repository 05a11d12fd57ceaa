// canasta selfplay --policy and canasta train --policy: the targets of a
// search's self-play and a policy fitted on them (agents/doc/policy.md).
#pragma once

#include <string>

#include "canasta/experiment.h"
#include "canasta/policy_training.h"

namespace canasta::cli {

// Plays c's deals (each once: the original twins) and writes the policy
// targets of the kept decisions (a share `share` of them) to `out`; with
// `teacher`, the targets are its advice at those decisions.
int run_policy_selfplay(const ExperimentConfig& c, double share, const AgentSpec* teacher,
                        const std::string& out);

struct PolicyTrainOptions {
  std::string samples, out, curve, init;
  PolicyTrainConfig config;
};
int run_policy_train(PolicyTrainOptions& o);

}  // namespace canasta::cli
