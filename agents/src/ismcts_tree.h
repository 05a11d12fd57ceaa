// The tree of the single-observer ISMCTS (canasta/ismcts.h), one search
// per decision. Each iteration:
//   1. samples a determinization consistent with the searching seat's view
//      (with `infer`, less often one that gives a seat a pair of a rank it
//      has discarded);
//   2. descends the tree, choosing among the actions legal in that
//      determinization by UCB with availability counts (with `meld_order`,
//      a turn's melds in rank order below the root), or with a prior
//      policy by PUCT: the node's children made at once, each with the
//      policy's probability from the acting seat's view of the sample;
//   3. adds one node for an untried action (with a prior, stops at the
//      first child never visited);
//   4. plays a rollout (random or heuristic) to the end of the deal or to a
//      cut-off, where the deal is scored as it stands;
//   5. backs the reward up the path, each node from the point of view of the
//      side that chose its action.
// Nodes follow the searching seat's information: the seat's own draws lead
// to chance nodes whose children are keyed by the cards it drew.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include "canasta/ismcts.h"
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "canasta/basic.h"
#include "canasta/heuristic.h"
#include "canasta/parallel.h"
#include "canasta/random_agent.h"

namespace canasta {

namespace ismcts_detail {

// Samples drawn again at most this many times for `infer`.
inline constexpr int kInferTries = 8;

// A seat other than the searcher holds, among the cards nobody has seen it
// take, two naturals of a rank it has discarded this deal: players keep
// pairs and shed single cards, so such a hand is unlikely.
inline bool implausible(const View& view, const State& d) {
  for (int seat = 0; seat < view.rules().players; ++seat) {
    if (seat == view.seat() || view.discarded(seat) == 0) continue;
    const CardSet hidden = d.hand[seat] - view.known(seat);
    for (int k = kFirstNatural; k <= kLastNatural; ++k)
      if ((view.discarded(seat) >> k & 1U) && hidden.count(k) >= 2) return true;
  }
  return false;
}

}  // namespace ismcts_detail

struct IsmctsAgent::Tree {
  struct Node {
    uint32_t action = 0;  // the action leading here
    int32_t first_child = -1;
    int32_t next_sibling = -1;
    int32_t visits = 0;
    int32_t avail = 0;
    int8_t side = 0;      // side that chose `action`
    bool chance = false;  // the searcher's draw: children are keyed by the cards drawn
    uint16_t prior = 0;   // with a prior policy: its probability of `action`, in 65536ths
    uint64_t drawn = 0;   // for children of a chance node: the cards the searcher drew
    double reward = 0;    // summed, from the point of view of the side that chose `action`
  };
  std::vector<Node> nodes;
  ActionList legal;
  ActionList fresh;  // untried actions at the current node
  ActionList kept;   // the legal actions left by `meld_order`
  // available_and_untried's table of the legal actions (open addressing; a
  // slot is in use when its stamp is the call's), and which were tried.
  static constexpr int kDirect = 32;      // up to this many legal actions, compared directly
  static constexpr size_t kSlots = 4096;  // 2 x ActionList::kCapacity, rounded up to a power of two
  static_assert(kSlots >= 2 * ActionList::kCapacity);
  std::array<uint32_t, kSlots> slot_stamp{};
  std::array<uint32_t, kSlots> slot_action{};
  std::array<uint16_t, kSlots> slot_index{};
  std::array<uint8_t, ActionList::kCapacity> slot_tried{};
  uint32_t stamp = 0;
  // The children of the current node whose action is legal here, in the
  // order of the node's child list (select's candidates).
  std::array<int32_t, ActionList::kCapacity> legal_child{};
  int legal_children = 0;
  std::vector<int> path;
  const PolicyModel* prior_policy = nullptr;    // with prior=FILE|default, for this search
  const PolicyModel* rollout_policy = nullptr;  // with rollout=policy
  size_t kept_room = 0;                         // nodes kept free for the iterations left
  std::array<float, ActionList::kCapacity> probs{};
  ActionList rollout_legal;
  BasicAgent basic_agent;
  HeuristicAgent heuristic_agent;
  RandomAgent random_agent;

