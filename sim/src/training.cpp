#include "canasta/training.h"

#include <Eigen/Dense>
#include <algorithm>
#include <numeric>

#include "canasta/rng.h"

namespace canasta {

Split split_by_deal(std::span<const int64_t> deal, double holdout, uint64_t seed) {
  Split split;
  for (size_t i = 0; i < deal.size(); ++i) {
    const uint64_t h = derive_seed(seed, Stream::kTrain, static_cast<uint64_t>(deal[i]) + 1);
    (static_cast<double>(h >> 11) * 0x1.0p-53 < holdout ? split.held : split.train)
        .push_back(static_cast<int64_t>(i));
  }
  return split;
}

Standardisation standardisation_of(std::span<const float> x, int inputs, std::span<const int64_t> rows) {
  const Eigen::Map<const Eigen::MatrixXf> all(x.data(), inputs, static_cast<Eigen::Index>(x.size()) / inputs);
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(inputs), sq = Eigen::VectorXd::Zero(inputs);
  for (const int64_t k : rows) {
    const Eigen::VectorXd c = all.col(k).cast<double>();
    sum += c;
    sq += c.cwiseProduct(c);
  }
  const double n = static_cast<double>(rows.size());
  const Eigen::VectorXf mean = (sum / n).cast<float>();
  Eigen::VectorXf scale =
      ((sq / n - (sum / n).cwiseProduct(sum / n)).cwiseMax(0.0).cwiseSqrt()).cast<float>();
  for (Eigen::Index i = 0; i < scale.size(); ++i)
    if (!(scale[i] > 1e-6F)) scale[i] = 1;
  return {std::vector<float>(mean.data(), mean.data() + inputs),
          std::vector<float>(scale.data(), scale.data() + inputs)};
}

TargetMoments moments_of(std::span<const float> y, std::span<const int64_t> rows) {
  double sum = 0, sq = 0;
  for (const int64_t k : rows) {
    const double v = y[static_cast<size_t>(k)];
    sum += v;
    sq += v * v;
  }
  const double n = static_cast<double>(rows.size());
  TargetMoments m;
  m.mean = sum / n;
  m.variance = sq / n - m.mean * m.mean;
  return m;
}

Adam::Adam(double rate, const std::vector<size_t>& sizes) : rate_(rate) {
  for (const size_t size : sizes) {
    mom_.emplace_back(size, 0.0F);
    vel_.emplace_back(size, 0.0F);
  }
}

void Adam::next_step() {
  ++t_;
  c1_ = 1 - std::pow(0.9, static_cast<double>(t_));
  c2_ = 1 - std::pow(0.999, static_cast<double>(t_));
}

void Adam::update(size_t block, std::span<float> params, std::span<const float> gradient) {
  float* mo = mom_[block].data();
  float* ve = vel_[block].data();
  float* p = params.data();
  const float* g = gradient.data();
  for (size_t i = 0; i < params.size(); ++i) {
    mo[i] = 0.9F * mo[i] + 0.1F * g[i];
    ve[i] = 0.999F * ve[i] + 0.001F * g[i] * g[i];
    p[i] -= static_cast<float>(rate_ * (mo[i] / c1_) / (std::sqrt(ve[i] / c2_) + 1e-8));
  }
}

int train_epochs(std::span<const int64_t> train, const EpochPlan& plan, double best_loss,
                 const MinibatchStep& step, const EpochEnd& end, const std::function<void(int epoch)>& keep) {
  std::vector<int64_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> rows(train.size());
  const auto batch = static_cast<size_t>(plan.batch);
  int kept = 0, since = 0;
  for (int epoch = 1; epoch <= plan.epochs; ++epoch) {
    Rng shuffle(derive_seed(plan.seed, Stream::kTrain, static_cast<uint64_t>(epoch)));
    for (size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[shuffle.below(static_cast<uint32_t>(i))]);
    for (size_t i = 0; i < order.size(); ++i) rows[i] = train[static_cast<size_t>(order[i])];
    double loss_sum = 0;
    for (size_t start = 0; start < rows.size(); start += batch)
      loss_sum += step(std::span<const int64_t>(rows).subspan(start, std::min(rows.size() - start, batch)));
    const double held_loss = end(epoch, loss_sum / static_cast<double>(rows.size()));
    if (held_loss < best_loss) {
      best_loss = held_loss;
      kept = epoch;
      since = 0;
      keep(epoch);
    } else if (++since >= plan.patience) {
      break;
    }
  }
  return kept;
}

}  // namespace canasta
