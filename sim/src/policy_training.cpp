#include "canasta/policy_training.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <span>
#include <tuple>

#include "canasta/training.h"
#include "perceptron.h"

namespace canasta {

namespace {

// The parameters being trained, laid out as the perceptron reads them: the
// hidden layer (hidden x inputs) and the scores of every action (actions x
// hidden, the embeddings as rows), with their biases.
struct TrainedPolicy {
  std::vector<float> w, b, e, c;
  int inputs = 0, hidden = 0, actions = 0;

  explicit TrainedPolicy(const PolicyModel& m)
      : w(m.hidden_weights()),
        b(m.hidden_biases()),
        c(m.action_biases()),
        inputs(m.inputs()),
        hidden(m.hidden()),
        actions(m.actions()) {
    e.resize(m.embeddings().size());
    for (int a = 0; a < actions; ++a)
      for (int o = 0; o < hidden; ++o)
        e[static_cast<size_t>(o * actions + a)] = m.embeddings()[static_cast<size_t>(a * hidden + o)];
  }
  std::vector<LayerParams> layers() {
    return {{w.data(), b.data(), inputs, hidden}, {e.data(), c.data(), hidden, actions}};
  }
  void into(PolicyModel& m) const {
    std::copy(w.begin(), w.end(), m.hidden_weights().begin());
    std::copy(b.begin(), b.end(), m.hidden_biases().begin());
    std::copy(c.begin(), c.end(), m.action_biases().begin());
    for (int a = 0; a < actions; ++a)
      for (int o = 0; o < hidden; ++o)
        m.embeddings()[static_cast<size_t>(a * hidden + o)] = e[static_cast<size_t>(o * actions + a)];
    m.prepare();
  }
};

// The samples as the policy reads them: inputs standardised as it does.
class PolicyBatches {
 public:
  PolicyBatches(const PolicySamples& data, const PolicyModel& m, PolicyTarget target)
      : data_(data),
        target_(target),
        all_(data.x.data(), data.features, data.size()),
        mean_(Eigen::Map<const Vector>(m.mean().data(), data.features)),
        scale_(Eigen::Map<const Vector>(m.scale().data(), data.features)) {}

  // The inputs of the samples `rows`, a column each.
  void gather(std::span<const int64_t> rows, Matrix& x) const {
    x.resize(all_.rows(), static_cast<Eigen::Index>(rows.size()));
    for (size_t j = 0; j < rows.size(); ++j)
      x.col(static_cast<Eigen::Index>(j)) = (all_.col(rows[j]) - mean_).cwiseQuotient(scale_);
  }

  // Sample k's cross-entropy against its target (the visit distribution, or
  // the action played), whether its most likely action is the target's most
  // likely one, and (with `delta`) the loss's gradient by its scores,
  // divided by `n`.
  double loss(int64_t k, const float* scores, bool& agrees, float* delta, float n) const {
    const auto first = static_cast<size_t>(data_.offset[static_cast<size_t>(k)]);
    const auto last = static_cast<size_t>(data_.offset[static_cast<size_t>(k) + 1]);
    double top = -INFINITY, visits = 0;
    size_t best = first, most = first;
    for (size_t j = first; j < last; ++j) {
      const double s = scores[data_.ids[j]];
      if (s > top) top = s, best = j;
      if (data_.visits[j] > data_.visits[most]) most = j;
      visits += data_.visits[j];
    }
    const bool played = target_ == PolicyTarget::kPlayed;
    if (played) most = first + data_.played[static_cast<size_t>(k)];
    double sum = 0;
    for (size_t j = first; j < last; ++j) sum += std::exp(scores[data_.ids[j]] - top);
    const double log_sum = top + std::log(sum);
    double ce = 0;
    for (size_t j = first; j < last; ++j) {
      const double target = played       ? (j == most ? 1.0 : 0.0)
                            : visits > 0 ? data_.visits[j] / visits
                                         : 1.0 / static_cast<double>(last - first);
      const double log_p = scores[data_.ids[j]] - log_sum;
      ce -= target * log_p;
      if (delta) delta[data_.ids[j]] = static_cast<float>((std::exp(log_p) - target) / n);
    }
    agrees = best == most;
    return ce;
  }

  // The policy's mean loss and agreement over the samples `rows`.
  std::pair<double, double> measure(const Perceptron& net, std::span<const int64_t> rows) const {
    constexpr size_t kChunk = 4096;
    Matrix x;
    Activations kept;
    double loss_sum = 0, agree = 0;
    for (size_t first = 0; first < rows.size(); first += kChunk) {
      const auto chunk = rows.subspan(first, std::min(kChunk, rows.size() - first));
      gather(chunk, x);
      const Matrix scores = net.forward(x, kept);
      for (size_t j = 0; j < chunk.size(); ++j) {
        bool agrees = false;
        loss_sum += loss(chunk[j], scores.col(static_cast<Eigen::Index>(j)).data(), agrees, nullptr, 1);
        agree += agrees ? 1 : 0;
      }
    }
    const double n = std::max<double>(1, static_cast<double>(rows.size()));
    return {loss_sum / n, agree / n};
  }

