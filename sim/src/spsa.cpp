// The SPSA tuner (canasta/spsa.h).
#include "canasta/spsa.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "canasta/experiment.h"
#include "canasta/params.h"
#include "canasta/rng.h"

namespace canasta {

namespace {

// The tuned parameters' places in the agent's table.
std::vector<AgentParamInfo> tuned_infos(const SpsaConfig& c) {
  const std::vector<AgentParamInfo> all = agent_params(c.agent);
  std::vector<AgentParamInfo> out;
  for (const SpsaParam& p : c.params)
    for (const AgentParamInfo& info : all)
      if (info.name == p.name) out.push_back(info);
  return out;
}

// A deal pair's result for the agent of side0 in rows 2i (original) and 2i+1
// (twin): deals won minus lost, or the summed margin (in points: divided by
// 1000 once the batch is summed, so that any split of the pairs gives the
// same bits).
int64_t pair_result(const DealRow& original, const DealRow& twin, SpsaObjective objective) {
  int64_t r = 0;
  for (const DealRow* row : {&original, &twin}) {
    const int a = row->swapped;  // the table side of side0's agent
    const int32_t margin = row->score[a] - row->score[1 - a];
    r += objective == SpsaObjective::kWin ? (margin > 0) - (margin < 0) : margin;
  }
  return r;
}

}  // namespace

bool check_spsa(const SpsaConfig& c, std::string& error) {
  if (c.rules.teams != 2) {
    error = "tuning plays one agent against another: it needs a table of two sides";
    return false;
  }
  if (c.params.empty()) {
    error = "no parameter to tune";
    return false;
  }
  const std::vector<AgentParamInfo> all = agent_params(c.agent);
  for (size_t i = 0; i < c.params.size(); ++i) {
    const SpsaParam& p = c.params[i];
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const AgentParamInfo& info) { return info.name == p.name; });
    if (it == all.end()) {
      error = fmt::format("agent '{}' has no parameter '{}' (see canasta agents)", c.agent.name(),
                          printable(p.name));
      return false;
    }
    if (it->style == ParamStyle::kChoice || it->style == ParamStyle::kFlag ||
        it->style == ParamStyle::kText) {
      error = fmt::format("parameter '{}' is not a number and cannot be tuned", p.name);
      return false;
    }
    if (!(p.c > 0) || !std::isfinite(p.c)) {
      error = fmt::format("the perturbation of '{}' must be a number above 0", p.name);
      return false;
    }
    for (size_t j = 0; j < i; ++j)
      if (c.params[j].name == p.name) {
        error = fmt::format("parameter '{}' is tuned twice", p.name);
        return false;
      }
  }
  if (c.batches < 1 || c.pairs < 1) {
    error = "a tuning run needs at least one batch of one deal pair";
    return false;
  }
  if (c.batches > (int64_t{1} << 40) / c.pairs) {
    error = "a tuning run plays at most 2^40 deal pairs (batches x pairs)";
    return false;
  }
  if (!(c.r_end > 0) || !std::isfinite(c.r_end)) {
    error = "r_end must be a number above 0";
    return false;
  }
  return true;
}

AgentSpec spsa_agent(const SpsaConfig& c, const std::vector<double>& theta) {
  AgentSpec out = c.agent;
  const std::vector<AgentParamInfo> infos = tuned_infos(c);
  for (size_t i = 0; i < infos.size(); ++i) {
    double v = std::clamp(theta[i], infos[i].lo, infos[i].hi);
    std::string text;
    if (infos[i].style == ParamStyle::kInteger)
      text = fmt::format("{}", static_cast<int64_t>(std::lround(v)));
    else
      text = fmt::format("{}", v);
    std::string error;
    set_agent_param(out, infos[i].name, text, error);  // in range by construction
  }
  return out;
}