  int add(int parent, uint32_t action, int side, bool chance, uint64_t drawn) {
    Node n;
    n.action = action;
    n.side = static_cast<int8_t>(side);
    n.chance = chance;
    n.drawn = drawn;
    n.next_sibling = nodes[parent].first_child;
    nodes.push_back(n);
    const int id = static_cast<int>(nodes.size()) - 1;
    nodes[parent].first_child = id;
    return id;
  }

  int child_drawn(int parent, uint64_t drawn) {
    for (int c = nodes[parent].first_child; c >= 0; c = nodes[c].next_sibling)
      if (nodes[c].drawn == drawn) return c;
    return add(parent, 0, nodes[parent].side, false, drawn);
  }

  Agent& policy(const IsmctsParams& p) {
    return p.rollout == IsmctsRollout::kBasic       ? static_cast<Agent&>(basic_agent)
           : p.rollout == IsmctsRollout::kHeuristic ? static_cast<Agent&>(heuristic_agent)
                                                    : random_agent;
  }

  int64_t done = 0;  // iterations of the last search

  // True when the most visited child of the root leads the next by more
  // than `left` visits: no run of the iterations left can change which is
  // most visited, so the search's decision is made (`left`: the iterations
  // left times stop_share).
  bool decided(double left) const {
    int first = 0, second = 0;
    for (int c = nodes[0].first_child; c >= 0; c = nodes[c].next_sibling) {
      const int v = nodes[c].visits;
      if (v > first) {
        second = first;
        first = v;
      } else if (v > second) {
        second = v;
      }
    }
    return first - second > left;
  }

  // Runs `iterations` iterations, or (time_ms > 0) as many as fit before
  // `deadline`; with `stop_early`, fewer once the decision is made.
  void search(const View& view, const IsmctsParams& p, const ValueModel* model, Rng& rng, int iterations,
              std::chrono::steady_clock::time_point deadline, bool stop_early) {
    const Rules& rules = view.rules();
    const int my_side = rules.team_of(view.seat());
    reset(p, iterations);
    const bool puct = by_puct(p);
    for (int it = 0; p.time_ms > 0 || it < iterations; ++it) {
      if (p.time_ms > 0 && it % 16 == 0 && it > 0 && std::chrono::steady_clock::now() >= deadline) break;
      if (stop_early && it % 16 == 0 && it > 0 && decided(p.stop_share * (iterations - it))) break;
      ++done;
      kept_room = 3 * static_cast<size_t>(std::max(0, iterations - it));
      State d = sample(view, p, rng);
      puct ? descend_puct(d, view, p) : descend(d, view, p, rng);
      rollout(d, p, model, rng);
      std::array<double, kMaxTeams> value{};
      const double margin = evaluate(d, rules, view.seat(), p, model, value);
      backup(rules, my_side, p, margin, value, model && !d.over() && model->squash() > 0);
    }
  }

 private:
  // Whether a prior policy steers the tree by PUCT (rather than none, or the bias rule).
  bool by_puct(const IsmctsParams& p) const {
    return prior_policy != nullptr && p.prior_rule == IsmctsPriorRule::kPuct;
  }

  // An empty tree, the root alone.
  void reset(const IsmctsParams& p, int iterations) {
    nodes.clear();
    // An iteration adds at most three nodes (a new draw of the searcher's on
    // the way down, the expanded node, the searcher's draw under it): with a
    // fixed budget the pool never grows once it has served one search of
    // that budget, so that a warmed-up agent allocates nothing.
    if (p.time_ms == 0) {
      // With a prior a node's children are made at once: about a
      // decision's width of nodes an iteration (the pool grows past it
      // only on an unusually wide search, and keeps what it grew).
      const size_t per = by_puct(p) ? 24 : 3;
      nodes.reserve(per * static_cast<size_t>(iterations) + 1);
      path.reserve(static_cast<size_t>(3 * iterations + 1));
    }
    nodes.push_back(Node{});
    done = 0;
  }

  // Determinization: a deal consistent with the searcher's view (with
  // `infer`, drawn again, up to kInferTries times, while implausible).
  static State sample(const View& view, const IsmctsParams& p, Rng& rng) {
    State d = view.determinize(rng);
    for (int t = 0; t < ismcts_detail::kInferTries && p.infer > 0 && ismcts_detail::implausible(view, d) &&
                    rng.uniform() < p.infer;
         ++t)
      d = view.determinize(rng);
    return d;
  }

