// The agent interface: an agent decides from its seat's View and a random
// stream handed to it by the caller, so every decision is reproducible.
// Agents are made from spec strings ("random", "heuristic:freeze=6,take_min=4")
// through a registry that lists each agent's parameters.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/rng.h"
#include "canasta/view.h"

namespace canasta {

class Agent {
 public:
  virtual ~Agent() = default;
  // The action to play; `view.actor() == view.seat()` and the deal is not over.
  virtual Action act(const View& view, Rng& rng) = 0;
  // The spec that makes this agent again.
  virtual std::string spec() const = 0;
};

// One tunable parameter of an agent.
struct AgentParam {
  std::string name;
  double value;   // the default, or the value a spec set
  double lo, hi;  // the accepted range
  bool integer;   // only whole numbers
  std::string help;
  std::vector<std::string> choices = {};  // named values: `value` is an index into them
};

// A registered kind of agent.
struct AgentKind {
  std::string name;
  std::string summary;
  std::vector<AgentParam> params;  // with their defaults
};

// Every registered agent, in the order `canasta agents` lists them.
const std::vector<AgentKind>& agent_kinds();

// Makes an agent from a spec: a name, optionally ':' and comma-separated
// name=value parameters. Returns nullptr and a one-line error naming the bad
// part (unknown agent, unknown parameter, value out of range).
std::unique_ptr<Agent> make_agent(std::string_view spec, std::string& error);

// The registry as text: every agent, every parameter with its default,
// range and meaning.
std::string agents_help();

// Uniform over the legal actions.
class RandomAgent final : public Agent {
 public:
  Action act(const View& view, Rng& rng) override;
  std::string spec() const override { return "random"; }

 private:
  ActionList legal_;
};

// A rule-based player: melds what it can (holding back wild cards), takes
// the pile when it is big enough, discards what is safest, freezes the pile
// with a wild card when it is big.
struct HeuristicParams {
  int take_min = 3;     // take the pile (when not compelled) only if it holds at least this many cards
  int freeze = 0;       // discard a wild card to freeze a pile of at least this many cards (0: never)
  int keep_wilds = 1;   // wild cards held back from melds until going out
  bool go_out = true;   // go out as soon as the rules allow
  int meld_min = 2;     // naturals of a rank in hand before starting a new meld (2: a pair and a wild)
  int freeze_hand = 0;  // also freeze when the next opponent holds at most this many cards (0: no)
  bool freeze_unopened = true;  // freeze even when the next opponent's side has not opened
  int out_margin = -10000;  // go out (or answer yes) only when the side leads the deal's table score by this
  bool ask = false;         // ask the partner before going out, when the rules allow
  int out_cards = 0;        // go out only when the opponents hold at least this many cards together
};

class HeuristicAgent final : public Agent {
 public:
  explicit HeuristicAgent(const HeuristicParams& p = {}) : p_(p) {}
  Action act(const View& view, Rng& rng) override;
  std::string spec() const override;

 private:
  HeuristicParams p_;
  ActionList legal_;
};

}  // namespace canasta

namespace canasta {

// Single-observer Information Set MCTS (Cowling, Powley and Whitehouse, 2012).
struct IsmctsParams {
  int iterations = 1000;          // iterations per decision (split between the trees)
  int time_ms = 0;                // when > 0: search this many milliseconds instead (not reproducible)
  double c = 0.7;                 // UCB exploration constant
  bool heuristic_rollout = true;  // rollout policy: the heuristic agent (else uniform random)
  int cutoff = 40;                // rollout actions before the deal is scored as it stands (0: to the end)
  bool win_reward = false;  // reward: 1 / 0.5 / 0 for the deal won / tied / lost (else the score margin)
  int threads = 1;          // root-parallel trees on the TBB pool, merged at the end
};

class IsmctsAgent final : public Agent {
 public:
  explicit IsmctsAgent(const IsmctsParams& p = {});
  ~IsmctsAgent() override;
  Action act(const View& view, Rng& rng) override;
  std::string spec() const override;
  // Iterations run by the last decision (all trees).
  int64_t last_iterations() const { return last_iterations_; }

 private:
  struct Tree;
  IsmctsParams p_;
  std::vector<std::unique_ptr<Tree>> trees_;  // node pools reused between decisions
  int64_t last_iterations_ = 0;
};

}  // namespace canasta