bool run_spsa(const SpsaConfig& c, const std::function<void(const SpsaStep&)>& step, std::string& error,
              const std::atomic<bool>* stop) {
  if (!check_spsa(c, error)) return false;
  const std::vector<AgentParamInfo> infos = tuned_infos(c);
  const size_t n = infos.size();
  SpsaStep s;
  for (const AgentParamInfo& info : infos) s.theta.push_back(info.value);
  if (c.first_batch > 0) {
    if (c.first_batch > c.batches || c.resume_theta.size() != n) {
      error = "the resumed tuning run's state does not fit its configuration";
      return false;
    }
    s.theta = c.resume_theta;
  }
  s.c.resize(n);
  const double total = static_cast<double>(c.batches * c.pairs);
  const double big_a = 0.1 * total;
  std::vector<double> sign(n), plus(n), minus(n);
  for (int64_t b = c.first_batch; b < c.batches; ++b) {
    // A stop shows in the batch's rows (a stopped run plays no more), summed
    // over the processes, so that they all stop at the same batch.
    const double k = static_cast<double>(b * c.pairs + 1);
    Rng flip(derive_seed(c.seed, Stream::kSpsaFlip, static_cast<uint64_t>(b)));
    for (size_t i = 0; i < n; ++i) {
      sign[i] = (flip.next() >> 63) != 0 ? 1.0 : -1.0;
      s.c[i] = c.params[i].c * std::pow(total / k, c.gamma);
      plus[i] = std::clamp(s.theta[i] + s.c[i] * sign[i], infos[i].lo, infos[i].hi);
      minus[i] = std::clamp(s.theta[i] - s.c[i] * sign[i], infos[i].lo, infos[i].hi);
    }
    s.plus = spsa_agent(c, plus);
    s.minus = spsa_agent(c, minus);
    ExperimentConfig e;
    e.rules = c.rules;
    e.deals = c.pairs;
    e.duplicate = true;
    e.threads = c.threads;
    e.seed = derive_seed(c.seed, Stream::kSpsaDeals, static_cast<uint64_t>(b));
    std::vector<DealRow> rows, other;
    RunHooks hooks;
    hooks.stop = stop;
    hooks.processes = c.processes;
    // This process's rows of the batch and the sum of its pairs' results
    // (theta+ less theta- against a fixed opponent), then the same over all
    // the processes.
    std::array<int64_t, 2> batch{0, 0};
    e.side0 = s.plus;
    e.side1 = c.vs ? *c.vs : s.minus;
    if (!run_deals(e, rows, error, hooks)) return false;
    if (c.vs) {
      // Each perturbed agent plays the fixed opponent over the same deals.
      e.side0 = s.minus;
      if (!run_deals(e, other, error, hooks)) return false;
    }
    batch[0] = static_cast<int64_t>(std::min(rows.size(), c.vs ? other.size() : rows.size()));
    for (size_t r = 0; r + 1 < rows.size(); r += 2)
      batch[1] += pair_result(rows[r], rows[r + 1], c.objective) -
                  (c.vs && r + 1 < other.size() ? pair_result(other[r], other[r + 1], c.objective) : 0);
    c.processes.add_up(batch);
    // A batch cut short by a stop is dropped: theta moves on whole batches only.
    if (batch[0] != 2 * c.pairs) break;
    s.result = c.objective == SpsaObjective::kWin ? static_cast<double>(batch[1])
                                                  : static_cast<double>(batch[1]) / 1000.0;
    for (size_t i = 0; i < n; ++i) {
      const double a_k =
          c.r_end * c.params[i].c * c.params[i].c * std::pow((big_a + total) / (big_a + k), c.alpha);
      s.theta[i] = std::clamp(s.theta[i] + a_k / s.c[i] * s.result * sign[i], infos[i].lo, infos[i].hi);
    }
    s.batch = b;
    s.pairs = (b + 1) * c.pairs;
    step(s);
  }
  return true;
}

}  // namespace canasta
