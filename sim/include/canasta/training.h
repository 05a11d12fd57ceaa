// The steps of training that learned models share (canasta/learn.h trains
// the value models with them): the held-out split by whole deals, the
// standardisation of inputs, the moments of a target, Adam's step, and
// minibatch epochs with early stopping. Each is deterministic: the same
// numbers and seed give the same result, bit for bit. They draw on the
// stream (seed, kTrain, i): i = epoch for the order of an epoch's samples,
// i = deal + 1 for the split (i = 0 is left to the initial weights).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace canasta {

// Samples (their indices) trained on and held out.
struct Split {
  std::vector<int64_t> train, held;
};
// Holds out all the samples of a share `holdout` of the deals, chosen by a
// hash of (seed, deal), so that a deal is held out or not whatever else the
// set holds; `deal[i]` is sample i's deal. Both lists are in sample order.
Split split_by_deal(std::span<const int64_t> deal, double holdout, uint64_t seed);

// Inputs standardised as (x - mean) / scale, input by input.
struct Standardisation {
  std::vector<float> mean, scale;
};
// Over the samples `rows` of `x` (`inputs` numbers a sample, sample after
// sample; rows not empty): each input's mean and standard deviation, a
// deviation of 1e-6 or less (an input that does not vary) taken as 1.
// Summed in double precision.
Standardisation standardisation_of(std::span<const float> x, int inputs, std::span<const int64_t> rows);

// The mean and variance of targets over some samples.
struct TargetMoments {
  double mean = 0;
  double variance = 0;  // as summed: slightly negative when it should be 0
  double sd() const { return std::sqrt(std::max(0.0, variance)); }
};
// Over the samples `rows` of `y` (rows not empty), summed in double precision.
TargetMoments moments_of(std::span<const float> y, std::span<const int64_t> rows);

// Adam (Kingma and Ba: beta1 0.9, beta2 0.999, epsilon 1e-8) over blocks
// of parameters, each with its moments.
class Adam {
 public:
  // `rate`: the step size; `sizes`: how many parameters each block holds.
  Adam(double rate, const std::vector<size_t>& sizes);
  // Starts the next step (the first is step 1): every block is then updated once.
  void next_step();
  // Moves a block's parameters against their gradient (of the block's size).
  void update(size_t block, std::span<float> params, std::span<const float> gradient);
  int64_t steps() const { return t_; }

 private:
  double rate_;
  std::vector<std::vector<float>> mom_, vel_;
  int64_t t_ = 0;
  double c1_ = 1, c2_ = 1;  // the bias corrections of the moments at step t_
};

// How minibatch epochs run.
struct EpochPlan {
  int epochs = 40;   // at most
  int patience = 4;  // epochs in a row without a lower held-out loss before stopping
  int batch = 256;   // samples a minibatch
  uint64_t seed = 1;
};
// Trains on a minibatch of samples (their indices); returns its summed loss.
using MinibatchStep = std::function<double(std::span<const int64_t> rows)>;
// After an epoch: measures the model on the held-out samples; `train_loss`
// is the mean of the epoch's minibatch losses a sample. Returns the held-out loss.
using EpochEnd = std::function<double(int epoch, double train_loss)>;

// Epochs 1, 2, ... of minibatch training on the samples `train`: each
// shuffles them (from the last epoch's order, with (seed, kTrain, epoch)),
// hands them to `step` `batch` at a time (the last minibatch smaller), then
// calls `end`. `keep(epoch)` is called when an epoch's held-out loss is the
// lowest yet, below `best_loss` (that of the model trained from, or
// infinity). Stops after plan.epochs, or once plan.patience epochs in a row
// have not lowered it. Returns the epoch kept last (0: none).
int train_epochs(std::span<const int64_t> train, const EpochPlan& plan, double best_loss,
                 const MinibatchStep& step, const EpochEnd& end, const std::function<void(int epoch)>& keep);

}  // namespace canasta
