// Single-observer Information Set MCTS (Cowling, Powley and Whitehouse, 2012).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "canasta/agent_base.h"
#include "canasta/params.h"
#include "canasta/policy_model.h"
#include "canasta/value_model.h"

namespace canasta {

enum class IsmctsRollout : uint8_t { kRandom, kBasic, kHeuristic, kPolicy };  // the policy after the tree
enum class IsmctsReward : uint8_t { kMargin, kWin };                          // what a rollout's end is worth
CANASTA_CHOICE_NAMES(IsmctsRollout, "random", "basic", "heuristic", "policy");
CANASTA_CHOICE_NAMES(IsmctsReward, "margin", "win");
enum class IsmctsPriorRule : uint8_t { kPuct, kBias };  // how a prior policy steers the tree
CANASTA_CHOICE_NAMES(IsmctsPriorRule, "puct", "bias");

// Its parameters, one line each: name, type, default, range, meaning (see
// CANASTA_HEURISTIC_PARAMS). An enum takes the names ChoiceNames gives it.
#define CANASTA_ISMCTS_PARAMS(X)                                                                            \
  X(iters, int, 1000, 1, 10000000, "iterations per decision")                                               \
  X(time_ms, int, 0, 0, 3600000,                                                                            \
    "when above 0, search this many milliseconds per decision instead of `iters` (not reproducible)")       \
  X(c, double, 0.7, 0, 10, "UCB exploration constant")                                                      \
  X(rollout, IsmctsRollout, IsmctsRollout::kBasic, 0, 3,                                                    \
    "rollout policy after the tree (the named agent with its defaults; policy: actions drawn from the "     \
    "prior's policy, or the built-in one)")                                                                 \
  X(cutoff, int, 40, 0, 100000, "rollout actions before the deal is scored as it stands (0: to its end)")   \
  X(hand_weight, double, 1, 0, 1,                                                                           \
    "at a cut-off, the share of the hands' card values counted against their sides (1: the score as it "    \
    "stands)")                                                                                              \
  X(reward, IsmctsReward, IsmctsReward::kMargin, 0, 1,                                                      \
    "margin: the score margin squashed to [0,1]; win: 1, 0.5 or 0 for the deal")                            \
  X(scale, double, 1000, 1, 100000,                                                                         \
    "margin: the reward is 1/2 + tanh(margin / scale) / 2 (smaller: closer to the deal won or lost)")       \
  X(threads, int, 1, 1, 256, "root-parallel trees on the TBB pool, merged at the end")                      \
  X(prior, ParamText, ParamText{}, 0, 0,                                                                    \
    "a policy file (canasta train --policy) or default (the built-in one of the game's profile): the tree " \
    "selects by PUCT on its probabilities, from the acting seat's view; true: expand the rollout "          \
    "policy's choice first at every node instead (progressive bias)")                                       \
  X(c_puct, double, 1, 0, 100, "with a prior policy, the weight of its probabilities in PUCT")              \
  X(prior_rule, IsmctsPriorRule, IsmctsPriorRule::kPuct, 0, 1,                                              \
    "with a prior policy: puct (a node's children made at once, selected by PUCT), or bias (the UCB rule "  \
    "of the search without a prior, the untried action the policy likes most expanded first, c_puct x its " \
    "probability / (1 + visits) added to a child's score)")                                                 \
  X(stop_early, bool, true, 0, 1,                                                                           \
    "end a search once the most visited action cannot be overtaken in the iterations left (the same "       \
    "decision, fewer iterations; one tree, `iters` only)")                                                  \
  X(stop_share, double, 1, 0.05, 1,                                                                         \
    "with stop_early, end once the most visited action leads the next by more than this share of the "      \
    "iterations left (1: it cannot be overtaken; below 1: fewer iterations, a decision the rest seldom "    \
    "changes)")                                                                                             \
  X(meld_share, double, 1, 0.01, 1,                                                                         \
    "share of `iters` for a decision among melds (the pile, discards and answers get all of it)")           \
  X(meld_order, bool, false, 0, 1,                                                                          \
    "below the root, a turn's melds in one order only (rank order; the same table, fewer tree paths)")      \
  X(infer, double, 0, 0, 1,                                                                                 \
    "reject, with this chance, a sample giving a hidden pair of a rank to a seat that discarded that rank") \
  X(eval, ParamText, ParamText{}, 0, 0,                                                                     \
    "a value model file (canasta train), or default (the built-in one of the game's profile): positions "   \
    "at the rollout cut-off are scored by it instead of as they stand; with cutoff=0 the leaf is scored")   \
  X(eval_seats, int, 0, 0, 8,                                                                               \
    "with a model, the seats whose views score a cut-off: the searcher's and the next ones in turn order "  \
    "(0: every seat; with more than two sides, at least one seat of each)")

struct IsmctsParams {
#define CANASTA_FIELD(name, type, value, lo, hi, help) type name = value;
  CANASTA_ISMCTS_PARAMS(CANASTA_FIELD)
#undef CANASTA_FIELD
  friend bool operator==(const IsmctsParams&, const IsmctsParams&) = default;
};

class IsmctsAgent final : public Agent {
 public:
  explicit IsmctsAgent(const IsmctsParams& p = {});
  ~IsmctsAgent() override;
  Action act(const View& view, Rng& rng) override;
  // Iterations run by the last decision (all trees).
  int64_t last_iterations() const { return last_iterations_; }
  // The root's visits of each legal action of the last decision (all trees),
  // in legal-action order; empty when there was one legal action.
  const std::vector<std::pair<Action, int>>& last_visits() const { return last_visits_; }

 private:
  struct Tree;
  IsmctsParams p_;
  std::vector<std::unique_ptr<Tree>> trees_;  // node pools reused between decisions
  std::vector<uint64_t> seeds_;               // of the trees' streams, one a tree
  int64_t last_iterations_ = 0;
  std::vector<std::pair<Action, int>> last_visits_;
  AgentModel model_;    // eval=FILE or default
  AgentPolicy policy_;  // prior=FILE or default, or the rollout's policy
};

// What an ISMCTS spec's `prior` asks for: nothing (empty, false, 0, no,
// off), the progressive bias of the rollout policy (true, 1, yes, on), or a
// policy (a file, or default).
enum class IsmctsPrior : uint8_t { kNone, kBias, kPolicy };
IsmctsPrior prior_kind(const IsmctsParams& p);

}  // namespace canasta
