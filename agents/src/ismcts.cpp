// Single-observer ISMCTS: the agent over its trees (ismcts_tree.h): the
// budget of a decision, root-parallel trees merged by their root visits.
#include "canasta/ismcts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <string>

#include "canasta/parallel.h"
#include "ismcts_tree.h"

namespace canasta {

IsmctsPrior prior_kind(const IsmctsParams& p) {
  const std::string_view v = p.prior.view();
  if (v.empty() || v == "false" || v == "0" || v == "no" || v == "off") return IsmctsPrior::kNone;
  if (v == "true" || v == "1" || v == "yes" || v == "on") return IsmctsPrior::kBias;
  return IsmctsPrior::kPolicy;
}

namespace {

// The policy an ISMCTS agent reads: its prior's, else the built-in one for
// policy rollouts, else none.
std::string policy_name(const IsmctsParams& p) {
  if (prior_kind(p) == IsmctsPrior::kPolicy) return std::string(p.prior.view());
  return p.rollout == IsmctsRollout::kPolicy ? "default" : "";
}

}  // namespace

IsmctsAgent::IsmctsAgent(const IsmctsParams& p)
    : p_(p), model_(std::string(p.eval.view())), policy_(policy_name(p)) {
  for (int i = 0; i < std::max(1, p_.threads); ++i) trees_.push_back(std::make_unique<Tree>());
  seeds_.resize(trees_.size());
  last_visits_.reserve(static_cast<size_t>(ActionList::kCapacity));
}

IsmctsAgent::~IsmctsAgent() = default;

Action IsmctsAgent::act(const View& view, Rng& rng) {
  ActionList legal;
  view.legal_actions(legal);
  last_iterations_ = 0;
  last_visits_.clear();
  if (legal.size() == 1) return legal[0];
  const ValueModel* model = model_.for_game(view.rules());
  const PolicyModel* policy = policy_.for_game(view.rules());
  for (auto& tree : trees_) {
    tree->prior_policy = prior_kind(p_) == IsmctsPrior::kPolicy ? policy : nullptr;
    tree->rollout_policy = p_.rollout == IsmctsRollout::kPolicy ? policy : nullptr;
  }
  const int trees = static_cast<int>(trees_.size());
  for (auto& s : seeds_) s = rng.next();
  // A decision among melds (and cleanings) gets its share of the budget;
  // taking the pile, discarding (with nothing left to meld) and answering
  // get all of it.
  bool melding = false;
  for (Action a : legal) melding |= a.type() == ActionType::kMeld || a.type() == ActionType::kClean;
  const int budget = melding ? static_cast<int>(std::lround(p_.iters * p_.meld_share)) : p_.iters;
  const int per_tree = std::max(1, budget / trees);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(p_.time_ms);
  auto run = [&](int t) {
    Rng local(seeds_[static_cast<size_t>(t)]);
    // Stopping early keeps the decision only when one tree makes it.
    trees_[static_cast<size_t>(t)]->search(view, p_, model, local, per_tree, deadline,
                                           p_.stop_early && trees == 1 && p_.time_ms == 0);
  };
  if (trees == 1) {
    run(0);
  } else {
    parallel_chunks(0, 0, trees, 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) run(static_cast<int>(t));
    });
  }
  for (const auto& tree : trees_) last_iterations_ += tree->done;
  // Merge the root children of every tree: the most visited action wins.
  Action best = legal[0];
  int best_visits = -1;
  last_visits_.clear();
  for (Action a : legal) {
    int visits = 0;
    for (const auto& tree : trees_) {
      const auto& nodes = tree->nodes;
      for (int c = nodes[0].first_child; c >= 0; c = nodes[c].next_sibling)
        if (nodes[c].action == a.raw()) visits += nodes[c].visits;
    }
    last_visits_.emplace_back(a, visits);
    if (visits > best_visits) best_visits = visits, best = a;
  }
  return best;
}

}  // namespace canasta
