#include "canasta/learn.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <span>

#include "canasta/features.h"
#include "canasta/training.h"
#include "perceptron.h"

namespace canasta {

namespace {

// Mean squared error and R^2 of predictions against targets.
struct Fit {
  double mse = 0, r2 = 0;
};
Fit fit_of(const Vector& predicted, const Vector& target) {
  Fit f;
  const double n = static_cast<double>(target.size());
  if (n == 0) return f;
  const double mean = target.cast<double>().mean();
  const double ss_res = (predicted - target).cast<double>().squaredNorm();
  const double ss_tot = (target.cast<double>().array() - mean).square().sum();
  f.mse = ss_res / n;
  f.r2 = ss_tot > 0 ? 1 - ss_res / ss_tot : 0;
  return f;
}

double variance(const Vector& y) {
  const double mu = y.cast<double>().mean();
  return (y.cast<double>().array() - mu).square().mean();
}

// Why `config` cannot train on `data`, or empty.
std::string refusal(const SampleSet& data, const TrainConfig& config) {
  if (data.size() < 10) return "too few samples to train on (" + std::to_string(data.size()) + ")";
  if (config.init) {
    const ValueModel& i = *config.init;
    if (i.linear() || i.hidden() != config.hidden)
      return "the model to start from is not a perceptron of these hidden layers";
    if (const std::string why = i.misfit(data.rules); !why.empty() || i.inputs() != data.features)
      return "the model to start from does not fit the samples: " +
             (why.empty() ? "another feature count" : why);
  }
  for (int width : config.hidden)
    if (width < 1 || width > ValueModel::kMaxWidth)
      return "a hidden layer has 1 to " + std::to_string(ValueModel::kMaxWidth) + " units";
  if (static_cast<int>(config.hidden.size()) > ValueModel::kMaxLayers)
    return "at most " + std::to_string(ValueModel::kMaxLayers) + " hidden layers";
  const double squash = config.target_squash();
  if (!(squash >= 0 && squash < 1e9)) return "the squash is 0 or a positive scale";
  return "";
}

// The R^2 of the margin on the table as it stands (the seat's side's table
// score less the others' mean, squashed like the target) as the prediction
// of the held-out targets.
double table_r2(const SampleSet& data, std::span<const int64_t> held, const std::vector<float>& target,
                double squash) {
  const FeatureLayout at = feature_layout(data.rules);
  const int teams = data.rules.teams;
  Vector table(static_cast<Eigen::Index>(held.size())), final(table.size());
  for (size_t j = 0; j < held.size(); ++j) {
    const float* x = data.x.data() + static_cast<size_t>(held[j]) * static_cast<size_t>(data.features);
    double mine = 0, others = 0;
    for (int side = 0; side < teams; ++side)
      (side == 0 ? mine : others) += kScoreScale * x[at.side(side) + kSideTableScore];
    table[static_cast<Eigen::Index>(j)] =
        static_cast<float>(ValueModel::target_of(mine - others / (teams - 1), squash));
    final[static_cast<Eigen::Index>(j)] = target[static_cast<size_t>(held[j])];
  }
  return fit_of(table, final).r2;
}

// The samples as a model reads them: inputs standardised as the model
// does, targets divided by its target's scale.
class ModelSamples {
 public:
  ModelSamples(const SampleSet& data, const std::vector<float>& target, const ValueModel& m)
      : all_(data.x.data(), data.features, data.size()),
        target_(target),
        mean_(Eigen::Map<const Vector>(m.mean().data(), data.features)),
        scale_(Eigen::Map<const Vector>(m.scale().data(), data.features)),
        target_scale_(m.target_scale()) {}

  // The inputs (a column each) and targets of the samples `rows`.
  void gather(std::span<const int64_t> rows, Matrix& x, Vector& y) const {
    x.resize(all_.rows(), static_cast<Eigen::Index>(rows.size()));
    y.resize(static_cast<Eigen::Index>(rows.size()));
    for (size_t j = 0; j < rows.size(); ++j) {
      const int64_t k = rows[j];
      x.col(static_cast<Eigen::Index>(j)) = (all_.col(k) - mean_).cwiseQuotient(scale_);
      y[static_cast<Eigen::Index>(j)] = target_[static_cast<size_t>(k)] / target_scale_;
    }
  }

  // Predictions of `model` (in units of the target's scale) and targets of the samples `rows`.
  void predict(const ValueModel& model, std::span<const int64_t> rows, Vector& pred, Vector& y) const;
  // The same, with their fit.
  Fit fit(const ValueModel& model, std::span<const int64_t> rows, Vector& pred, Vector& y) const {
    predict(model, rows, pred, y);
    return fit_of(pred, y);
  }
  float target_scale() const { return target_scale_; }

