// How much a player loses to the hidden hand of the player after it: plays
// deals of an agent against another twice, on the same deck orders, once as
// the agent plays and once with an oracle at its discards. Where the agent's
// discard would let the next player take the pile and another discard of a
// natural or a black three would not (the oracle tries each on a copy of the
// full state), the oracle plays that other discard, the one shedding the
// most points. The gain is what knowing the next hand is worth; the report
// also shows the agent's estimate of that chance (the heuristic's card
// count, TakeOdds) against the truth, at the discards the oracle changes,
// the estimate for the discard it took and for the one it played, and, as
// the agent plays, how often the next player took the pile after its
// discards in the deals it lost and in those it won, by what else the
// agent could have discarded.
//
//   probe_discard_oracle --agent 'heuristic:out_lead=0' --deals 20000
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/heuristic.h"
#include "canasta/runner.h"
#include "probe.h"

using namespace canasta;

namespace {

// The agent's discards that the next player could take, by the safe
// discards it held: a natural or a black three, only a wild card, none (in
// a hand of two to four cards, or a larger one).
enum Unsafe { kSafeHeld, kOnlyWild, kNoneSafeSmall, kNoneSafe, kUnsafeNb };
constexpr const char* kUnsafeNames[kUnsafeNb] = {
    "a natural or a black three was safe", "only a wild card was safe", "nothing safe, 2 to 4 cards held",
    "nothing safe, 5 or more cards held"};

// Discards and the next player's takes after them, by Unsafe.
struct Takes {
  std::array<long, kUnsafeNb> discards{}, takes{};
  void add(const Takes& t) {
    for (int c = 0; c < kUnsafeNb; ++c) discards[c] += t.discards[c], takes[c] += t.takes[c];
  }
};

struct Tally {
  double won = 0;  // deals won, a tie counting half
  long changed = 0;
  double chance_played = 0, chance_oracle = 0;  // estimated take chance at the changed discards
  std::array<double, 10> bin_n{}, bin_estimate{}, bin_true{};
  std::array<Takes, 2> takes;  // in the deals lost (or tied) and won
  std::array<long, 2> deals{};
};

// The agent's decisions, with its discards corrected by the oracle when
// `on` (it reads the full state `s` of the deal being played).
class Oracle final : public Agent {
 public:
  Oracle(Agent& agent, const State& s, Tally& t, bool on, int min_pile)
      : agent_(agent), s_(s), t_(t), on_(on), min_pile_(min_pile) {}
  // The deal's takeable discards so far, and the kind of the last one (or -1).
  Takes takes;
  int last_unsafe = -1;

  Action act(const View& v, Rng& rng) override {
    Action act = agent_.act(v, rng);
    const int seat = v.seat();
    if (act.type() != ActionType::kDiscard || s_.hand[seat].total() <= 1) return act;
    const TakeOdds odds(v);
    for (int k = kFirstNatural; k <= kLastNatural; ++k) {
      if (!s_.hand[seat].count(k)) continue;
      const double p = odds(k);
      const int bin = std::min(9, static_cast<int>(p * 10));
      t_.bin_n[bin] += 1;
      t_.bin_estimate[bin] += p;
      t_.bin_true[bin] += probe::takeable(s_, Action::make(ActionType::kDiscard, k), scratch_);
    }
    last_unsafe = -1;
    if ((on_ && s_.pile_size < min_pile_) || !probe::takeable(s_, act, scratch_)) return act;
    // The safe discard shedding the most points (a black three first), and
    // whether a wild card, which freezes the pile, was held.
    v.legal_actions(legal_);
    Action best{};
    int best_value = -1;
    bool wild = false;
    for (Action x : legal_) {
      if (x.type() != ActionType::kDiscard) continue;
      if (is_wild(x.kind())) {
        wild = true;
      } else if (!probe::takeable(s_, x, scratch_)) {
        const int value = x.kind() == kBlack3 ? 1000 : card_value(x.kind());
        if (value > best_value) best_value = value, best = x;
      }
    }
    if (!on_) {
      last_unsafe = best_value >= 0              ? kSafeHeld
                    : wild                       ? kOnlyWild
                    : s_.hand[seat].total() <= 4 ? kNoneSafeSmall
                                                 : kNoneSafe;
      ++takes.discards[last_unsafe];
      return act;
    }
    if (best_value < 0) return act;
    ++t_.changed;
    t_.chance_played += odds(act.kind());  // a natural: wild cards and black threes block the pile
    t_.chance_oracle += is_natural(best.kind()) ? odds(best.kind()) : 0;
    return best;
  }

