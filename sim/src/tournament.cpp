#include "canasta/tournament.h"

#include <Eigen/Dense>
#include <cmath>

#include "canasta/experiment.h"
#include "canasta/stats.h"

namespace canasta {

bool fit_bradley_terry(const std::vector<std::vector<double>>& wins, std::vector<Rating>& out) {
  const int k = static_cast<int>(wins.size());
  out.assign(static_cast<size_t>(k), Rating{});
  if (k < 2) return false;
  // Parameters beta_1..beta_{k-1} (natural log-odds units); beta_0 = 0.
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(k);
  Eigen::MatrixXd info(k - 1, k - 1);
  for (int iter = 0; iter < 100; ++iter) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(k);
    Eigen::MatrixXd fisher = Eigen::MatrixXd::Zero(k, k);
    for (int i = 0; i < k; ++i)
      for (int j = i + 1; j < k; ++j) {
        const double n = wins[i][j] + wins[j][i];
        if (n <= 0) continue;
        const double p = 1.0 / (1.0 + std::exp(beta[j] - beta[i]));
        grad[i] += wins[i][j] - n * p;
        grad[j] -= wins[i][j] - n * p;
        const double w = n * p * (1 - p);
        fisher(i, i) += w;
        fisher(j, j) += w;
        fisher(i, j) -= w;
        fisher(j, i) -= w;
      }
    info = fisher.bottomRightCorner(k - 1, k - 1);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(info);
    if (!lu.isInvertible()) return false;
    const Eigen::VectorXd step = lu.solve(grad.tail(k - 1));
    beta.tail(k - 1) += step;
    if (!beta.allFinite() || beta.cwiseAbs().maxCoeff() > 50) return false;  // no finite maximum
    if (step.cwiseAbs().maxCoeff() < 1e-10) break;
  }
  const Eigen::MatrixXd cov = info.inverse();
  const double scale = 400.0 / std::log(10.0);
  for (int i = 0; i < k; ++i) {
    const double se = i == 0 ? 0 : std::sqrt(std::max(cov(i - 1, i - 1), 0.0)) * scale;
    out[static_cast<size_t>(i)] = {beta[i] * scale, beta[i] * scale - 1.96 * se, beta[i] * scale + 1.96 * se};
  }
  return true;
}

bool run_tournament(const TournamentConfig& c, TournamentResult& out, std::string& error) {
  const int k = static_cast<int>(c.agents.size());
  if (k < 2) {
    error = "a tournament needs at least two agents";
    return false;
  }
  if (c.rules.teams != 2) {
    error = "a tournament rates pairs of agents: it needs a table of two sides";
    return false;
  }
  std::vector<std::vector<double>> wins(static_cast<size_t>(k),
                                        std::vector<double>(static_cast<size_t>(k), 0));
  out.pairs.clear();
  for (int a = 0; a < k; ++a)
    for (int b = a + 1; b < k; ++b) {
      ExperimentConfig e;
      e.rules = c.rules;
      e.side0 = c.agents[static_cast<size_t>(a)];
      e.side1 = c.agents[static_cast<size_t>(b)];
      e.seed = c.seed;
      e.deals = c.deals;
      e.duplicate = true;
      e.threads = c.threads;
      std::vector<DealRow> rows;
      RunHooks hooks;
      hooks.processes = c.processes;
      if (!run_deals(e, rows, error, hooks)) return false;
      // Every process's tally, summed: the match's summary on each of them.
      Tally t = tally(rows, true);
      c.processes.add_up(t.words());
      PairResult p{a, b, summarize(t, true)};
      wins[static_cast<size_t>(a)][static_cast<size_t>(b)] =
          static_cast<double>(p.summary.score.a_won) + 0.5 * static_cast<double>(p.summary.score.drawn);
      wins[static_cast<size_t>(b)][static_cast<size_t>(a)] =
          static_cast<double>(p.summary.score.b_won) + 0.5 * static_cast<double>(p.summary.score.drawn);
      out.pairs.push_back(p);
    }
  if (!fit_bradley_terry(wins, out.ratings)) {
    error = "the ratings have no finite fit (an agent won or lost every deal)";
    return false;
  }
  return true;
}

}  // namespace canasta