 private:
  Eigen::Map<const Matrix> all_;
  const std::vector<float>& target_;
  Vector mean_, scale_;
  float target_scale_;
};

// The layers of a model's parameters.
std::vector<LayerParams> layers_of(ValueModel& m) {
  std::vector<LayerParams> layers;
  int in = m.inputs();
  for (int layer = 0; layer < m.layers(); ++layer) {
    const int out = layer < static_cast<int>(m.hidden().size()) ? m.hidden()[static_cast<size_t>(layer)] : 1;
    layers.push_back({m.weights(layer).data(), m.biases(layer).data(), in, out});
    in = out;
  }
  return layers;
}

void ModelSamples::predict(const ValueModel& model, std::span<const int64_t> rows, Vector& pred,
                           Vector& y) const {
  constexpr size_t kChunk = 8192;
  ValueModel copy = model;
  const Perceptron net(layers_of(copy));
  pred.resize(static_cast<Eigen::Index>(rows.size()));
  y.resize(pred.size());
  Matrix x;
  Vector chunk_y;
  Activations kept;
  for (size_t first = 0; first < rows.size(); first += kChunk) {
    const size_t n = std::min(kChunk, rows.size() - first);
    gather(rows.subspan(first, n), x, chunk_y);
    pred.segment(static_cast<Eigen::Index>(first), static_cast<Eigen::Index>(n)) =
        net.forward(x, kept).row(0).transpose();
    y.segment(static_cast<Eigen::Index>(first), static_cast<Eigen::Index>(n)) = chunk_y;
  }
}

// A model made for the samples, its inputs standardised over the training
// samples and its output scaled by the targets' deviation there; or the
// model started from, whose weights go with its own standardisation.
ValueModel standardised_model(const SampleSet& data, const TrainConfig& config,
                              std::span<const int64_t> train, const TargetMoments& y) {
  if (config.init) return *config.init;
  ValueModel m(data.rules, config.hidden);
  const Standardisation s = standardisation_of(data.x, data.features, train);
  std::copy(s.mean.begin(), s.mean.end(), m.mean().begin());
  std::copy(s.scale.begin(), s.scale.end(), m.scale().begin());
  const double sd = y.sd();
  m.target_scale() = static_cast<float>(sd > 0 ? sd : 1.0);
  m.squash() = static_cast<float>(config.squash);
  return m;
}

// The (predicted, final) targets of the held-out samples, in the target's units.
void keep_held_out(const Vector& pred, const Vector& y, float target_scale, TrainResult& result) {
  result.held_out.clear();
  for (Eigen::Index j = 0; j < pred.size(); ++j)
    result.held_out.emplace_back(pred[j] * target_scale, y[j] * target_scale);
}

// The linear model: ridge regression in closed form (the Gram matrix summed
// in double precision chunk by chunk); the bias is the target's mean.
void fit_ridge(const ModelSamples& samples, const Split& split, double ridge, const TargetMoments& y_moments,
               ValueModel& m, TrainResult& result, const std::function<void(const EpochReport&)>& report) {
  constexpr size_t kChunk = 8192;
  const Eigen::Index f = m.inputs();
  Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(f, f);
  Eigen::VectorXd rhs = Eigen::VectorXd::Zero(f);
  const double y_mean = y_moments.mean / m.target_scale();
  Matrix x;
  Vector y;
  for (size_t first = 0; first < split.train.size(); first += kChunk) {
    const size_t n = std::min(kChunk, split.train.size() - first);
    samples.gather(std::span<const int64_t>(split.train).subspan(first, n), x, y);
    const Eigen::MatrixXd xd = x.cast<double>();
    gram.selfadjointView<Eigen::Lower>().rankUpdate(xd);
    rhs += xd * (y.cast<double>().array() - y_mean).matrix();
  }
  gram = gram.selfadjointView<Eigen::Lower>();
  gram.diagonal().array() += ridge * static_cast<double>(split.train.size());
  const Eigen::VectorXd w = gram.ldlt().solve(rhs);
  for (Eigen::Index i = 0; i < f; ++i) m.weights(0)[static_cast<size_t>(i)] = static_cast<float>(w[i]);
  m.biases(0)[0] = static_cast<float>(y_mean);
  Vector pt, yt, ph, yh;
  const Fit ft = samples.fit(m, split.train, pt, yt), fh = samples.fit(m, split.held, ph, yh);
  if (report) report(EpochReport{0, ft.mse / variance(yt), fh.mse / variance(yh), fh.r2});
  result.held_r2 = fh.r2;
  keep_held_out(ph, yh, m.target_scale(), result);
}

// A minibatch of the perceptron: the mean squared error's gradient (the
// loss is half the mean), then Adam's step. Returns the summed squared error.
struct PerceptronStep {
  const ModelSamples& samples;
  Perceptron& net;
  Adam& adam;
  Matrix x;
  Vector y;
  Activations kept;
  Gradients gradients;