  // Selection and expansion: from the root, the tree's choice among the
  // actions legal in `d`, played on `d`, until a node gets its first child
  // for an untried action (or the deal ends); `path` holds the nodes passed.
  void descend(State& d, const View& view, const IsmctsParams& p, Rng& rng) {
    const int me = view.seat();
    int node = 0;
    path.clear();
    int order_actor = -1, order_kind = 0;  // the last meld of the turn under way in the tree
    while (!d.over()) {
      legal_actions(d, legal);
      if (legal.empty()) break;  // cannot happen from a consistent sample; scored as it stands
      const int actor = d.actor();
      if (order_actor == actor) keep_meld_order(order_kind);
      available_and_untried(node);
      const bool expanded = !fresh.empty();
      const int child =
          expanded ? expand(node, d, actor, me, p, rng) : select(p.c, prior_policy ? p.c_puct : 0.0);
      node = play_child(d, child, actor, me, p, order_actor, order_kind);
      if (expanded) break;
    }
  }

  // Plays `child`'s action on `d` for `actor`, notes where the turn's melds
  // are ordered from, adds the child (and the searcher's draw under it) to
  // `path`; returns the node reached.
  int play_child(State& d, int child, int actor, int me, const IsmctsParams& p, int& order_actor,
                 int& order_kind) {
    const Action pick(nodes[child].action);
    const CardSet before = d.hand[me];
    const bool pending = d.flags & kPilePending;
    apply(d, pick);
    // A meld orders the rest of the turn's melds, unless it brought the
    // pile that waited on an opening into the hand.
    order_actor = p.meld_order && pick.type() == ActionType::kMeld && (!pending || (d.flags & kPilePending))
                      ? actor
                      : -1;
    order_kind = pick.kind();
    path.push_back(child);
    int node = child;
    if (nodes[node].chance) {
      const uint64_t drawn = (d.hand[me] - before).raw() | (uint64_t{d.red3[me]} << 60);
      node = child_drawn(node, drawn);
      path.push_back(node);
    }
    return node;
  }

  // Selection by PUCT, with the prior's probabilities: from the root, the
  // tree's choice among the actions legal in `d` (a node's children made
  // at once, with their probabilities; an action first legal in a later
  // sample gets its child then), played on `d`, until a child never visited
  // is reached (or the deal ends); `path` holds the nodes passed.
  void descend_puct(State& d, const View& view, const IsmctsParams& p) {
    const int me = view.seat();
    int node = 0;
    path.clear();
    int order_actor = -1, order_kind = 0;
    while (!d.over()) {
      legal_actions(d, legal);
      if (legal.empty()) break;
      const int actor = d.actor();
      if (order_actor == actor) keep_meld_order(order_kind);
      available_and_untried(node);
      if (!fresh.empty()) add_with_priors(node, d, actor, me, p.time_ms > 0);
      const int child = select_puct(p.c_puct);
      const bool leaf = nodes[child].visits == 0;
      node = play_child(d, child, actor, me, p, order_actor, order_kind);
      if (leaf) break;
    }
  }

  // Children of `node` for the untried actions (`fresh`, in legal order),
  // each with the prior's probability among every legal action, as the
  // acting seat sees the sample. With a fixed budget the pool never grows:
  // where it has no room for them all (beside the three nodes each
  // iteration left may add), the most likely one alone.
  void add_with_priors(int node, const State& d, int actor, int me, bool may_grow) {
    prior_policy->probabilities(View(d, actor), legal, probs.data());
    const bool all =
        may_grow || nodes.size() + static_cast<size_t>(fresh.size()) + kept_room <= nodes.capacity();
    const int only = all ? -1 : likeliest_fresh();  // without room for all: the most likely fresh one
    int f = 0;
    for (int i = 0; i < legal.size() && f < fresh.size(); ++i) {
      if (!(legal[i] == fresh[f])) continue;
      const Action a = fresh[f++];
      if (!all && i != only) continue;
      const bool chance = actor == me && a.type() == ActionType::kDraw;
      const int child = add(node, a.raw(), d.rules.team_of(actor), chance, 0);
      nodes[child].avail = 1;
      nodes[child].prior = in_65536ths(probs[static_cast<size_t>(i)]);
      legal_child[static_cast<size_t>(legal_children++)] = child;
    }
  }

