// What the probes of bench/probes share: their common options, the deals
// they play and how a deal counts.
#pragma once

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "canasta/agent.h"
#include "canasta/cli/checks.h"
#include "canasta/engine.h"
#include "canasta/game.h"
#include "canasta/rng.h"

namespace canasta::probe {

// The options every probe takes: the agent probed, the other side's, how
// many deals and the seed.
struct Options {
  std::string agent_text = "heuristic", vs_text = "random";
  int deals = 0;
  uint64_t seed = 1;
  AgentSpec agent, vs;  // read by read_agents
};
inline void add_options(CLI::App& app, Options& o, const char* agent_help) {
  app.add_option("--agent", o.agent_text, agent_help)->capture_default_str();
  app.add_option("--vs", o.vs_text, "the other side's agent")->capture_default_str();
  app.add_option("--deals", o.deals, "deals of each run (one table side each, alternating)")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("--seed", o.seed,
                 "the run's seed: deal k is deal k of `canasta sim --seed SEED`, in its twin k % 2")
      ->capture_default_str();
}
// Parses the command line as the program does: true to go on; false with
// the exit code, after the help (0) or a one-line error on stderr (2).
inline bool parse(CLI::App& app, int argc, char** argv, const char* program, int& exit_code) {
  cli::decimal_integers(app);
  try {
    app.parse(argc, argv);
    return true;
  } catch (const CLI::CallForHelp& e) {
    exit_code = app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: %s (see --help)\n", program, e.what());
    exit_code = 2;
  }
  return false;
}
// Reads the two agent specs; false after a one-line error on stderr.
inline bool read_agents(Options& o, const char* program) {
  std::string error;
  if (parse_agent_spec(o.agent_text, o.agent, error) && parse_agent_spec(o.vs_text, o.vs, error)) return true;
  std::fprintf(stderr, "%s: %s\n", program, error.c_str());
  return false;
}

// Deal `k` of a probe's run with seed `seed` is the simulator's deal k
// (`canasta sim --seed SEED`) in its twin k % 2: the probed agent holds
// side k % 2 and the decisions draw on that twin's stream. Two runs over the
// same seed play the same deals, whatever is played in them.
struct Deal {
  State state;
  Rng play;
  int side;
};
inline Deal deal(const Rules& rules, uint64_t seed, int k) {
  const int side = k % 2;
  Deal out{State{}, Rng(derive_seed(seed, twin_stream(Stream::kDealPlay, side), static_cast<uint64_t>(k))),
           side};
  start_single_deal(out.state, rules, seed, k);
  return out;
}

// A finished deal for side `side`: 1 won, 0.5 tied, 0 lost.
inline double won(const State& s, int side) {
  const auto score = deal_score(s);
  const int margin = score[side].total() - score[1 - side].total();
  return margin > 0 ? 1 : margin == 0 ? 0.5 : 0;
}

// The next player can take the pile after `discard` (tried on a copy of the
// full state `s`; `scratch` holds the legal actions).
inline bool takeable(const State& s, Action discard, ActionList& scratch) {
  State t = s;
  apply(t, discard);
  if (t.over()) return false;
  legal_actions(t, scratch);
  return std::any_of(scratch.begin(), scratch.end(),
                     [](Action a) { return a.type() == ActionType::kTakePile; });
}

}  // namespace canasta::probe
