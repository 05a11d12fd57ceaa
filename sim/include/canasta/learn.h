// Learned evaluations: training samples from self-play, their file, and
// the training of value models (canasta/value_model.h) on Eigen
// (agents/doc/learned.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "canasta/record.h"
#include "canasta/value_model.h"

namespace canasta {

// A sample file's header, and its samples: per sample the deal it comes
// from (its index in the run), the final margin from the seat's side, and
// the seat's features.
struct SampleSet {
  Rules rules;
  std::string agents;  // who played, as the command said it
  uint64_t seed = 0;
  int features = 0;
  std::vector<int64_t> deal;
  std::vector<float> margin;
  std::vector<float> x;  // size() * features numbers, sample by sample
  int64_t size() const { return static_cast<int64_t>(margin.size()); }
};

// Up to `per_deal` positions of a recorded deal, chosen at random among its
// decisions from (seed, kSamplePick, row): each the actor's features and
// its side's final margin, appended to `out` as the file holds them.
void append_samples(const DealRecord& rec, uint64_t seed, int64_t row, int per_deal, std::string& out);

// The file: a header (sample_file_header), then the samples. `count` sits
// at byte kSampleCountOffset, so that a writer can fill it in at the end.
constexpr size_t kSampleCountOffset = 28;
std::string sample_file_header(const Rules& rules, const std::string& agents, uint64_t seed, int64_t count);
bool read_samples(const std::string& path, SampleSet& out, std::string& error);

struct TrainConfig {
  std::vector<int> hidden;  // none: the linear model (ridge), else the perceptron's hidden layers
  double ridge = 1.0;       // the linear model's penalty, per sample
  int epochs = 40;          // most epochs of the perceptron
  int patience = 4;         // epochs without a better held-out loss before stopping
  int batch = 256;
  double rate = 1e-3;    // Adam's step size
  double holdout = 0.1;  // share of the deals held out
  uint64_t seed = 1;
  // 0: the target is the final margin; S > 0: tanh(final margin / S), the
  // reward a search with scale=S gives a finished deal.
  double squash = 0;
  // A perceptron to start from (expert iteration: the model of the last
  // round, trained further on the samples of its own play). Its hidden
  // layers, its standardisation of inputs and target and its squash are kept; its
  // weights are the epoch-0 model, which stays unless an epoch does better.
  const ValueModel* init = nullptr;
  // The squash the model fits: the one of `init`, if any, else `squash`.
  double target_squash() const { return init ? init->squash() : squash; }
};

struct EpochReport {
  int epoch = 0;          // 0: the linear model's one fit
  double train_loss = 0;  // mean squared error, in units of the margin's variance
  double held_loss = 0;
  double held_r2 = 0;  // of the held-out margins
};

struct TrainResult {
  int64_t train = 0, held = 0;  // samples
  double held_r2 = 0;           // of the model kept
  // Of the margin on the table as it stands (squashed like the target), as the prediction.
  double table_r2 = 0;
  int best_epoch = 0;
  std::vector<std::pair<float, float>> held_out;  // (predicted, final) target of every held-out sample
};

// Fits `out` (made for the samples' profile and config.hidden) on the
// samples; calls `report` after each epoch. The same samples, config and
// seed give the same model, bit for bit.
bool train_value_model(const SampleSet& data, const TrainConfig& config, ValueModel& out, TrainResult& result,
                       const std::function<void(const EpochReport&)>& report, std::string& error);

}  // namespace canasta
