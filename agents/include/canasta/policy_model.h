// A learned policy: how likely a strong player is to choose each legal
// action, from the acting seat's features (canasta/features.h) and the
// action's dense id (canasta/action_ids.h). One hidden layer reads the
// position once, h = relu(W x + b); each legal action a then scores
// s_a = c_a + e_a . h (e_a: the action's embedding), and the probabilities
// are a softmax over the legal actions only. Evaluation scores the legal
// actions alone and allocates nothing. The file format is documented in
// agents/doc/policy.md; canasta train --policy writes such files.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/action_ids.h"
#include "canasta/features.h"
#include "canasta/rules.h"
#include "canasta/view.h"

namespace canasta {

class PolicyModel {
 public:
  static constexpr int kMaxHidden = 256;  // a multiple of 8, as every width
  static constexpr uint32_t kFormat = 1;

  PolicyModel() = default;
  // A model for `rules` with `hidden` units (a multiple of 8, 8 to
  // kMaxHidden), all weights zero (every legal action equally likely),
  // inputs standardised by (x - mean) / scale with mean 0 and scale 1.
  PolicyModel(const Rules& rules, int hidden);

  const Rules& rules() const { return rules_; }
  int inputs() const { return inputs_; }
  int actions() const { return actions_; }
  int hidden() const { return hidden_; }
  const ActionIds& ids() const { return *ids_; }

  // Parameters, for training (prepare() once they have changed): the
  // standardisation; the hidden layer's weights, input by input (weight
  // (o, i) at i * hidden + o) and biases; each action's embedding, action
  // by action (e_a at a * hidden), and bias.
  std::vector<float>& mean() { return mean_; }
  std::vector<float>& scale() { return scale_; }
  std::vector<float>& hidden_weights() { return w_; }
  std::vector<float>& hidden_biases() { return b_; }
  std::vector<float>& embeddings() { return e_; }
  std::vector<float>& action_biases() { return c_; }
  const std::vector<float>& mean() const { return mean_; }
  const std::vector<float>& scale() const { return scale_; }
  const std::vector<float>& hidden_weights() const { return w_; }
  const std::vector<float>& hidden_biases() const { return b_; }
  const std::vector<float>& embeddings() const { return e_; }
  const std::vector<float>& action_biases() const { return c_; }

  // Folds the inputs' standardisation into the hidden layer; load() and
  // training call it.
  void prepare();
  // Why the model cannot play games of `rules` (another table, another
  // action count), or empty when it can.
  std::string misfit(const Rules& rules) const;

  // The hidden layer of a position's features x (inputs() of them), into
  // h (hidden() of them).
  void hidden_layer(const float* x, float* h) const;
  // The score of the action with dense id `id` given the hidden layer.
  float score(const float* h, int id) const;
  // The probabilities of `n` actions with these dense ids given the hidden
  // layer: softmax of the scores divided by `temperature` (> 0), into out.
  void softmax(const float* h, const int* ids, int n, float* out, float temperature = 1) const;
  // The probabilities of the legal actions at `v` (the list's order), as the
  // seat of `v` sees it; `out` holds legal.size() numbers.
  void probabilities(const View& v, const ActionList& legal, float* out, float temperature = 1) const;
  // The most likely of the legal actions at `v` (the first of equals).
  Action best(const View& v, const ActionList& legal) const;

  // The file: false with a one-line error (a truncated file, another
  // format, feature version or action count, a number not finite).
  bool save(const std::string& path, std::string& error) const;
  static bool load(const std::string& path, PolicyModel& out, std::string& error);
  static bool from_bytes(std::string_view bytes, const std::string& name, PolicyModel& out,
                         std::string& error);
  friend bool operator==(const PolicyModel& a, const PolicyModel& b) {
    return a.rules_ == b.rules_ && a.hidden_ == b.hidden_ && a.mean_ == b.mean_ && a.scale_ == b.scale_ &&
           a.w_ == b.w_ && a.b_ == b.b_ && a.e_ == b.e_ && a.c_ == b.c_;
  }

 private:
  Rules rules_;
  int inputs_ = 0, actions_ = 0, hidden_ = 0;
  std::shared_ptr<const ActionIds> ids_;
  std::vector<float> mean_, scale_, w_, b_, e_, c_;
  std::vector<float> first_w_, first_b_;  // the hidden layer on raw features (prepare())
};

// A policy built into the program: the profile it was trained on and its
// file's bytes (agents/models/PROFILE.policy, agents/doc/policy.md).
struct BuiltInPolicy {
  std::string_view profile;
  std::string_view bytes;
};
std::span<const BuiltInPolicy> built_in_policies();

// The policy a spec names for a game of `rules`: a file (loaded once per
// process and shared), or "default", the built-in one of the game's profile
// (or of a profile of the same table and actions). Throws
// std::runtime_error with a one-line error where there is none or it does
// not fit.
std::shared_ptr<const PolicyModel> policy_for(const std::string& name, const Rules& rules);

// An agent's policy across its decisions: a file is read when the agent is
// made (a bad one is refused at once); "default" is picked at the first
// decision of a game with other rules.
class AgentPolicy {
 public:
  explicit AgentPolicy(std::string name);  // "": none
  const PolicyModel* for_game(const Rules& rules);

 private:
  std::string name_;
  std::shared_ptr<const PolicyModel> model_;
  Rules rules_{};
};

}  // namespace canasta
