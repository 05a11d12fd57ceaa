#include "canasta/bradley_terry.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace canasta {

namespace {

constexpr double kZ = 1.959963984540054;  // two-sided 95%

// What the point estimate needs of a match: its pairs and a's score over
// them (a won deal 1, a drawn one 1/2).
struct MatchSums {
  double pairs = 0, score = 0;
};

// Adds w to the information-like matrix m for a match of i against j.
void add_pair(Eigen::MatrixXd& m, int i, int j, double w) {
  m(i, i) += w;
  m(j, j) += w;
  m(i, j) -= w;
  m(j, i) -= w;
}

// The expected score of a in a deal against b.
double expected(const Eigen::VectorXd& beta, const MatchScore& m) {
  return 1.0 / (1.0 + std::exp(beta[m.b] - beta[m.a]));
}

// Newton's method on the log-likelihood, beta_0 held at 0 (natural log-odds
// units). Leaves the information matrix of beta_1 .. beta_{k-1} in `info`;
// false when there is no finite maximum.
bool maximize(std::span<const MatchScore> matches, std::span<const MatchSums> sums, Eigen::VectorXd& beta,
              Eigen::MatrixXd& info) {
  const auto k = static_cast<int>(beta.size());
  for (int iter = 0; iter < 100; ++iter) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(k);
    Eigen::MatrixXd fisher = Eigen::MatrixXd::Zero(k, k);
    for (size_t i = 0; i < matches.size(); ++i) {
      const MatchScore& m = matches[i];
      if (sums[i].pairs <= 0) continue;
      const double p = expected(beta, m);
      grad[m.a] += sums[i].score - 2 * sums[i].pairs * p;
      grad[m.b] -= sums[i].score - 2 * sums[i].pairs * p;
      add_pair(fisher, m.a, m.b, 2 * sums[i].pairs * p * (1 - p));
    }
    info = fisher.bottomRightCorner(k - 1, k - 1);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(info);
    if (!lu.isInvertible()) return false;
    const Eigen::VectorXd step = lu.solve(grad.tail(k - 1));
    beta.tail(k - 1) += step;
    if (!beta.allFinite() || beta.cwiseAbs().maxCoeff() > 50) return false;
    if (step.cwiseAbs().maxCoeff() < 1e-10) break;
  }
  return true;
}

// The sandwich's meat clustered by deal index: for each index, the vector
// over the agents of the score residuals (a pair's score, 0 to 2, less its
// expectation 2p) of every match that played it, its outer product summed
// over the indices. Sets `clusters` to the indices played.
Eigen::MatrixXd clustered_meat(std::span<const MatchScore> matches, const Eigen::VectorXd& beta,
                               int64_t& clusters) {
  const auto k = static_cast<int>(beta.size());
  std::vector<double> mean(matches.size());
  int64_t indices = 0;
  for (size_t i = 0; i < matches.size(); ++i) {
    mean[i] = 2 * expected(beta, matches[i]);
    indices = std::max(indices, matches[i].pairs->size());
  }
  Eigen::MatrixXd meat = Eigen::MatrixXd::Zero(k, k);
  Eigen::VectorXd u(k);
  clusters = 0;
  for (int64_t d = 0; d < indices; ++d) {
    u.setZero();
    bool played = false;
    for (size_t i = 0; i < matches.size(); ++i) {
      const MatchScore& m = matches[i];
      const int points = d < m.pairs->size() ? m.pairs->at(d) : PairPoints::kUnplayed;
      if (points == PairPoints::kUnplayed) continue;
      const double r = points / 2.0 - mean[i];
      u[m.a] += r;
      u[m.b] -= r;
      played = true;
    }
    if (!played) continue;
    ++clusters;
    meat.selfadjointView<Eigen::Lower>().rankUpdate(u);
  }
  return meat.selfadjointView<Eigen::Lower>();
}

}  // namespace

bool fit_bradley_terry(int agents, std::span<const MatchScore> matches, std::vector<Rating>& out) {
  const int k = agents;
  out.assign(static_cast<size_t>(std::max(k, 0)), Rating{});
  if (k < 2) return false;
  std::vector<MatchSums> sums(matches.size());
  for (size_t i = 0; i < matches.size(); ++i) {
    const MatchScore& m = matches[i];
    if (m.a < 0 || m.b < 0 || m.a >= k || m.b >= k || m.a == m.b || !m.pairs) return false;
    sums[i] = {static_cast<double>(m.pairs->played()), static_cast<double>(m.pairs->total()) / 2};
  }
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(k);
  Eigen::MatrixXd info;
  if (!maximize(matches, sums, beta, info)) return false;
  int64_t clusters = 0;
  const Eigen::MatrixXd meat = clustered_meat(matches, beta, clusters);
  const double g = static_cast<double>(clusters);
  const Eigen::MatrixXd inv = info.inverse();
  const Eigen::MatrixXd cov = inv * meat.bottomRightCorner(k - 1, k - 1) * inv * (g / std::max(g - 1, 1.0));
  const double scale = 400.0 / std::log(10.0);
  for (int i = 0; i < k; ++i) {
    const double se = i == 0 ? 0 : std::sqrt(std::max(cov(i - 1, i - 1), 0.0)) * scale;
    const double elo = beta[i] * scale;
    out[static_cast<size_t>(i)] = {elo, elo - kZ * se, elo + kZ * se};
  }
  return true;
}

}  // namespace canasta