  // The index in `legal` of the untried action (`fresh`) with the highest
  // probability in `probs` (the first of equals).
  int likeliest_fresh() const {
    int best = -1;
    for (int i = 0, f = 0; i < legal.size() && f < fresh.size(); ++i)
      if (legal[i] == fresh[f] &&
          (++f, best < 0 || probs[static_cast<size_t>(i)] > probs[static_cast<size_t>(best)]))
        best = i;
    return best;
  }

  // A probability as a node keeps it, in 65536ths.
  static uint16_t in_65536ths(float prob) {
    return static_cast<uint16_t>(std::lround(std::clamp(prob, 0.0F, 1.0F) * 65535));
  }

  // The child legal here with the highest PUCT score: its mean reward
  // (for a child never visited, that of its visited siblings less a
  // little, or 1/2) plus c_puct x its prior x sqrt(its availability) /
  // (1 + its visits).
  int select_puct(double c_puct) const {
    double reward = 0;
    int visits = 0;
    for (int i = 0; i < legal_children; ++i) {
      const Node& n = nodes[legal_child[static_cast<size_t>(i)]];
      reward += n.reward;
      visits += n.visits;
    }
    const double unvisited = visits > 0 ? std::max(0.0, reward / visits - 0.05) : 0.5;
    int pick_child = -1;
    double best = -1e300;
    for (int i = 0; i < legal_children; ++i) {
      const int c = legal_child[static_cast<size_t>(i)];
      const Node& n = nodes[c];
      const double q = n.visits > 0 ? n.reward / n.visits : unvisited;
      const double score =
          q + c_puct * (n.prior / 65535.0) * std::sqrt(static_cast<double>(n.avail)) / (1.0 + n.visits);
      if (score > best) best = score, pick_child = c;
    }
    return pick_child;
  }

  // Melds of a lower rank than the turn's last one lead to tables reached
  // in rank order from another path: `legal` without them (unless nothing
  // would be left).
  void keep_meld_order(int order_kind) {
    kept.clear();
    for (Action a : legal)
      if (a.type() != ActionType::kMeld || a.kind() >= order_kind) kept.push(a);
    if (!kept.empty() && kept.size() < legal.size()) std::swap(legal, kept);
  }

  // The bit of the position of `action` among `vectors` x 4 actions at
  // `padded`, or 0 when it is not there.
  static uint32_t match(const uint32_t* padded, int vectors, uint32_t action) {
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi32(static_cast<int>(action));
    uint32_t bits = 0;
    for (int v = 0; v < vectors; ++v) {
      const __m128i four = _mm_loadu_si128(reinterpret_cast<const __m128i*>(padded + 4 * v));
      bits |= static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(four, want))))
              << (4 * v);
    }
    return bits;
#else
    for (int i = 0; i < 4 * vectors; ++i)
      if (padded[i] == action) return 1U << i;
    return 0;
