// A fixed workload of the engine, for counting instructions with callgrind
// (scripts/compare_instructions.sh): instruction counts do not depend on what
// else the machine runs, so two builds compare exactly. The same source
// builds against any version of the engine that has start_single_deal,
// legal_actions, apply and deal_score.
//
//   driver WORKLOAD   WORKLOAD: none (the set-up alone) | legal | apply | deal | random
//                     | basic-search | heuristic-search (60 ISMCTS decisions of
//                     500 iterations, with basic or heuristic rollouts)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "canasta/engine.h"
#include "canasta/game.h"
#include "canasta/rng.h"
#if __has_include("canasta/ismcts.h")
#include "canasta/agent.h"
#include "canasta/view.h"
#define CANASTA_SEARCH 1
#endif
#if __has_include("canasta/profile.h")
#include "canasta/profile.h"
#endif
#if __has_include("canasta/runner.h")
#include "canasta/random_agent.h"
#include "canasta/runner.h"
#define CANASTA_STREAM(n) canasta::Stream::kRandomPlay
#else
#include "canasta/sim.h"
#define CANASTA_STREAM(n) n
#endif

using namespace canasta;

namespace {

// One random-play deal, through the version's own deal loop.
int random_deal(State& s, uint64_t seed, int64_t k) {
  Rng rng(derive_seed(seed, CANASTA_STREAM(3), static_cast<uint64_t>(k)));
#if __has_include("canasta/runner.h")
  static RandomAgent random;
  return play_deal(
      s, [](int) -> RandomAgent& { return random; }, rng);
#else
  static ActionList scratch;
  return play_random_deal(s, rng, scratch);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "random";
  Rules rules;
#if __has_include("canasta/profile.h")
  // CANASTA_PROFILE picks the table (a profile spec, as --profile takes it).
  if (const char* spec = std::getenv("CANASTA_PROFILE")) {
    std::string error;
    if (!parse_profile(spec, rules, error)) {
      std::fprintf(stderr, "driver: %s\n", error.c_str());
      return 2;
    }
  }
#endif
  // Positions of 200 random-play deals.
  std::vector<State> positions;
  std::vector<Action> actions;
  State s;
  ActionList list;
  for (int k = 0; k < 200; ++k) {
    start_single_deal(s, rules, 99, k);
    Rng rng(derive_seed(99, CANASTA_STREAM(3), static_cast<uint64_t>(k)));
    while (!s.over()) {
      positions.push_back(s);
      legal_actions(s, list);
      actions.push_back(list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
      apply(s, actions.back());
    }
  }
  uint64_t sum = 0;
  if (std::strcmp(what, "legal") == 0) {
    for (int round = 0; round < 20; ++round)
      for (const State& p : positions) {
        legal_actions(p, list);
        sum += static_cast<uint64_t>(list.size());
      }
  } else if (std::strcmp(what, "apply") == 0) {
    for (int round = 0; round < 20; ++round)
      for (size_t i = 0; i < positions.size(); ++i) {
        State t = positions[i];
        apply(t, actions[i]);
        sum += t.turns;
      }
  } else if (std::strcmp(what, "deal") == 0) {
    for (int64_t k = 0; k < 20000; ++k) {
      start_single_deal(s, rules, 7, k);
      sum += s.stock_pos;
    }
  } else if (std::strcmp(what, "random") == 0) {
    for (int64_t k = 0; k < 2000; ++k) {
      start_single_deal(s, rules, 7, k);
      sum += static_cast<uint64_t>(random_deal(s, 7, k) + deal_score(s)[0].total());
    }
  }
#ifdef CANASTA_SEARCH
  const bool basic = std::strcmp(what, "basic-search") == 0;
  if (basic || std::strcmp(what, "heuristic-search") == 0) {
    AgentSpec spec;
    std::string error;
    if (!parse_agent_spec(basic ? "ismcts:iters=500" : "ismcts:iters=500,rollout=heuristic", spec, error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 2;
    }
    auto agent = make_agent(spec);
    Rng rng(3);
    size_t i = 0;
    for (int decisions = 0; decisions < 60;) {
      i = (i + 97) % positions.size();
      legal_actions(positions[i], list);
      if (list.size() < 2) continue;
      sum += agent->act(View(positions[i], positions[i].actor()), rng).raw();
      ++decisions;
    }
  }
#endif
  std::printf("%s: %zu positions, checksum %llu\n", what, positions.size(),
              static_cast<unsigned long long>(sum));
  return 0;
}
