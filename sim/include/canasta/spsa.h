// SPSA: several agent parameters tuned at once by simultaneous perturbation
// stochastic approximation (Spall, 1992), as fishtest runs it for Stockfish.
//
// Every batch perturbs all the tuned parameters at once by +-c_k (random
// signs), plays the two perturbed agents against each other (or each against
// a fixed opponent) over the batch's duplicate deal pairs, and moves every
// parameter toward the better side in proportion to the batch's result:
//   theta_i += a_k / c_k,i * result * sign_i.
// The schedules are fishtest's: k counts the deal pairs played, N the pairs
// of the run, A = 0.1 N, c_k,i = c_i (N / k)^gamma, a_k,i = r_end c_i^2
// ((A + N) / (A + k))^alpha, with k the pairs played before the batch plus
// one, so that the perturbation comes down to about c_i by the end (c_i
// (N / (N - pairs + 1))^gamma in the last batch) and a_k to about
// a_end = r_end c_i^2: at the end a parameter moves by about r_end c_i per
// unit of result. Integer parameters are tuned as real numbers and rounded
// to the nearest integer where an agent is made.
//
// A run is a pure function of its configuration: the signs of batch b come
// from (seed, kSpsaFlip, b), its deals from (seed, kSpsaDeals, b), and the
// deals' results do not depend on the thread count.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/agent.h"
#include "canasta/experiment.h"
#include "canasta/rules.h"

namespace canasta {

struct SpsaParam {
  std::string name;
  double c = 1;  // the perturbation at the end of the run, in the parameter's units
};

enum class SpsaObjective : uint8_t {
  kWin,     // a deal pair's result: deals won minus deals lost (-2..2)
  kMargin,  // a deal pair's result: the summed score margin / 1000
};

struct SpsaConfig {
  Rules rules;
  AgentSpec agent;                // the agent tuned, with its start values
  std::vector<SpsaParam> params;  // the parameters tuned
  std::optional<AgentSpec> vs;    // a fixed opponent; none: theta+ plays theta-
  int64_t batches = 100;
  int64_t pairs = 100;  // deal pairs per batch
  double r_end = 0.002, alpha = 0.602, gamma = 0.101;
  SpsaObjective objective = SpsaObjective::kWin;
  uint64_t seed = 1;
  int threads = 0;
  Processes processes;  // spread over processes (MPI): each plays its block of every batch's deals
  // A run resumed after `first_batch` batches: the parameters after them
  // (full precision), so that it goes on exactly as the run it continues.
  int64_t first_batch = 0;
  std::vector<double> resume_theta;
};

// The state after one batch.
struct SpsaStep {
  int64_t batch = 0;          // 0-based
  int64_t pairs = 0;          // deal pairs played so far
  double result = 0;          // the batch's result for theta+ (see SpsaObjective)
  std::vector<double> theta;  // the parameters after the batch
  std::vector<double> c;      // the perturbation used in the batch
  AgentSpec plus, minus;      // the two agents that played
};

// Checks the configuration: every parameter is one of the agent's, numeric,
// named once, with c > 0. Returns false with a one-line error.
bool check_spsa(const SpsaConfig& c, std::string& error);

// The agent with the parameters set to `theta` (rounded where integer and
// clamped to their ranges).
AgentSpec spsa_agent(const SpsaConfig& c, const std::vector<double>& theta);

// Runs the tuner, calling `step` after every batch; `stop` (optional) ends
// it at once, dropping the batch in progress (on every process at the same
// batch). Returns false with `error` set
// on a bad configuration.
bool run_spsa(const SpsaConfig& c, const std::function<void(const SpsaStep&)>& step, std::string& error,
              const std::atomic<bool>* stop = nullptr);

}  // namespace canasta