  // The uniform policy's mean loss and agreement over `rows`.
  std::pair<double, double> uniform(std::span<const int64_t> rows, int actions) const {
    std::vector<float> zero(static_cast<size_t>(actions), 0.0F);
    double loss_sum = 0, agree = 0;
    for (const int64_t k : rows) {
      bool agrees = false;
      loss_sum += loss(k, zero.data(), agrees, nullptr, 1);
      const auto n = static_cast<double>(data_.offset[static_cast<size_t>(k) + 1] -
                                         data_.offset[static_cast<size_t>(k)]);
      agree += 1 / n;  // a uniform choice agrees one time in n
    }
    const double n = std::max<double>(1, static_cast<double>(rows.size()));
    return {loss_sum / n, agree / n};
  }

 private:
  const PolicySamples& data_;
  PolicyTarget target_;

 private:
  Eigen::Map<const Matrix> all_;
  Vector mean_, scale_;
};

// A minibatch: the mean cross-entropy's gradient, then Adam's step.
// Returns the summed cross-entropy.
struct PolicyStep {
  const PolicyBatches& batches;
  Perceptron& net;
  Adam& adam;
  Matrix x, delta;
  Activations kept;
  Gradients gradients;

  double operator()(std::span<const int64_t> rows) {
    batches.gather(rows, x);
    const Matrix scores = net.forward(x, kept);
    delta.setZero(scores.rows(), scores.cols());
    double loss = 0;
    for (size_t j = 0; j < rows.size(); ++j) {
      bool agrees = false;
      const auto col = static_cast<Eigen::Index>(j);
      loss += batches.loss(rows[j], scores.col(col).data(), agrees, delta.col(col).data(),
                           static_cast<float>(rows.size()));
    }
    net.backward(delta, kept, gradients);
    adam_step(adam, net, gradients);
    return loss;
  }
};

// Why `config` cannot train on `data`, or empty.
std::string refusal(const PolicySamples& data, const PolicyTrainConfig& config) {
  if (data.size() < 10) return "too few samples to train on (" + std::to_string(data.size()) + ")";
  if (config.init) {
    if (const std::string why = config.init->misfit(data.rules); !why.empty())
      return "the policy to start from does not fit the samples: it " + why;
    return "";
  }
  if (config.hidden < 8 || config.hidden > PolicyModel::kMaxHidden || config.hidden % 8 != 0)
    return "a policy's hidden layer has 8 to " + std::to_string(PolicyModel::kMaxHidden) +
           " units, by eights";
  return "";
}

// A policy made for the samples, its inputs standardised over the training
// samples; or the one started from, with its own standardisation.
PolicyModel standardised_policy(const PolicySamples& data, const PolicyTrainConfig& config,
                                std::span<const int64_t> train) {
  if (config.init) return *config.init;
  PolicyModel m(data.rules, config.hidden);
  const Standardisation s = standardisation_of(data.x, data.features, train);
  std::copy(s.mean.begin(), s.mean.end(), m.mean().begin());
  std::copy(s.scale.begin(), s.scale.end(), m.scale().begin());
  return m;
}

}  // namespace

bool train_policy(const PolicySamples& data, const PolicyTrainConfig& config, PolicyModel& out,
                  PolicyTrainResult& result, const std::function<void(const PolicyEpochReport&)>& report,
                  std::string& error) {
  // 1. The checks; 2. the split by whole deals; 3. the standardisation.
  if (std::string why = refusal(data, config); !why.empty()) {
    error = why;
    return false;
  }
  const Split split = split_by_deal(data.deal, config.holdout, config.seed);
  if (split.train.empty() || split.held.empty()) {
    error = "the split left no samples to train on or to hold out (give more deals)";
    return false;
  }
  PolicyModel m = standardised_policy(data, config, split.train);
  result.train = static_cast<int64_t>(split.train.size());
  result.held = static_cast<int64_t>(split.held.size());
  // 4. Minibatch Adam on the cross-entropy, the best held-out epoch kept.
  TrainedPolicy params(m);
  Perceptron net(params.layers());
  if (!config.init) net.initialise(config.seed);
  const PolicyBatches batches(data, m, config.target);
  std::tie(result.uniform_loss, result.uniform_agreement) = batches.uniform(split.held, m.actions());
  Adam adam(config.rate, {params.w.size(), params.b.size(), params.e.size(), params.c.size()});
  double best_loss = INFINITY, held_loss = 0, held_agreement = 0;
  const auto measure = [&] { std::tie(held_loss, held_agreement) = batches.measure(net, split.held); };
  PolicyModel best = m;
  if (config.init) {
    measure();
    const double train_loss = batches.measure(net, split.train).first;
    if (report) report(PolicyEpochReport{0, train_loss, held_loss, held_agreement});
    best_loss = held_loss;
    result.held_loss = held_loss;
    result.held_agreement = held_agreement;
  }
  PolicyStep minibatch{batches, net, adam, {}, {}, {}, {}};
  const auto step = [&](std::span<const int64_t> rows) { return minibatch(rows); };
  const auto end = [&](int epoch, double train_loss) {
    measure();
    if (report) report(PolicyEpochReport{epoch, train_loss, held_loss, held_agreement});
    return held_loss;
  };
  const auto keep = [&](int epoch) {
    params.into(best);
    result.best_epoch = epoch;
    result.held_loss = held_loss;
    result.held_agreement = held_agreement;
  };
  train_epochs(split.train, EpochPlan{config.epochs, config.patience, config.batch, config.seed}, best_loss,
               step, end, keep);
  best.prepare();
  out = std::move(best);
  return true;
}

}  // namespace canasta
