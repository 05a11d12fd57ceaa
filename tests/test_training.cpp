// The steps of training shared by learned models (canasta/training.h): the
// split by whole deals, the standardisation, the moments of a target,
// Adam's step and minibatch epochs with early stopping.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "canasta/training.h"

namespace canasta::test {
namespace {

// Samples of 1,000 deals, 1 to 4 samples a deal, in deal order.
std::vector<int64_t> deals_of_samples() {
  std::vector<int64_t> deal;
  for (int64_t d = 0; d < 1000; ++d)
    for (int64_t i = 0; i <= d % 4; ++i) deal.push_back(d);
  return deal;
}

TEST(TrainingSteps, SplitsByWholeDeals) {
  const std::vector<int64_t> deal = deals_of_samples();
  const Split split = split_by_deal(deal, 0.2, 7);
  // Every sample once, in order on each side.
  std::vector<int64_t> all = split.train;
  all.insert(all.end(), split.held.begin(), split.held.end());
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), deal.size());
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], static_cast<int64_t>(i));
  EXPECT_TRUE(std::is_sorted(split.train.begin(), split.train.end()));
  EXPECT_TRUE(std::is_sorted(split.held.begin(), split.held.end()));
  // A deal's samples all on one side; about a fifth of the deals held out.
  std::set<int64_t> held_deals, train_deals;
  for (const int64_t i : split.held) held_deals.insert(deal[static_cast<size_t>(i)]);
  for (const int64_t i : split.train) train_deals.insert(deal[static_cast<size_t>(i)]);
  for (const int64_t d : held_deals) EXPECT_EQ(train_deals.count(d), 0U) << "deal " << d;
  EXPECT_GT(held_deals.size(), 150U);
  EXPECT_LT(held_deals.size(), 250U);
  // A deal is held out whatever else the set holds, and by the seed.
  const std::vector<int64_t> few(deal.begin() + 100, deal.begin() + 300);
  for (const int64_t i : split_by_deal(few, 0.2, 7).held)
    EXPECT_EQ(held_deals.count(few[static_cast<size_t>(i)]), 1U);
  EXPECT_EQ(split_by_deal(deal, 0.2, 7).held, split.held);
  EXPECT_NE(split_by_deal(deal, 0.2, 8).held, split.held);
  EXPECT_TRUE(split_by_deal(deal, 0.0, 7).held.empty());
}

TEST(TrainingSteps, StandardisesOverTheTrainingSamplesOnly) {
  // Three inputs, four samples; sample 3 is not trained on.
  const std::vector<float> x = {1,   5,    2,  //
                                3,   5,    4,  //
                                5,   5,    9,  //
                                100, -100, 100};
  const std::vector<int64_t> rows = {0, 1, 2};
  const Standardisation s = standardisation_of(x, 3, rows);
  ASSERT_EQ(s.mean.size(), 3U);
  EXPECT_FLOAT_EQ(s.mean[0], 3);
  EXPECT_FLOAT_EQ(s.mean[1], 5);
  EXPECT_FLOAT_EQ(s.mean[2], 5);
  EXPECT_FLOAT_EQ(s.scale[0], std::sqrt(8.0F / 3));
  EXPECT_EQ(s.scale[1], 1);  // an input that does not vary is left unscaled
  EXPECT_FLOAT_EQ(s.scale[2], std::sqrt(26.0F / 3));
}

TEST(TrainingSteps, MomentsOfTheTargets) {
  const std::vector<float> y = {2, 4, 4, 4, 5, 5, 7, 9, 1000};
  const std::vector<int64_t> rows = {0, 1, 2, 3, 4, 5, 6, 7};
  const TargetMoments m = moments_of(y, rows);
  EXPECT_DOUBLE_EQ(m.mean, 5);
  EXPECT_DOUBLE_EQ(m.variance, 4);
  EXPECT_DOUBLE_EQ(m.sd(), 2);
}

