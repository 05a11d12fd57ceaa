#include "canasta/learn.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "canasta/engine.h"
#include "canasta/rng.h"

namespace canasta {

namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;
using Vector = Eigen::VectorXf;

// A standard normal number (Box-Muller) from the project's generator.
double normal(Rng& rng) {
  const double u = std::max(rng.uniform(), 1e-300), v = rng.uniform();
  return std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * v);
}

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

// The perceptron's forward pass over a batch (inputs: features x samples),
// keeping every layer's pre-activations for the backward pass.
struct Net {
  ValueModel& m;
  std::vector<Eigen::Map<Matrix>> w;
  std::vector<Eigen::Map<Vector>> b;
  explicit Net(ValueModel& model) : m(model) {
    int in = m.inputs();
    for (int layer = 0; layer < m.layers(); ++layer) {
      const int out =
          layer < static_cast<int>(m.hidden().size()) ? m.hidden()[static_cast<size_t>(layer)] : 1;
      w.emplace_back(m.weights(layer).data(), out, in);
      b.emplace_back(m.biases(layer).data(), out);
      in = out;
    }
  }
  // Returns the outputs (1 x samples); z[l] holds layer l's pre-activations, a[l] its input.
  Matrix forward(const Matrix& x, std::vector<Matrix>& a, std::vector<Matrix>& z) const {
    a.assign(w.size(), Matrix());
    z.assign(w.size(), Matrix());
    a[0] = x;
    for (size_t l = 0; l < w.size(); ++l) {
      z[l] = (w[l] * a[l]).colwise() + b[l];
      if (l + 1 < w.size()) a[l + 1] = z[l].cwiseMax(0.0F);
    }
    return z.back();
  }
};

}  // namespace

