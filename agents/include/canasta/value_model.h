// A learned value of a position: the expected final margin of the deal
// (the seat's side's deal score less the mean of the other sides'), or
// that of a squashed margin, tanh(margin / squash), from the seat's features
// (canasta/features.h). A linear model or a small multilayer
// perceptron; evaluation allocates nothing. The file format is documented in
// agents/doc/learned.md; canasta train writes such files.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/features.h"
#include "canasta/rules.h"
#include "canasta/view.h"

namespace canasta {

class ValueModel {
 public:
  static constexpr int kMaxWidth = 512;   // widest hidden layer
  static constexpr int kMaxLayers = 3;    // most hidden layers
  static constexpr uint32_t kFormat = 2;  // of the file written; format 1 (no squash) is read too

  ValueModel() = default;
  // A model of `inputs` features with these hidden layers (none: linear),
  // all weights zero, inputs standardised by (x - mean) / scale with mean 0
  // and scale 1, the output scaled by `target_scale`.
  ValueModel(const Rules& rules, std::vector<int> hidden);

  const Rules& rules() const { return rules_; }
  int inputs() const { return inputs_; }
  const std::vector<int>& hidden() const { return hidden_; }
  bool linear() const { return hidden_.empty(); }

  // Parameters, for training: per layer (the hidden ones, then the output
  // of width 1) the weights, column-major (out x in: weight (o, i) at
  // i * out + o), and the biases. prepare() once they have changed.
  std::vector<float>& weights(int layer) { return weights_[static_cast<size_t>(layer)]; }
  std::vector<float>& biases(int layer) { return biases_[static_cast<size_t>(layer)]; }
  const std::vector<float>& weights(int layer) const { return weights_[static_cast<size_t>(layer)]; }
  const std::vector<float>& biases(int layer) const { return biases_[static_cast<size_t>(layer)]; }
  int layers() const { return static_cast<int>(weights_.size()); }
  std::vector<float>& mean() { return mean_; }
  std::vector<float>& scale() { return scale_; }
  const std::vector<float>& mean() const { return mean_; }
  const std::vector<float>& scale() const { return scale_; }
  float& target_scale() { return target_scale_; }
  float target_scale() const { return target_scale_; }
  // 0: the model predicts the final margin; S > 0: tanh(final margin / S),
  // in [-1, 1] (a search's reward, trained with canasta train --squash S).
  float& squash() { return squash_; }
  float squash() const { return squash_; }
  // What a model of this squash predicts, for a deal that ends with `margin`.
  static double target_of(double margin, double squash) {
    return squash > 0 ? std::tanh(margin / squash) : margin;
  }

  // Folds the inputs' standardisation into the first layer for predict();
  // load() and training call it.
  void prepare();
  // Why the model cannot evaluate positions of `rules` (another table:
  // players, sides or features: "was trained on profile ..."), or empty when it can.
  std::string misfit(const Rules& rules) const;
  // The predicted margin (or squashed margin) from features (feature_count(rules()) of them).
  float predict(const float* x) const;
  // ... of the position as `v`'s seat sees it.
  float evaluate(const View& v) const;

  // The file: false with a one-line error (a truncated file, another
  // format or feature version, a feature count that does not fit the profile).
  bool save(const std::string& path, std::string& error) const;
  static bool load(const std::string& path, ValueModel& out, std::string& error);
  // ... from the bytes of a file; `name` names it in errors.
  static bool from_bytes(std::string_view bytes, const std::string& name, ValueModel& out,
                         std::string& error);
  friend bool operator==(const ValueModel& a, const ValueModel& b) {
    return a.rules_ == b.rules_ && a.hidden_ == b.hidden_ && a.mean_ == b.mean_ && a.scale_ == b.scale_ &&
           a.weights_ == b.weights_ && a.biases_ == b.biases_ && a.target_scale_ == b.target_scale_ &&
           a.squash_ == b.squash_;
  }

 private:
  Rules rules_;
  int inputs_ = 0;
  std::vector<int> hidden_;
  std::vector<float> mean_, scale_;
  std::vector<std::vector<float>> weights_, biases_;
  float target_scale_ = 1;
  float squash_ = 0;
  std::vector<float> first_w_, first_b_;  // the first layer on raw features (prepare())
};

// The model of a file, loaded once per process and shared (agents of every
// thread hold the same one); throws std::runtime_error with the load's
// one-line error.
std::shared_ptr<const ValueModel> shared_value_model(const std::string& path);

// A model built into the program: the profile it was trained on and its
// file's bytes (agents/models/PROFILE.model, agents/doc/learned.md).
struct BuiltInModel {
  std::string_view profile;
  std::string_view bytes;
};
// Those of classic, two-player and spanish.
std::span<const BuiltInModel> built_in_value_models();

// The model an agent's `eval` names for a game of `rules`: a file, or
// "default", the built-in model trained on the game's profile (with
// overrides that keep the table and the kind of game: classic or spanish
// melds); shared like shared_value_model. Throws std::runtime_error with a
// one-line error when none is built in for the game or the model does not fit.
std::shared_ptr<const ValueModel> value_model_for(const std::string& eval, const Rules& rules);

// An agent's model across its decisions: a file is read when the agent is
// made (a bad one is refused at once); the built-in model ("default") is
// picked by value_model_for at the first decision of a game with other rules.
class AgentModel {
 public:
  explicit AgentModel(std::string eval);           // "": no model
  const ValueModel* for_game(const Rules& rules);  // nullptr without a model

 private:
  std::string eval_;
  std::shared_ptr<const ValueModel> model_;
  Rules rules_{};  // the game model_ was picked for
};

}  // namespace canasta
