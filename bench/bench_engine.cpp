// Engine speed: legal actions, apply, copy, deal, and a whole random-play deal.
#include <benchmark/benchmark.h>

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/features.h"
#include "canasta/game.h"
#include "canasta/policy_model.h"
#include "canasta/profile.h"
#include "canasta/runner.h"
#include "canasta/value_model.h"

namespace {

using namespace canasta;

// The rules of a built-in profile, by name.
Rules profile(const char* name) {
  Rules r;
  std::string error;
  if (!parse_profile(name, r, error)) throw std::invalid_argument(error);
  return r;
}

// Random play, as the signature test plays it.
int random_deal(State& s, int64_t seed, int64_t k) {
  static thread_local RandomAgent random;
  Rng rng(derive_seed(static_cast<uint64_t>(seed), Stream::kRandomPlay, static_cast<uint64_t>(k)));
  return play_deal(
      s, [](int) -> RandomAgent& { return random; }, rng);
}

// A deal of uniformly random legal actions: its start and its actions.
struct RandomDeal {
  State start;
  std::vector<Action> actions;
};
// Deals 0 .. deals-1 of `seed`, each played with the random stream of its index.
std::vector<RandomDeal> random_deals(const Rules& r, uint64_t seed, int deals) {
  std::vector<RandomDeal> out;
  ActionList list;
  for (int k = 0; k < deals; ++k) {
    RandomDeal d;
    start_single_deal(d.start, r, seed, k);
    State s = d.start;
    Rng rng(derive_seed(seed, Stream::kRandomPlay, static_cast<uint64_t>(k)));
    while (!s.over()) {
      legal_actions(s, list);
      d.actions.push_back(list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
      apply(s, d.actions.back());
    }
    out.push_back(std::move(d));
  }
  return out;
}
// Every position of those deals before an action, in order.
std::vector<State> random_positions(const Rules& r, uint64_t seed, int deals) {
  std::vector<State> out;
  for (const RandomDeal& d : random_deals(r, seed, deals)) {
    State s = d.start;
    for (Action a : d.actions) {
      out.push_back(s);
      apply(s, a);
    }
  }
  return out;
}

// Positions met in random play on a profile: every action of 200 deals.
const std::vector<State>& positions(const char* name) {
  static std::map<std::string, std::vector<State>> cache;
  auto& v = cache[name];
  if (v.empty()) v = random_positions(profile(name), 99, 200);
  return v;
}

void BM_LegalActions(benchmark::State& st, const char* name) {
  const auto& pos = positions(name);
  ActionList list;
  size_t i = 0;
  int64_t produced = 0;
  for (auto _ : st) {
    legal_actions(pos[i], list);
    produced += list.size();
    benchmark::DoNotOptimize(list);
    if (++i == pos.size()) i = 0;
  }
  st.counters["actions_per_call"] = static_cast<double>(produced) / static_cast<double>(st.iterations());
}
BENCHMARK_CAPTURE(BM_LegalActions, classic, "classic");
BENCHMARK_CAPTURE(BM_LegalActions, two_player, "two-player");
BENCHMARK_CAPTURE(BM_LegalActions, spanish, "spanish");

// Applying actions: whole recorded deals re-played action by action (no
// generation), reported per action.
void BM_Apply(benchmark::State& st) {
  const std::vector<RandomDeal> deals = random_deals(profile("classic"), 98, 200);
  State s;
  size_t i = 0;
  int64_t applied = 0;
  for (auto _ : st) {
    s = deals[i].start;
    for (Action a : deals[i].actions) apply(s, a);
    benchmark::DoNotOptimize(s);
    applied += static_cast<int64_t>(deals[i].actions.size());
    if (++i == deals.size()) i = 0;
  }
  st.SetItemsProcessed(applied);
}
BENCHMARK(BM_Apply);

void BM_CopyState(benchmark::State& st) {
  const auto& pos = positions("classic");
  State s;
  size_t i = 0;
  for (auto _ : st) {
    s = pos[i];
    benchmark::DoNotOptimize(s);
    benchmark::ClobberMemory();
    if (++i == pos.size()) i = 0;
  }
  st.counters["bytes"] = sizeof(State);
}
BENCHMARK(BM_CopyState);

void BM_Deal(benchmark::State& st) {
  const Rules r = profile("classic");
  State s;
  int64_t k = 0;
  for (auto _ : st) {
    start_single_deal(s, r, 7, k++);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_Deal);

// A whole deal with uniformly random legal actions, from the shuffle to the score.
void BM_RandomDeal(benchmark::State& st, const char* name) {
  const Rules r = profile(name);
  State s;
  int64_t k = 0, actions = 0, went_out = 0, stock_out = 0, red3_last = 0;
  for (auto _ : st) {
    start_single_deal(s, r, 7, k);
    actions += random_deal(s, 7, k++);
    benchmark::DoNotOptimize(deal_score(s));
    went_out += s.end == EndReason::kWentOut;
    stock_out += s.end == EndReason::kStockOut;
    red3_last += s.end == EndReason::kRedThreeLast;
  }
  const double d = static_cast<double>(k);
  st.counters["deals_per_s"] = benchmark::Counter(d, benchmark::Counter::kIsRate);
  st.counters["went_out_pct"] = 100.0 * static_cast<double>(went_out) / d;
  st.counters["stock_out_pct"] = 100.0 * static_cast<double>(stock_out) / d;
  st.counters["red3_last_pct"] = 100.0 * static_cast<double>(red3_last) / d;
  st.counters["actions_per_deal"] = static_cast<double>(actions) / d;
}
BENCHMARK_CAPTURE(BM_RandomDeal, classic, "classic");
BENCHMARK_CAPTURE(BM_RandomDeal, two_player, "two-player");
BENCHMARK_CAPTURE(BM_RandomDeal, spanish, "spanish");
BENCHMARK_CAPTURE(BM_RandomDeal, spanish_2p, "spanish-2p");
BENCHMARK_CAPTURE(BM_RandomDeal, spanish_3p, "spanish-3p");
BENCHMARK_CAPTURE(BM_RandomDeal, spanish_6p, "spanish-6p");
BENCHMARK_CAPTURE(BM_RandomDeal, spanish_6p3, "spanish-6p3");

// The same deal played by the RandomAgent through the Agent interface (a
// virtual call a decision).
void BM_RandomAgentDeal(benchmark::State& st) {
  const Rules r = profile("classic");
  RandomAgent random;
  Agent& agent = random;
  State s;
  int64_t k = 0;
  for (auto _ : st) {
    start_single_deal(s, r, 7, k);
    Rng rng(derive_seed(7, Stream::kRandomPlay, static_cast<uint64_t>(k++)));
    play_deal(
        s, [&](int) -> Agent& { return agent; }, rng);
    benchmark::DoNotOptimize(s);
  }
  st.counters["deals_per_s"] = benchmark::Counter(static_cast<double>(k), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RandomAgentDeal);

// perft(6) from the start of a fixed classic deal: legal actions, copy and
// apply down a whole tree.
void BM_Perft(benchmark::State& st) {
  State s;
  start_single_deal(s, profile("classic"), 2026, 1);
  uint64_t nodes = 0;
  for (auto _ : st) nodes += perft(s, 6);
  st.counters["leaves_per_s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft)->Unit(benchmark::kMillisecond);

// ISMCTS iterations per second on one core, from positions of random play
// where the actor has more than one legal action.
void BM_IsmctsIterations(benchmark::State& st, const char* spec) {
  const auto& pos = positions("classic");
  AgentSpec parsed;
  std::string error;
  if (!parse_agent_spec(spec, parsed, error)) throw std::invalid_argument(error);
  auto agent = make_agent(parsed);
  auto* ismcts = dynamic_cast<IsmctsAgent*>(agent.get());
  ActionList list;
  size_t i = 0;
  int64_t iterations = 0;
  Rng rng(3);
  for (auto _ : st) {
    do {
      i = (i + 97) % pos.size();
      legal_actions(pos[i], list);
    } while (list.size() < 2);
    benchmark::DoNotOptimize(agent->act(View(pos[i], pos[i].actor()), rng));
    iterations += ismcts->last_iterations();
  }
  st.counters["iterations_per_s"] =
      benchmark::Counter(static_cast<double>(iterations), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_IsmctsIterations, random_rollout_to_end, "ismcts:iters=1000,rollout=random,cutoff=0")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_IsmctsIterations, basic_rollout_cutoff40, "ismcts:iters=1000")  // the defaults
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_IsmctsIterations, heuristic_rollout_cutoff40, "ismcts:iters=1000,rollout=heuristic")
    ->Unit(benchmark::kMillisecond);
// With the built-in model scoring the cut-off from every seat's view, and
// from the searcher's alone.
BENCHMARK_CAPTURE(BM_IsmctsIterations, heuristic_rollout_cutoff40_model,
                  "ismcts:iters=1000,rollout=heuristic,eval=default,scale=300")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_IsmctsIterations, heuristic_rollout_cutoff40_model_one_seat,
                  "ismcts:iters=1000,rollout=heuristic,eval=default,scale=300,eval_seats=1")
    ->Unit(benchmark::kMillisecond);
// The same with the built-in policy as the prior (PUCT): every child of a
// node made at once, with the policy's probability from the actor's view.
BENCHMARK_CAPTURE(BM_IsmctsIterations, heuristic_rollout_cutoff40_model_one_seat_prior,
                  "ismcts:iters=1000,rollout=heuristic,eval=default,scale=300,eval_seats=1,prior=default")
    ->Unit(benchmark::kMillisecond);
// The defaults with the whole budget spent at every decision: what
// `stop_early` costs or saves an iteration.
BENCHMARK_CAPTURE(BM_IsmctsIterations, basic_rollout_cutoff40_full_budget, "ismcts:iters=1000,stop_early=0")
    ->Unit(benchmark::kMillisecond);

}  // namespace

// A learned evaluation of a position (canasta/value_model.h): the seat's
// features, then the model (arg: 0 linear, else the perceptron 64,32 that
// canasta train makes by default), over positions of random classic deals.
void BM_ValueModel(benchmark::State& st) {
  const Rules r = profile("classic");
  ValueModel m(r, st.range(0) ? std::vector<int>{64, 32} : std::vector<int>{});
  Rng init(5);
  for (int layer = 0; layer < m.layers(); ++layer)
    for (float& w : m.weights(layer)) w = static_cast<float>(init.uniform() - 0.5) * 0.2F;
  m.prepare();
  const std::vector<State> positions = random_positions(r, 97, 50);
  size_t i = 0;
  for (auto _ : st) {
    const State& s = positions[i];
    benchmark::DoNotOptimize(m.evaluate(View(s, s.actor())));
    if (++i == positions.size()) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
}
BENCHMARK(BM_ValueModel)->Arg(0)->Arg(1);

// A policy's probabilities over a position's legal actions
// (canasta/policy_model.h): the seat's features, the hidden layer (arg: its
// units) and one score per legal action, over positions of random classic
// deals with 4 to 8 legal actions, a thousand of them (the counter `legal`:
// their mean).
void BM_PolicyEvaluate(benchmark::State& st) {
  const Rules r = profile("classic");
  PolicyModel m(r, static_cast<int>(st.range(0)));
  Rng init(5);
  for (auto* v : {&m.hidden_weights(), &m.hidden_biases(), &m.embeddings(), &m.action_biases()})
    for (float& w : *v) w = static_cast<float>(init.uniform() - 0.5) * 0.2F;
  m.prepare();
  std::vector<State> positions;
  std::vector<ActionList> legal;
  ActionList list;
  double actions = 0;
  for (const State& s : random_positions(r, 97, 50)) {
    legal_actions(s, list);
    if (list.size() < 4 || list.size() > 8) continue;
    positions.push_back(s);
    legal.push_back(list);
    actions += list.size();
    if (positions.size() == 1000) break;
  }
  std::vector<float> probs(ActionList::kCapacity);
  size_t i = 0;
  for (auto _ : st) {
    const State& s = positions[i];
    m.probabilities(View(s, s.actor()), legal[i], probs.data());
    benchmark::DoNotOptimize(probs.data());
    if (++i == positions.size()) i = 0;
  }
  st.SetItemsProcessed(st.iterations());
  st.counters["legal"] = actions / static_cast<double>(positions.size());
}
BENCHMARK(BM_PolicyEvaluate)->Arg(64)->Arg(128);

BENCHMARK_MAIN();
