#include "perceptron.h"

#include <algorithm>
#include <cmath>

#include "canasta/rng.h"

namespace canasta {

namespace {

// A standard normal number (Box-Muller) from the project's generator.
double normal(Rng& rng) {
  const double u = std::max(rng.uniform(), 1e-300), v = rng.uniform();
  return std::sqrt(-2 * std::log(u)) * std::cos(6.283185307179586 * v);
}

}  // namespace

Perceptron::Perceptron(const std::vector<LayerParams>& layers) {
  for (const LayerParams& l : layers) {
    w_.emplace_back(l.weights, l.out, l.in);
    b_.emplace_back(l.biases, l.out);
  }
}

Matrix Perceptron::forward(const Matrix& x, Activations& kept) const {
  std::vector<Matrix>& a = kept.a;
  std::vector<Matrix>& z = kept.z;
  a.assign(w_.size(), Matrix());
  z.assign(w_.size(), Matrix());
  a[0] = x;
  for (size_t l = 0; l < w_.size(); ++l) {
    z[l] = (w_[l] * a[l]).colwise() + b_[l];
    if (l + 1 < w_.size()) a[l + 1] = z[l].cwiseMax(0.0F);
  }
  return z.back();
}

void Perceptron::backward(Matrix delta, const Activations& kept, Gradients& out) const {
  out.weights.resize(w_.size());
  out.biases.resize(w_.size());
  for (size_t l = w_.size(); l-- > 0;) {
    out.weights[l] = delta * kept.a[l].transpose();
    out.biases[l] = delta.rowwise().sum();
    if (l > 0)
      delta = (w_[l].transpose() * delta).cwiseProduct((kept.z[l - 1].array() > 0).cast<float>().matrix());
  }
}

void Perceptron::initialise(uint64_t seed) {
  Rng rng(derive_seed(seed, Stream::kTrain, 0));
  for (Eigen::Map<Matrix>& w : w_) {
    const double in = static_cast<double>(w.cols());
    float* p = w.data();
    for (Eigen::Index i = 0; i < w.size(); ++i) p[i] = static_cast<float>(normal(rng) * std::sqrt(2.0 / in));
  }
}

void adam_step(Adam& adam, Perceptron& net, const Gradients& g) {
  adam.next_step();
  for (size_t l = 0; l < net.layers(); ++l) {
    const Matrix& gw = g.weights[l];
    const Vector& gb = g.biases[l];
    adam.update(2 * l, {net.weights(l).data(), static_cast<size_t>(gw.size())},
                {gw.data(), static_cast<size_t>(gw.size())});
    adam.update(2 * l + 1, {net.biases(l).data(), static_cast<size_t>(gb.size())},
                {gb.data(), static_cast<size_t>(gb.size())});
  }
}

}  // namespace canasta