#endif
  }

  // Availability: every child of `node` whose action is legal here gains
  // one (and is listed in `legal_child`). Untried actions: legal here, no
  // child of `node` yet (into `fresh`, in legal order). The child list is
  // walked once; each child's action is looked up in the legal actions,
  // by vector compares in a short list, through a table in a long one (a
  // meld phase with many wild cards).
  void available_and_untried(int node) {
    fresh.clear();
    legal_children = 0;
    const int n = legal.size();
    if (n <= kDirect) {
      // Each child's action against every legal one at once, four to a
      // vector compare; the legal actions padded with a value no action has.
      std::array<uint32_t, kDirect> padded;
      padded.fill(~0U);
      static_assert(sizeof(Action) == sizeof(uint32_t));
      std::memcpy(padded.data(), legal.begin(), sizeof(uint32_t) * static_cast<size_t>(n));
      const int vectors = (n + 3) / 4;
      uint32_t tried = 0;
      for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
        const uint32_t at = match(padded.data(), vectors, nodes[c].action);
        if (!at) continue;
        ++nodes[c].avail;
        tried |= at;
        legal_child[static_cast<size_t>(legal_children++)] = c;
      }
      for (uint32_t untried = ~tried & (n == 32 ? ~0U : (1U << n) - 1); untried; untried &= untried - 1)
        fresh.push(legal[std::countr_zero(untried)]);
      return;
    }
    std::fill_n(slot_tried.begin(), n, uint8_t{0});
    int bits = 5;
    while ((1 << bits) < 2 * n) ++bits;
    const uint32_t mask = (1U << bits) - 1;
    auto home = [bits](uint32_t raw) { return (raw * 0x9E3779B1U) >> (32 - bits); };
    if (++stamp == 0) {  // the stamps wrapped: every slot empty again
      slot_stamp.fill(0);
      stamp = 1;
    }
    for (int i = 0; i < n; ++i) {
      uint32_t h = home(legal[i].raw());
      while (slot_stamp[h] == stamp) h = (h + 1) & mask;
      slot_stamp[h] = stamp;
      slot_action[h] = legal[i].raw();
      slot_index[h] = static_cast<uint16_t>(i);
    }
    for (int c = nodes[node].first_child; c >= 0; c = nodes[c].next_sibling) {
      for (uint32_t h = home(nodes[c].action); slot_stamp[h] == stamp; h = (h + 1) & mask) {
        if (slot_action[h] != nodes[c].action) continue;
        ++nodes[c].avail;
        slot_tried[slot_index[h]] = 1;
        legal_child[static_cast<size_t>(legal_children++)] = c;
        break;
      }
    }
    for (int i = 0; i < n; ++i)
      if (!slot_tried[static_cast<size_t>(i)]) fresh.push(legal[i]);
  }

  // Expansion: a new child of `node` for an untried action drawn at random
  // (with prior=true, the rollout policy's choice for a node's first child;
  // with a prior policy and prior_rule=bias, the untried action it likes
  // most, the child keeping its probability); the searcher's draw makes it
  // a chance node.
  int expand(int node, const State& d, int actor, int me, const IsmctsParams& p, Rng& rng) {
    Action pick = fresh[static_cast<int>(rng.below(static_cast<uint32_t>(fresh.size())))];
    float prob = 0;
    if (prior_policy && legal.size() == 1) {
      prob = 1;
    } else if (prior_policy) {
      prior_policy->probabilities(View(d, actor), legal, probs.data());
      const int best = likeliest_fresh();
      prob = probs[static_cast<size_t>(best)];
      pick = legal[best];
    } else if (prior_kind(p) == IsmctsPrior::kBias && nodes[node].first_child < 0) {
      // Progressive bias, in its simplest form: a node's first child is
      // the rollout policy's choice, so the policy's line is searched first.
      const Action guess = policy(p).act(View(d, actor), rng);
      if (fresh.contains(guess)) pick = guess;
    }
    const bool chance = actor == me && pick.type() == ActionType::kDraw;
    const int child = add(node, pick.raw(), d.rules.team_of(actor), chance, 0);
    nodes[child].avail = 1;
    nodes[child].prior = in_65536ths(prob);
    return child;
  }

  // std::log(n), from a table for the counts most nodes have.
  static double log_of(int n) {
    static const std::array<double, 8192> table = [] {
      std::array<double, 8192> t{};
      for (size_t i = 1; i < t.size(); ++i) t[i] = std::log(static_cast<double>(i));
      return t;
    }();
    return static_cast<size_t>(n) < table.size() ? table[static_cast<size_t>(n)]
                                                 : std::log(static_cast<double>(n));
  }

  // Selection: the child of the current node legal here (`legal_child`,
  // every legal action has one: none is untried) with the highest UCB score,
  // plus, with a prior (bias > 0), bias x its probability / (1 + visits).
  int select(double explore, double bias) const {
    int pick_child = -1;
    double best = -1e300;
    for (int i = 0; i < legal_children; ++i) {
      const int c = legal_child[static_cast<size_t>(i)];
      const Node& n = nodes[c];
      double score = n.reward / n.visits + explore * std::sqrt(log_of(n.avail) / n.visits);
      if (bias > 0) score += bias * (n.prior / 65535.0) / (1.0 + n.visits);
      if (score > best) best = score, pick_child = c;
    }
    return pick_child;
  }

  // Rollout: the policy plays on to the end of the deal or to the cut-off
  // (none at all with a model and cutoff=0).
  void rollout(State& d, const IsmctsParams& p, const ValueModel* model, Rng& rng) {
    const int cutoff = model && p.cutoff == 0 ? 0 : p.cutoff == 0 ? INT_MAX : p.cutoff;
    for (int steps = 0; !d.over() && steps < cutoff; ++steps) {
      const int actor = d.actor();
      apply(d, rollout_policy ? drawn_from_policy(d, actor, rng) : policy(p).act(View(d, actor), rng));
    }
  }

  // An action drawn from the rollout policy's probabilities at `d`.
  Action drawn_from_policy(const State& d, int actor, Rng& rng) {
    legal_actions(d, rollout_legal);
    if (rollout_legal.size() == 1) return rollout_legal[0];
    rollout_policy->probabilities(View(d, actor), rollout_legal, probs.data());
    double u = rng.uniform();
    for (int i = 0; i + 1 < rollout_legal.size(); ++i)
      if ((u -= probs[static_cast<size_t>(i)]) < 0) return rollout_legal[i];
    return rollout_legal[rollout_legal.size() - 1];
  }

  // Evaluation: the deal's score as it stands, for the searcher's side,
  // or at a cut-off the model's expected final margin (or squashed margin) of each side: the
  // mean of its seats' predictions, each from that seat's view of the
  // sampled deal, so that every hand of the sample counts (with
  // `eval_seats`, the searcher's seat and the next ones only). Returns the
  // searcher's side's margin; `value` gets each side's.
  static double evaluate(const State& d, const Rules& rules, int me, const IsmctsParams& p,
                         const ValueModel* model, std::array<double, kMaxTeams>& value) {
    const int my_side = rules.team_of(me);
    double margin = 0, sum = 0;
    if (model && !d.over()) {
      int seats = p.eval_seats == 0 ? rules.players : std::min<int>(p.eval_seats, rules.players);
      if (rules.teams > 2) seats = std::max<int>(seats, rules.teams);  // seats in turn order cover every side
      std::array<int, kMaxTeams> n{};
      for (int i = 0; i < seats; ++i) {
        const int s = seats == rules.players ? i : (me + i) % rules.players;  // every seat: in seat order
        value[rules.team_of(s)] += model->evaluate(View(d, s));
        ++n[rules.team_of(s)];
      }
      for (int t = 0; t < rules.teams; ++t) value[t] /= std::max(n[t], 1);
      margin = value[my_side];
      // Two sides: a seat's prediction for its side is the other side's
      // negated, so each seat counts once in the difference.
      if (rules.teams == 2) {
        const int opp = 1 - my_side;
        margin = n[my_side] == n[opp]
                     ? (value[my_side] - value[opp]) / 2
                     : (n[my_side] * value[my_side] - n[opp] * value[opp]) / (n[my_side] + n[opp]);
      }
    } else {
      const auto score = deal_score(d);
      const double hand_share = d.over() ? 1.0 : p.hand_weight;  // at a cut-off
      for (int t = 0; t < rules.teams; ++t) {
        sum += value[t] = score[t].total() - (1.0 - hand_share) * score[t].in_hand;
        margin += t == my_side ? value[t] : -value[t] / (rules.teams - 1);
      }
      for (int t = 0; t < rules.teams && rules.teams > 2; ++t)
        value[t] -= (sum - value[t]) / (rules.teams - 1);
    }
    return margin;
  }

  // A margin as a reward in [0, 1].
  static double reward_of(double m, const IsmctsParams& p) {
    if (p.reward == IsmctsReward::kWin) return m > 0 ? 1.0 : m == 0 ? 0.5 : 0.0;
    return 0.5 + 0.5 * std::tanh(m / p.scale);
  }

  // Backup: every node of the path gets a visit and the reward from the
  // point of view of the side that chose its action. `squashed`: the
  // margins are a model's expected tanh(margin / S), already rewards in
  // [-1, 1].
  void backup(const Rules& rules, int my_side, const IsmctsParams& p, double margin,
              const std::array<double, kMaxTeams>& value, bool squashed) {
    const auto reward = [&](double m) {
      return squashed ? 0.5 + 0.5 * std::clamp(m, -1.0, 1.0) : reward_of(m, p);
    };
    const double r = reward(margin);
    // With three sides each node's side gets its own reward (max-n): its
    // margin over the mean of the other two; with two, 1 - r.
    std::array<double, kMaxTeams> side_r{};
    if (rules.teams > 2)
      for (int t = 0; t < rules.teams; ++t) side_r[t] = reward(value[t]);
    for (int id : path) {
      Node& n = nodes[id];
      ++n.visits;
      n.reward += rules.teams > 2 ? side_r[n.side] : n.side == my_side ? r : 1.0 - r;
    }
  }
};

}  // namespace canasta