  double operator()(std::span<const int64_t> rows) {
    samples.gather(rows, x, y);
    const Matrix pred = net.forward(x, kept);
    Matrix delta = (pred.row(0) - y.transpose()) / static_cast<float>(rows.size());
    const double loss = static_cast<double>((pred.row(0) - y.transpose()).squaredNorm());
    net.backward(std::move(delta), kept, gradients);
    adam_step(adam, net, gradients);
    return loss;
  }
};

// The perceptron: He-initialised weights (or those of the model started
// from, reported as epoch 0), minibatch Adam on the mean squared error,
// the weights of the best held-out epoch kept.
void fit_perceptron(const ModelSamples& samples, const Split& split, const TrainConfig& config,
                    const TargetMoments& y_moments, ValueModel& m, TrainResult& result,
                    const std::function<void(const EpochReport&)>& report) {
  Perceptron net(layers_of(m));
  if (!config.init) net.initialise(config.seed);
  std::vector<size_t> sizes;
  for (int layer = 0; layer < m.layers(); ++layer)
    for (const auto* v : {&m.weights(layer), &m.biases(layer)}) sizes.push_back(v->size());
  Adam adam(config.rate, sizes);
  // The losses in units of the targets' variance: the training targets'
  // (in the model's units: 1 unless the target scale comes from the model
  // started from), and the held-out targets' at the first report.
  const double scale = m.target_scale();
  const double train_variance = std::max(1e-12, y_moments.variance / (scale * scale));
  double held_variance = 0, best_loss = INFINITY;
  Vector ph, yh;
  Fit fh;
  ValueModel best = m;
  if (config.init) {
    Vector pt, yt;
    const Fit ft = samples.fit(m, split.train, pt, yt);
    fh = samples.fit(m, split.held, ph, yh);
    held_variance = variance(yh);
    if (report) report(EpochReport{0, ft.mse / train_variance, fh.mse / held_variance, fh.r2});
    best_loss = fh.mse;
    result.held_r2 = fh.r2;
    keep_held_out(ph, yh, m.target_scale(), result);
  }
  PerceptronStep minibatch{samples, net, adam, {}, {}, {}, {}};
  const auto step = [&](std::span<const int64_t> rows) { return minibatch(rows); };
  const auto end = [&](int epoch, double train_loss) {
    fh = samples.fit(m, split.held, ph, yh);
    if (epoch == 1 && !config.init) held_variance = variance(yh);
    if (report) report(EpochReport{epoch, train_loss / train_variance, fh.mse / held_variance, fh.r2});
    return fh.mse;
  };
  const auto keep = [&](int epoch) {
    best = m;
    result.held_r2 = fh.r2;
    keep_held_out(ph, yh, m.target_scale(), result);
    result.best_epoch = epoch;
  };
  train_epochs(split.train, EpochPlan{config.epochs, config.patience, config.batch, config.seed}, best_loss,
               step, end, keep);
  m = std::move(best);
}

}  // namespace

bool train_value_model(const SampleSet& data, const TrainConfig& config, ValueModel& out, TrainResult& result,
                       const std::function<void(const EpochReport&)>& report, std::string& error) {
  // 1. The checks.
  if (std::string why = refusal(data, config); !why.empty()) {
    error = why;
    return false;
  }
  // 2. The targets: final margins, or squashed ones.
  const double squash = config.target_squash();
  std::vector<float> target(data.margin.size());
  for (size_t i = 0; i < target.size(); ++i)
    target[i] = static_cast<float>(ValueModel::target_of(data.margin[i], squash));
  // 3. The deals held out.
  const Split split = split_by_deal(data.deal, config.holdout, config.seed);
  if (split.train.empty() || split.held.empty()) {
    error = "too few deals to hold some out";
    return false;
  }
  result.train = static_cast<int64_t>(split.train.size());
  result.held = static_cast<int64_t>(split.held.size());
  // 4. The baseline: the margin on the table.
  result.table_r2 = table_r2(data, split.held, target, squash);
  // 5. The model standardised on the training samples, then fitted.
  const TargetMoments y = moments_of(target, split.train);
  ValueModel m = standardised_model(data, config, split.train, y);
  const ModelSamples samples(data, target, m);
  if (config.hidden.empty())
    fit_ridge(samples, split, config.ridge, y, m, result, report);
  else
    fit_perceptron(samples, split, config, y, m, result, report);
  m.prepare();
  out = std::move(m);
  return true;
}

std::vector<CalibrationBin> calibration_bins(const TrainResult& result, size_t bins) {
  auto held = result.held_out;
  std::sort(held.begin(), held.end());
  std::vector<CalibrationBin> out(std::min(bins, held.size()));
  for (size_t b = 0; b < out.size(); ++b) {
    const size_t lo = held.size() * b / out.size(), hi = held.size() * (b + 1) / out.size();
    double p = 0, y = 0;
    for (size_t i = lo; i < hi; ++i) p += held[i].first, y += held[i].second;
    const double n = static_cast<double>(hi - lo);
    out[b] = {hi - lo, p / n, y / n};
  }
  return out;
}

}  // namespace canasta