 private:
  Agent& agent_;
  const State& s_;
  Tally& t_;
  bool on_;
  int min_pile_;
  ActionList legal_, scratch_;
};

// The other side's agent, watched for the pile taken after a takeable
// discard of the agent.
class Watcher final : public Agent {
 public:
  Watcher(Agent& agent, Oracle& oracle) : agent_(agent), oracle_(oracle) {}
  Action act(const View& v, Rng& rng) override {
    const Action a = agent_.act(v, rng);
    if (v.phase() == Phase::kDraw && oracle_.last_unsafe >= 0) {
      if (a.type() == ActionType::kTakePile) ++oracle_.takes.takes[oracle_.last_unsafe];
      oracle_.last_unsafe = -1;
    }
    return a;
  }

 private:
  Agent& agent_;
  Oracle& oracle_;
};

// One run over `deals` deals (probe.h says which).
Tally run(const AgentSpec& agent, const AgentSpec& vs, int deals, uint64_t seed, bool on, int min_pile) {
  const Rules rules = classic_rules();
  const auto a = make_agent(agent), b = make_agent(vs);
  Tally t;
  for (int k = 0; k < deals; ++k) {
    auto [s, play, side] = probe::deal(rules, seed, k);
    Oracle oracle(*a, s, t, on, min_pile);
    Watcher other(*b, oracle);
    play_deal(
        s,
        [&, side = side](int seat) -> Agent& {
          return rules.team_of(seat) == side ? static_cast<Agent&>(oracle) : other;
        },
        play);
    const double won = probe::won(s, side);
    t.won += won;
    t.takes[won > 0.5].add(oracle.takes);
    ++t.deals[won > 0.5];
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"the share of deals an agent would win if it knew which discards the next player can take"};
  probe::Options o;
  o.deals = 20000;
  int min_pile = 0;
  probe::add_options(app, o, "the agent whose discards the oracle corrects");
  app.add_option("--min-pile", min_pile, "correct only discards onto a pile of at least this many cards")
      ->check(CLI::Range(0, 108))
      ->capture_default_str();
  if (int code = 0; !probe::parse(app, argc, argv, "probe_discard_oracle", code)) return code;
  if (!probe::read_agents(o, "probe_discard_oracle")) return 2;
  const AgentSpec &agent = o.agent, &vs = o.vs;
  const int deals = o.deals;
  const uint64_t seed = o.seed;
  const Tally base = run(agent, vs, deals, seed, false, min_pile);
  const Tally best = run(agent, vs, deals, seed, true, min_pile);
  std::printf("%s against %s, %d deals, seed %llu\n", agent.to_string().c_str(), vs.to_string().c_str(),
              deals, static_cast<unsigned long long>(seed));
  std::printf("  deals won as it plays      %.2f%%\n", 100 * base.won / deals);
  std::printf("  deals won with the oracle  %.2f%% (%ld discards changed, %.2f a deal)\n",
              100 * best.won / deals, best.changed, static_cast<double>(best.changed) / deals);
  if (best.changed)
    std::printf(
        "  estimated take chance at the changed discards: %.3f for the agent's, %.3f for the oracle's\n",
        best.chance_played / static_cast<double>(best.changed),
        best.chance_oracle / static_cast<double>(best.changed));
  std::printf(
      "  the estimated chance that the next player can take a natural discarded (TakeOdds), as it plays:\n");
  std::printf("    estimate   true    discards weighed\n");
  for (int i = 0; i < 10; ++i)
    if (base.bin_n[i] > 0)
      std::printf("    %8.3f %7.3f %11.0f\n", base.bin_estimate[i] / base.bin_n[i],
                  base.bin_true[i] / base.bin_n[i], base.bin_n[i]);
  std::printf(
      "  the next player's takes after a discard it could take, a deal, as it plays (discards, takes):\n");
  std::printf("    %-38s %17s %17s\n", "", "deals lost", "deals won");
  for (int c = 0; c < kUnsafeNb; ++c) {
    std::printf("    %-38s", kUnsafeNames[c]);
    for (int w = 0; w < 2; ++w) {
      const auto n = static_cast<double>(std::max<long>(1, base.deals[w]));
      std::printf("  %7.2f %7.2f", static_cast<double>(base.takes[w].discards[c]) / n,
                  static_cast<double>(base.takes[w].takes[c]) / n);
    }
    std::printf("\n");
  }
  std::printf("    (%ld deals lost or tied, %ld won)\n", base.deals[0], base.deals[1]);
  return 0;
}
