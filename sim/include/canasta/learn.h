// The training of value models (canasta/value_model.h) on the samples of
// self-play (canasta/samples.h), with the steps of canasta/training.h, on
// Eigen (agents/doc/learned.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "canasta/samples.h"
#include "canasta/value_model.h"

namespace canasta {

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

// The held-out samples of a result in `bins` bins of equal size (fewer
// when there are fewer samples) by predicted target, in order: per bin its
// samples and their mean predicted and final target.
struct CalibrationBin {
  size_t samples = 0;
  double predicted = 0, final = 0;
};
std::vector<CalibrationBin> calibration_bins(const TrainResult& result, size_t bins);

}  // namespace canasta