// Adam on (p - 3)^2 and, in a second block, (q + 1)^2: its first step
// moves each parameter by the step size against its gradient's sign, and
// it then finds both minima.
TEST(TrainingSteps, AdamFindsTheMinimumOfEachBlock) {
  Adam adam(0.05, {1, 1});
  std::vector<float> p = {0}, q = {0};
  const auto step = [&] {
    adam.next_step();
    const std::vector<float> gp = {2 * (p[0] - 3)}, gq = {2 * (q[0] + 1)};
    adam.update(0, p, gp);
    adam.update(1, q, gq);
  };
  step();
  EXPECT_NEAR(p[0], 0.05, 1e-6);
  EXPECT_NEAR(q[0], -0.05, 1e-6);
  for (int i = 1; i < 2000; ++i) step();
  EXPECT_EQ(adam.steps(), 2000);
  EXPECT_NEAR(p[0], 3, 0.01);
  EXPECT_NEAR(q[0], -1, 0.01);
}

// What train_epochs did: the minibatches of every epoch run, the epochs kept.
struct Epochs {
  std::vector<std::vector<std::vector<int64_t>>> batches;  // per epoch
  std::vector<int> kept;
  int best = -1;
};

// Runs epochs whose minibatches lose 1 a sample, epoch e reporting the held-out loss held[e - 1].
Epochs run_epochs(const std::vector<int64_t>& train, const EpochPlan& plan, const std::vector<double>& held,
                  double best_loss = INFINITY) {
  Epochs out;
  std::vector<std::vector<int64_t>> batches;
  out.best = train_epochs(
      train, plan, best_loss,
      [&](std::span<const int64_t> rows) {
        batches.emplace_back(rows.begin(), rows.end());
        return static_cast<double>(rows.size());
      },
      [&](int epoch, double train_loss) {
        EXPECT_EQ(train_loss, 1);  // the mean a sample
        out.batches.push_back(std::move(batches));
        batches.clear();
        return held[static_cast<size_t>(epoch - 1)];
      },
      [&](int epoch) { out.kept.push_back(epoch); });
  return out;
}

TEST(TrainingSteps, EpochsShuffleEverySampleIntoMinibatches) {
  std::vector<int64_t> train;
  for (int64_t i = 0; i < 103; ++i) train.push_back(3 * i);
  const EpochPlan plan{.epochs = 3, .patience = 5, .batch = 10, .seed = 4};
  const Epochs e = run_epochs(train, plan, {3, 2, 1});
  EXPECT_EQ(e.kept, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(e.best, 3);
  ASSERT_EQ(e.batches.size(), 3U);
  std::vector<std::vector<int64_t>> orders;
  for (const auto& batches : e.batches) {
    ASSERT_EQ(batches.size(), 11U);
    std::vector<int64_t> order;
    for (size_t b = 0; b < batches.size(); ++b) {
      EXPECT_EQ(batches[b].size(), b + 1 < batches.size() ? 10U : 3U);
      order.insert(order.end(), batches[b].begin(), batches[b].end());
    }
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(sorted, train);  // every training sample once
    orders.push_back(order);
  }
  EXPECT_NE(orders[0], train);                                       // shuffled ...
  EXPECT_NE(orders[0], orders[1]);                                   // ... again each epoch
  EXPECT_EQ(run_epochs(train, plan, {3, 2, 1}).batches, e.batches);  // by the seed
  EXPECT_NE(run_epochs(train, {.epochs = 3, .patience = 5, .batch = 10, .seed = 5}, {3, 2, 1}).batches,
            e.batches);
}

TEST(TrainingSteps, EpochsStopWithoutALowerHeldOutLoss) {
  const std::vector<int64_t> train = {0, 1, 2, 3};
  const EpochPlan plan{.epochs = 10, .patience = 2, .batch = 3, .seed = 1};
  // Epoch 2 is the best; epochs 3 and 4 do not beat it: stop after 4.
  Epochs e = run_epochs(train, plan, {5, 4, 4, 6, 1, 1, 1, 1, 1, 1});
  EXPECT_EQ(e.kept, (std::vector<int>{1, 2}));
  EXPECT_EQ(e.best, 2);
  EXPECT_EQ(e.batches.size(), 4U);
  // A model to start from that no epoch beats: none kept.
  e = run_epochs(train, plan, {5, 4, 4, 6, 1, 1, 1, 1, 1, 1}, 3.0);
  EXPECT_TRUE(e.kept.empty());
  EXPECT_EQ(e.best, 0);
  EXPECT_EQ(e.batches.size(), 2U);
  // Still falling: every epoch is run.
  e = run_epochs(train, plan, {10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
  EXPECT_EQ(e.best, 10);
  EXPECT_EQ(e.kept.size(), 10U);
}

}  // namespace
}  // namespace canasta::test
