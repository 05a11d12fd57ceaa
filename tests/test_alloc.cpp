// Zero heap allocations inside a deal: operator new is counted while deals
// are dealt and played, after start-up.
#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "canasta/agent.h"
#include "canasta/experiment.h"
#include "canasta/heuristic.h"
#include "canasta/policy_model.h"
#include "canasta/profile.h"
#include "canasta/random_agent.h"
#include "canasta/runner.h"
#include "canasta/stats.h"

namespace {
std::atomic<long> g_allocations{0};
// Bytes held through operator new, and the most held since the last reset.
std::atomic<long> g_live{0}, g_peak{0};
}  // namespace

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) {
    const long live =
        g_live.fetch_add(static_cast<long>(malloc_usable_size(p))) + static_cast<long>(malloc_usable_size(p));
    for (long peak = g_peak.load(); live > peak && !g_peak.compare_exchange_weak(peak, live);) {
    }
    return p;
  }
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  if (p) g_live.fetch_sub(static_cast<long>(malloc_usable_size(p)));
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }

namespace canasta {
namespace {

AgentSpec agent_spec_or_die(const char* text) {
  AgentSpec spec;
  std::string error;
  if (!parse_agent_spec(text, spec, error)) std::abort();
  return spec;
}

TEST(Allocation, NoneInsideRandomPlayDeals) {
  for (const char* profile : {"classic", "two-player"}) {
    Rules rules;
    std::string error;
    ASSERT_TRUE(parse_profile(profile, rules, error));
    State s;
    RandomAgent random;
    const long before = g_allocations.load();
    int64_t actions = 0;
    for (int k = 0; k < 2000; ++k) {
      start_single_deal(s, rules, 5, k);
      Rng rng(derive_seed(5, Stream::kRandomPlay, static_cast<uint64_t>(k)));
      actions += play_deal(
          s, [&](int) -> RandomAgent& { return random; }, rng);
    }
    EXPECT_EQ(g_allocations.load() - before, 0) << profile;
    EXPECT_GT(actions, 2000 * 30);
  }
}

TEST(Allocation, NoneWhenAnAgentPlaysThroughItsView) {
  RandomAgent random;  // created at start-up
  HeuristicAgent heuristic;
  State s;
  const long before = g_allocations.load();
  for (int k = 0; k < 500; ++k) {
    start_single_deal(s, Rules{}, 6, k);
    Rng rng(derive_seed(6, Stream::kTest, static_cast<uint64_t>(k)));
    play_deal(
        s, [&](int seat) -> Agent& { return seat % 2 ? static_cast<Agent&>(random) : heuristic; }, rng);
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
}

// A search allocates nothing once warmed up: its node pools keep their
// room from one decision, one deal and one run to the next (the runner
// builds an agent once per worker thread), with every rollout policy and
// with root-parallel trees.
// A policy file of random weights, for the searches with a prior.
std::string random_policy_file() {
  PolicyModel m(Rules{}, 16);
  Rng rng(derive_seed(4, Stream::kTest, 3));
  for (auto* v : {&m.hidden_weights(), &m.embeddings(), &m.action_biases()})
    for (float& x : *v) x = static_cast<float>(rng.uniform() - 0.5);
  const std::string path = ::testing::TempDir() + "canasta_alloc_" + std::to_string(::getpid()) + ".policy";
  std::string error;
  if (!m.save(path, error)) std::abort();
  return path;
}

TEST(Allocation, NoneInASearchOnceWarmedUp) {
  const std::string policy = random_policy_file();
  const std::string with_prior = "ismcts:iters=200,prior=" + policy;
  const std::string with_policy_rollouts = "ismcts:iters=200,rollout=policy,cutoff=20,prior=" + policy;
  const std::string with_bias =
      "ismcts:iters=200,rollout=heuristic,cutoff=20,prior_rule=bias,prior=" + policy;
  for (const char* spec :
       {"ismcts:iters=300", "ismcts:iters=200,rollout=heuristic,cutoff=30",
        "ismcts:iters=200,rollout=random,meld_order=1,infer=0.5", "ismcts:iters=200,threads=2",
        "ismcts:iters=200,rollout=heuristic,cutoff=10,eval=default", "ismcts:iters=200,cutoff=0,eval=default",
        with_prior.c_str(), with_policy_rollouts.c_str(), with_bias.c_str()}) {
    SCOPED_TRACE(spec);
    AgentSpec agent;
    std::string error;
    ASSERT_TRUE(parse_agent_spec(spec, agent, error)) << error;
    const auto search = make_agent(agent);
    RandomAgent random;
    State s;
    const auto play = [&](int k) {
      start_single_deal(s, Rules{}, 8, k);
      Rng rng(derive_seed(8, Stream::kTest, static_cast<uint64_t>(k)));
      play_deal(
          s, [&](int seat) -> Agent& { return seat % 2 ? static_cast<Agent&>(random) : *search; }, rng);
    };
    play(0);  // warms up: the pools take their room
    const long before = g_allocations.load();
    for (int k = 1; k < 6; ++k) play(k);
    EXPECT_EQ(g_allocations.load() - before, 0);
  }
  std::remove(policy.c_str());
}

// A run holds the same memory however many deals it plays: its rows go
// out as they finish (here to a sink that keeps none), its summary is an
// integer tally, its agents are built once per thread. Ten times the deals:
// the same peak of the heap (within 10%) and no more allocations but a few
// (working space that grows to the largest hand-on).
TEST(Allocation, ARunHoldsTheSameMemoryHoweverLong) {
  struct Use {
    long allocations, peak;
  };
  const auto run = [](int64_t deals, bool duplicate) {
    ExperimentConfig c;
    c.side0 = agent_spec_or_die("heuristic");
    c.side1 = agent_spec_or_die("random");
    c.duplicate = duplicate;
    c.deals = deals;
    c.threads = 2;
    RunHooks hooks;
    int64_t rows = 0;
    hooks.deal_rows = [&rows](std::span<const DealRow> r) { rows += static_cast<int64_t>(r.size()); };
    Tally t;
    RunOutcome out;
    out.tally = &t;
    std::string error;
    g_peak = g_live.load();
    const long before = g_allocations.load(), base = g_live.load();
    EXPECT_TRUE(stream_deals(c, out, error, hooks)) << error;
    EXPECT_EQ(rows, deals * (duplicate ? 2 : 1));
    EXPECT_EQ(t.rows, rows);
    return Use{g_allocations.load() - before, g_peak.load() - base};
  };
  for (const bool duplicate : {false, true}) {
    const Use small = run(5000, duplicate), large = run(50000, duplicate);
    std::printf("duplicate %d: 5,000 deals %ld allocations, peak %ld bytes; 50,000 deals %ld, %ld\n",
                duplicate ? 1 : 0, small.allocations, small.peak, large.allocations, large.peak);
    EXPECT_LT(large.allocations, small.allocations + 20) << "duplicate " << duplicate;
    EXPECT_LT(static_cast<double>(large.peak), 1.1 * static_cast<double>(small.peak))
        << "duplicate " << duplicate;
  }
}

// Determinizing a view for search allocates nothing either.
TEST(Allocation, NoneWhenAViewIsDeterminized) {
  State s;
  start_single_deal(s, Rules{}, 7, 0);
  Rng rng(1);
  const long before = g_allocations.load();
  for (int i = 0; i < 1000; ++i) {
    const State d = View(s, s.actor()).determinize(rng);
    EXPECT_EQ(d.hand[s.actor()], s.hand[s.actor()]);
  }
  EXPECT_EQ(g_allocations.load() - before, 0);
}

// The counter works: a vector allocates.
TEST(Allocation, CounterSeesAllocations) {
  const long before = g_allocations.load();
  auto* v = new std::vector<int>(100);
  delete v;
  EXPECT_GE(g_allocations.load() - before, 2);
}

}  // namespace
}  // namespace canasta

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
