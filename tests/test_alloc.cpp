// Zero heap allocations inside a deal: operator new is counted while deals
// are dealt and played, after start-up.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <vector>

#include "canasta/heuristic.h"
#include "canasta/profile.h"
#include "canasta/random_agent.h"
#include "canasta/runner.h"

namespace {
std::atomic<long> g_allocations{0};
}

void* operator new(std::size_t n) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace canasta {
namespace {

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
