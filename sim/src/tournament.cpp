#include "canasta/tournament.h"

#include <Eigen/Dense>
#include <array>
#include <cmath>

#include "canasta/experiment.h"
#include "canasta/stats.h"

namespace canasta {

namespace {

// A pair's score for a (0, 1/2, ..., 2) and how many pairs scored it.
std::array<std::pair<double, int64_t>, 6> pair_scores(const Pentanomial& p) {
  return {{{0.0, p.ll}, {0.5, p.ld}, {1.0, p.wl}, {1.0, p.dd}, {1.5, p.wd}, {2.0, p.ww}}};
}

}  // namespace

std::vector<std::pair<int, int>> tournament_schedule(int agents) {
  std::vector<std::pair<int, int>> out;
  for (int a = 0; a < agents; ++a)
    for (int b = a + 1; b < agents; ++b) out.emplace_back(a, b);
  return out;
}

bool fit_bradley_terry(int agents, std::span<const MatchScore> matches, std::vector<Rating>& out) {
  const int k = agents;
  out.assign(static_cast<size_t>(std::max(k, 0)), Rating{});
  if (k < 2) return false;
  for (const MatchScore& m : matches)
    if (m.a < 0 || m.b < 0 || m.a >= k || m.b >= k || m.a == m.b) return false;
  // Parameters beta_1..beta_{k-1} (natural log-odds units); beta_0 = 0.
  // Each deal scores s for a with probability model p = 1 / (1 + e^(b_b - b_a)).
  Eigen::VectorXd beta = Eigen::VectorXd::Zero(k);
  Eigen::MatrixXd info(k - 1, k - 1);
  const auto add = [](Eigen::MatrixXd& m, int i, int j, double w) {
    m(i, i) += w;
    m(j, j) += w;
    m(i, j) -= w;
    m(j, i) -= w;
  };
  const auto p_of = [&](const MatchScore& m) { return 1.0 / (1.0 + std::exp(beta[m.b] - beta[m.a])); };
  for (int iter = 0; iter < 100; ++iter) {
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(k);
    Eigen::MatrixXd fisher = Eigen::MatrixXd::Zero(k, k);
    for (const MatchScore& m : matches) {
      const double pairs = static_cast<double>(m.penta.pairs());
      if (pairs <= 0) continue;
      double score = 0;  // a's points over the match's deals
      for (const auto& [s, count] : pair_scores(m.penta)) score += s * static_cast<double>(count);
      const double p = p_of(m);
      grad[m.a] += score - 2 * pairs * p;
      grad[m.b] -= score - 2 * pairs * p;
      add(fisher, m.a, m.b, 2 * pairs * p * (1 - p));
    }
    info = fisher.bottomRightCorner(k - 1, k - 1);
    Eigen::FullPivLU<Eigen::MatrixXd> lu(info);
    if (!lu.isInvertible()) return false;
    const Eigen::VectorXd step = lu.solve(grad.tail(k - 1));
    beta.tail(k - 1) += step;
    if (!beta.allFinite() || beta.cwiseAbs().maxCoeff() > 50) return false;  // no finite maximum
    if (step.cwiseAbs().maxCoeff() < 1e-10) break;
  }
  // The sandwich: info^-1 meat info^-1, the meat summing every pair's
  // squared score residual (S - 2p): the variance the pairs really show.
  Eigen::MatrixXd meat = Eigen::MatrixXd::Zero(k, k);
  for (const MatchScore& m : matches) {
    const double p = p_of(m);
    double v = 0;
    for (const auto& [s, count] : pair_scores(m.penta))
      v += static_cast<double>(count) * (s - 2 * p) * (s - 2 * p);
    add(meat, m.a, m.b, v);
  }
  const Eigen::MatrixXd inv = info.inverse();
  const Eigen::MatrixXd cov = inv * meat.bottomRightCorner(k - 1, k - 1) * inv;
  const double scale = 400.0 / std::log(10.0);
  for (int i = 0; i < k; ++i) {
    const double se = i == 0 ? 0 : std::sqrt(std::max(cov(i - 1, i - 1), 0.0)) * scale;
    out[static_cast<size_t>(i)] = {beta[i] * scale, beta[i] * scale - 1.96 * se, beta[i] * scale + 1.96 * se};
  }
  return true;
}

bool run_tournament(const TournamentConfig& c, TournamentResult& out, std::string& error,
                    const TournamentHooks& hooks) {
  const int k = static_cast<int>(c.agents.size());
  if (k < 2) {
    error = "a tournament needs at least two agents";
    return false;
  }
  if (c.rules.teams != 2) {
    error = "a tournament rates pairs of agents: it needs a table of two sides";
    return false;
  }
  const std::vector<std::pair<int, int>> schedule = tournament_schedule(k);
  if (out.matches.empty()) out.matches.resize(schedule.size());
  if (out.matches.size() != schedule.size()) {
    error = "the stopped tournament had " + std::to_string(out.matches.size()) + " matches, this one has " +
            std::to_string(schedule.size());
    return false;
  }
  out.pairs.clear();
  out.ratings.clear();
  out.stopped = false;
  std::vector<MatchScore> scores;
  int64_t played = 0;  // deals played in this call, over the matches
  for (size_t m = 0; m < schedule.size(); ++m) {
    const auto [a, b] = schedule[m];
    Played& state = out.matches[m];
    for (const auto& [first, next] : state.done)
      if (first < 0 || next > c.deals || first >= next) {
        error =
            "the stopped tournament's match " + std::to_string(m + 1) + " names deal pairs it cannot hold";
        return false;
      }
    const bool stop = hooks.stop && hooks.stop->load();
    if (ranges_size(state.done) < c.deals && !stop) {
      ExperimentConfig e;
      e.rules = c.rules;
      e.side0 = c.agents[static_cast<size_t>(a)];
      e.side1 = c.agents[static_cast<size_t>(b)];
      e.seed = c.seed;
      e.deals = c.deals;
      e.duplicate = true;
      e.threads = c.threads;
      RunHooks run;
      run.processes = c.processes;
      run.stop = hooks.stop;
      run.done = state.done;
      run.done_tally = &state.tally;
      if (hooks.progress) run.progress = [&](int64_t done) { hooks.progress(played + done); };
      Tally fresh;
      RunOutcome outcome;
      outcome.tally = &fresh;
      if (!stream_deals(e, outcome, error, run)) return false;
      // Every process's tally, summed: the match's on each of them.
      c.processes.add_up(fresh.words());
      played += fresh.rows;
      state.tally.add(fresh);
      state.done = outcome.done;
    }
    const bool complete = ranges_size(state.done) == c.deals;
    out.stopped = out.stopped || !complete;
    if (state.tally.rows == 0) continue;
    PairResult p{a, b, summarize(state.tally, true), complete};
    scores.push_back({a, b, p.summary.score.penta});
    out.pairs.push_back(p);
  }
  // The ratings come from what was played, where a finite fit exists: none
  // where an agent won or lost every deal pair (the matches still stand).
  if (!fit_bradley_terry(k, scores, out.ratings)) out.ratings.clear();
  return true;
}

}  // namespace canasta
