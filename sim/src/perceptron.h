// A multilayer perceptron for training (Eigen): rectified linear hidden
// layers and a linear output layer over parameters that a model owns, with
// the forward pass over a batch, the backward pass from the loss's gradient
// by the outputs, and He's initial weights. Batches are matrices of
// inputs x samples.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "canasta/training.h"

namespace canasta {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic>;
using Vector = Eigen::VectorXf;

// A layer's parameters as its model holds them: `out` x `in` weights,
// column-major (weight (o, i) at i * out + o), and `out` biases.
struct LayerParams {
  float* weights;
  float* biases;
  int in, out;
};

// What the forward pass keeps for the backward pass: per layer its input
// (a) and its pre-activations (z).
struct Activations {
  std::vector<Matrix> a, z;
};

// The gradients of a loss by each layer's weights and biases.
struct Gradients {
  std::vector<Matrix> weights;
  std::vector<Vector> biases;
};

class Perceptron {
 public:
  explicit Perceptron(const std::vector<LayerParams>& layers);
  size_t layers() const { return w_.size(); }
  // The outputs (outputs x samples) of a batch of inputs.
  Matrix forward(const Matrix& x, Activations& kept) const;
  // The gradients, from `delta`: the loss's gradient by the outputs of the
  // batch that forward() kept `kept` of.
  void backward(Matrix delta, const Activations& kept, Gradients& out) const;
  // Layer l's weights and biases.
  Eigen::Map<Matrix>& weights(size_t l) { return w_[l]; }
  Eigen::Map<Vector>& biases(size_t l) { return b_[l]; }
  // He's initialisation: every weight normal with variance 2 / (its layer's
  // inputs), drawn in order from (seed, kTrain, 0); the biases are left.
  void initialise(uint64_t seed);

 private:
  std::vector<Eigen::Map<Matrix>> w_;
  std::vector<Eigen::Map<Vector>> b_;
};

// One Adam step of every layer of `net` on `g` (blocks 2l and 2l + 1: a
// layer's weights and biases).
void adam_step(Adam& adam, Perceptron& net, const Gradients& g);

}  // namespace canasta