bool train_value_model(const SampleSet& data, const TrainConfig& config, ValueModel& out, TrainResult& result,
                       const std::function<void(const EpochReport&)>& report, std::string& error) {
  const int f = data.features;
  if (data.size() < 10) {
    error = "too few samples to train on (" + std::to_string(data.size()) + ")";
    return false;
  }
  if (config.init) {
    const ValueModel& i = *config.init;
    if (i.linear() || i.hidden() != config.hidden) {
      error = "the model to start from is not a perceptron of these hidden layers";
      return false;
    }
    if (const std::string why = i.misfit(data.rules); !why.empty() || i.inputs() != f) {
      error = "the model to start from does not fit the samples: " +
              (why.empty() ? "another feature count" : why);
      return false;
    }
  }
  for (int width : config.hidden)
    if (width < 1 || width > ValueModel::kMaxWidth) {
      error = "a hidden layer has 1 to " + std::to_string(ValueModel::kMaxWidth) + " units";
      return false;
    }
  if (static_cast<int>(config.hidden.size()) > ValueModel::kMaxLayers) {
    error = "at most " + std::to_string(ValueModel::kMaxLayers) + " hidden layers";
    return false;
  }
  const double squash = config.target_squash();
  if (!(squash >= 0 && squash < 1e9)) {
    error = "the squash is 0 or a positive scale";
    return false;
  }
  // The targets: final margins, or squashed ones.
  const auto squashed = [squash](double margin) { return ValueModel::target_of(margin, squash); };
  std::vector<float> target(data.margin.size());
  for (size_t i = 0; i < target.size(); ++i) target[i] = static_cast<float>(squashed(data.margin[i]));
  // Held out: the samples of a share of the deals, by a hash of the deal.
  std::vector<int64_t> train, held;
  for (int64_t i = 0; i < data.size(); ++i) {
    const uint64_t h = derive_seed(config.seed, Stream::kTrain,
                                   static_cast<uint64_t>(data.deal[static_cast<size_t>(i)]) + 1);
    (static_cast<double>(h >> 11) * 0x1.0p-53 < config.holdout ? held : train).push_back(i);
  }
  if (train.empty() || held.empty()) {
    error = "too few deals to hold some out";
    return false;
  }
  result.train = static_cast<int64_t>(train.size());
  result.held = static_cast<int64_t>(held.size());
  const Eigen::Map<const Matrix> all(data.x.data(), f, data.size());
  // The table's margin as it stands, as a prediction (the features' own side less the others' mean).
  {
    Vector table(static_cast<Eigen::Index>(held.size())), final(table.size());
    const int teams = data.rules.teams;
    for (size_t j = 0; j < held.size(); ++j) {
      double mine = 0, others = 0;
      for (int side = 0; side < teams; ++side) {
        const double v = 1000.0 * all(kKindNb + side * kFeaturesPerSide + kFeaturesPerSide - 1, held[j]);
        (side == 0 ? mine : others) += v;
      }
      table[static_cast<Eigen::Index>(j)] = static_cast<float>(squashed(mine - others / (teams - 1)));
      final[static_cast<Eigen::Index>(j)] = target[static_cast<size_t>(held[j])];
    }
    result.table_r2 = fit_of(table, final).r2;
  }
  // Standardised inputs (over the training samples) and target.
  ValueModel m(data.rules, config.hidden);
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(f), sq = Eigen::VectorXd::Zero(f);
  double y_sum = 0, y_sq = 0;
  for (const int64_t k : train) {
    const Eigen::VectorXd c = all.col(k).cast<double>();
    sum += c;
    sq += c.cwiseProduct(c);
    const double y = target[static_cast<size_t>(k)];
    y_sum += y;
    y_sq += y * y;
  }
  const double n_train = static_cast<double>(train.size());
  Vector mean = (sum / n_train).cast<float>();
  Vector scale =
      ((sq / n_train - (sum / n_train).cwiseProduct(sum / n_train)).cwiseMax(0.0).cwiseSqrt()).cast<float>();
  for (Eigen::Index i = 0; i < scale.size(); ++i)
    if (!(scale[i] > 1e-6F)) scale[i] = 1;
  const double y_mean = y_sum / n_train;
  const double y_sd = std::sqrt(std::max(0.0, y_sq / n_train - y_mean * y_mean));
  if (config.init) {
    // The weights go with the standardisation they were trained on.
    m = *config.init;
    mean = Eigen::Map<const Vector>(m.mean().data(), f);
    scale = Eigen::Map<const Vector>(m.scale().data(), f);
  } else {
    std::copy(mean.data(), mean.data() + f, m.mean().begin());
    std::copy(scale.data(), scale.data() + f, m.scale().begin());
    m.target_scale() = static_cast<float>(y_sd > 0 ? y_sd : 1.0);
    m.squash() = static_cast<float>(squash);
  }
  // Standardised columns and targets of some samples, gathered as a block.
  const auto gather = [&](const std::vector<int64_t>& rows, size_t first, size_t n, Matrix& x, Vector& y) {
    x.resize(f, static_cast<Eigen::Index>(n));
    y.resize(static_cast<Eigen::Index>(n));
    for (size_t j = 0; j < n; ++j) {
      const int64_t k = rows[first + j];
      x.col(static_cast<Eigen::Index>(j)) = (all.col(k) - mean).cwiseQuotient(scale);
      y[static_cast<Eigen::Index>(j)] = target[static_cast<size_t>(k)] / m.target_scale();
    }
  };
  constexpr size_t kChunk = 8192;
  // Predictions (in units of the target's scale) and targets of a set, chunk by chunk.
  const auto predict_all = [&](const ValueModel& model, const std::vector<int64_t>& rows, Vector& pred,
                               Vector& y) {
    ValueModel copy = model;
    const Net net(copy);
    pred.resize(static_cast<Eigen::Index>(rows.size()));
    y.resize(pred.size());
    Matrix x;
    Vector yc;
    std::vector<Matrix> a, z;
    for (size_t first = 0; first < rows.size(); first += kChunk) {
      const size_t n = std::min(kChunk, rows.size() - first);
      gather(rows, first, n, x, yc);
      pred.segment(static_cast<Eigen::Index>(first), static_cast<Eigen::Index>(n)) =
          net.forward(x, a, z).row(0).transpose();
      y.segment(static_cast<Eigen::Index>(first), static_cast<Eigen::Index>(n)) = yc;
    }
  };
  const auto variance = [](const Vector& y) {
    const double mu = y.cast<double>().mean();
    return (y.cast<double>().array() - mu).square().mean();
  };
  const auto keep_held_out = [&](const Vector& ph, const Vector& yh) {
    result.held_out.clear();
    for (Eigen::Index j = 0; j < ph.size(); ++j)
      result.held_out.emplace_back(ph[j] * m.target_scale(), yh[j] * m.target_scale());
  };
  if (config.hidden.empty()) {
    // Ridge regression in closed form (the Gram matrix summed in double
    // precision chunk by chunk); the bias is the target's mean.
    Eigen::MatrixXd gram = Eigen::MatrixXd::Zero(f, f);
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(f);
    const double yt_mean = y_mean / m.target_scale();
    Matrix x;
    Vector y;
    for (size_t first = 0; first < train.size(); first += kChunk) {
      const size_t n = std::min(kChunk, train.size() - first);
      gather(train, first, n, x, y);
      const Eigen::MatrixXd xd = x.cast<double>();
      gram.selfadjointView<Eigen::Lower>().rankUpdate(xd);
      rhs += xd * (y.cast<double>().array() - yt_mean).matrix();
    }
    gram = gram.selfadjointView<Eigen::Lower>();
    gram.diagonal().array() += config.ridge * n_train;
    const Eigen::VectorXd w = gram.ldlt().solve(rhs);
    for (int i = 0; i < f; ++i) m.weights(0)[static_cast<size_t>(i)] = static_cast<float>(w[i]);
    m.biases(0)[0] = static_cast<float>(yt_mean);
    Vector pt, yt, ph, yh;
    predict_all(m, train, pt, yt);
    predict_all(m, held, ph, yh);
    const Fit ft = fit_of(pt, yt), fh = fit_of(ph, yh);
    EpochReport r{0, ft.mse / variance(yt), fh.mse / variance(yh), fh.r2};
    if (report) report(r);
    result.held_r2 = fh.r2;
    keep_held_out(ph, yh);
    m.prepare();
    out = std::move(m);
    return true;
  }
  // The perceptron: He-initialised weights, minibatch Adam on the mean
  // squared error, the weights of the best held-out epoch kept.
  Rng init(derive_seed(config.seed, Stream::kTrain, 0));
  if (!config.init)
    for (int layer = 0; layer < m.layers(); ++layer) {
      const double in = layer == 0 ? f : config.hidden[static_cast<size_t>(layer - 1)];
      for (float& w : m.weights(layer)) w = static_cast<float>(normal(init) * std::sqrt(2.0 / in));
    }
  Net net(m);
  std::vector<std::vector<float>> mom, vel;
  for (int layer = 0; layer < m.layers(); ++layer)
    for (auto* v : {&m.weights(layer), &m.biases(layer)}) {
      mom.emplace_back(v->size(), 0.0F);
      vel.emplace_back(v->size(), 0.0F);
    }
  ValueModel best = m;
  double best_loss = INFINITY;
  int since = 0;
  int64_t t = 0;
  std::vector<Matrix> a, z;
  std::vector<int64_t> order(train.size());
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> batch_rows(train.size());
  Matrix x;
  Vector y, ph, yh;
  double vh = 0;
  // The training targets' variance in the model's units (1 unless the
  // target scale comes from the model started from), for the losses.
  const double ts = m.target_scale();
  const double vt = std::max(1e-12, (y_sq / n_train - y_mean * y_mean) / (ts * ts));
  if (config.init) {
    // Epoch 0: the model started from, as it is.
    Vector pt, yt;
    predict_all(m, train, pt, yt);
    predict_all(m, held, ph, yh);
    vh = variance(yh);
    const Fit ft = fit_of(pt, yt), fh = fit_of(ph, yh);
    if (report) report(EpochReport{0, ft.mse / vt, fh.mse / vh, fh.r2});
    best_loss = fh.mse;
    result.held_r2 = fh.r2;
    keep_held_out(ph, yh);
  }
  for (int epoch = 1; epoch <= config.epochs; ++epoch) {
    Rng shuffle(derive_seed(config.seed, Stream::kTrain, static_cast<uint64_t>(epoch)));
    for (size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[shuffle.below(static_cast<uint32_t>(i))]);
    for (size_t i = 0; i < order.size(); ++i) batch_rows[i] = train[static_cast<size_t>(order[i])];
    double loss_sum = 0;
    for (size_t start = 0; start < order.size(); start += static_cast<size_t>(config.batch)) {
      const size_t n = std::min(order.size() - start, static_cast<size_t>(config.batch));
      gather(batch_rows, start, n, x, y);
      const Matrix pred = net.forward(x, a, z);
      Matrix delta =
          (pred.row(0) - y.transpose()) / static_cast<float>(n);  // d(loss)/d(output), loss = mean/2
      loss_sum += static_cast<double>((pred.row(0) - y.transpose()).squaredNorm());
      ++t;
      const double c1 = 1 - std::pow(0.9, static_cast<double>(t)),
                   c2 = 1 - std::pow(0.999, static_cast<double>(t));
      size_t slot = 2 * net.w.size();
      for (size_t l = net.w.size(); l-- > 0;) {
        const Matrix gw = delta * a[l].transpose();
        const Vector gb = delta.rowwise().sum();
        if (l > 0)
          delta = (net.w[l].transpose() * delta).cwiseProduct((z[l - 1].array() > 0).cast<float>().matrix());
        slot -= 2;
        const auto adam = [&](float* p, const float* g, size_t size, size_t k) {
          float* mo = mom[k].data();
          float* ve = vel[k].data();
          for (size_t i = 0; i < size; ++i) {
            mo[i] = 0.9F * mo[i] + 0.1F * g[i];
            ve[i] = 0.999F * ve[i] + 0.001F * g[i] * g[i];
            p[i] -= static_cast<float>(config.rate * (mo[i] / c1) / (std::sqrt(ve[i] / c2) + 1e-8));
          }
        };
        adam(net.w[l].data(), gw.data(), static_cast<size_t>(gw.size()), slot);
        adam(net.b[l].data(), gb.data(), static_cast<size_t>(gb.size()), slot + 1);
      }
    }
    predict_all(m, held, ph, yh);
    if (epoch == 1 && !config.init) vh = variance(yh);
    const Fit fh = fit_of(ph, yh);
    EpochReport r{epoch, loss_sum / static_cast<double>(order.size()) / vt, fh.mse / vh, fh.r2};
    if (report) report(r);
    if (fh.mse < best_loss) {
      best_loss = fh.mse;
      best = m;
      result.held_r2 = fh.r2;
      keep_held_out(ph, yh);
      result.best_epoch = epoch;
      since = 0;
    } else if (++since >= config.patience) {
      break;
    }
  }
  best.prepare();
  out = std::move(best);
  return true;
}

}  // namespace canasta
