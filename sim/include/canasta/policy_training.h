// The training of policies (canasta/policy_model.h) on the targets of a
// search's self-play (canasta/policy_samples.h): the cross-entropy of the
// policy's probabilities over the legal actions against the search's root
// visit distribution, with the steps that every model shares
// (canasta/training.h: the split by whole deals, the standardisation,
// Adam, minibatch epochs with early stopping) on Eigen (agents/doc/policy.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "canasta/policy_model.h"
#include "canasta/policy_samples.h"

namespace canasta {

// What a policy learns at each decision: the search's root visit
// distribution, or the action played (all its weight on one action: the
// choice of a search whose visits are spread over actions of about the same
// worth).
enum class PolicyTarget { kVisits, kPlayed };

struct PolicyTrainConfig {
  int hidden = 64;   // units of the hidden layer (8 to 256, by eights)
  int epochs = 30;   // most epochs
  int patience = 3;  // epochs without a lower held-out loss before stopping
  int batch = 256;
  double rate = 1e-3;    // Adam's step size
  double holdout = 0.1;  // share of the deals held out
  uint64_t seed = 1;
  PolicyTarget target = PolicyTarget::kVisits;
  // A policy to start from (expert iteration: the last round's, trained
  // further on the targets of its search): its width and standardisation
  // are kept, its weights are the epoch-0 model.
  const PolicyModel* init = nullptr;
};

struct PolicyEpochReport {
  int epoch = 0;          // 0: the model started from
  double train_loss = 0;  // mean cross-entropy a sample (nats)
  double held_loss = 0;
  double held_agreement = 0;  // share of held-out decisions whose most likely action is the target's (the
                              // most visited, or the one played)
};

struct PolicyTrainResult {
  int64_t train = 0, held = 0;  // samples
  int best_epoch = 0;
  double held_loss = 0, held_agreement = 0;  // of the policy kept
  // The same of the uniform policy over the legal actions, for scale.
  double uniform_loss = 0, uniform_agreement = 0;
};

// Fits `out` on the samples; calls `report` after each epoch. The same
// samples, config and seed give the same policy, bit for bit. False with a
// one-line error (too few samples, a policy to start from that does not fit).
bool train_policy(const PolicySamples& data, const PolicyTrainConfig& config, PolicyModel& out,
                  PolicyTrainResult& result, const std::function<void(const PolicyEpochReport&)>& report,
                  std::string& error);

}  // namespace canasta
