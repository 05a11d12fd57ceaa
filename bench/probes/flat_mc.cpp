// How much the heuristic would gain from looking ahead at some of its
// decisions: plays deals of a heuristic against another agent twice, on the
// same deck orders, once as the heuristic plays and once with flat Monte
// Carlo at the decisions asked for:
//   draw: take the pile or draw, whenever both are legal;
//   out:  at the start of each meld phase once the side has its canastas,
//         the rest of the turn as the heuristic plays it, going out whenever
//         it can, or staying in (no going out, no dumping the hand);
//   discard: every legal discard, where the heuristic discards;
//   both: draw and out; all: the three.
// Each option is scored by the deals won in `--rollouts` playouts from
// states drawn consistent with the seat's view (View::determinize), the same
// draws for every option; the playouts play the heuristic for its side and
// the other side's own agent for the other (with --model-self, the
// heuristic too: a player that does not know its opponent). The gain bounds what a rule for
// these decisions could add. With --clairvoyant the playouts start from the
// true hands instead, with the stock shuffled anew (hands) or as it lies
// (all): no player sees that much. The first bounds what knowing the hidden
// hands could add (the best that reading them from the public history
// could do); the second adds the stock's order, which nothing reveals.
//
//   probe_flat_mc --agent 'heuristic:out_lead=0' --at both --deals 6000
#include <CLI/CLI.hpp>
#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/heuristic.h"
#include "canasta/runner.h"
#include "probe.h"

using namespace canasta;

namespace {

struct Setup {
  HeuristicParams mine;
  AgentSpec vs;
  int rollouts = 64;
  bool draw = false, out = false, discard = false;
  bool model_self = false;  // the playouts play the other side with the heuristic, not its own agent
  // What the playouts know: 0 draws consistent with the seat's view; 1 every
  // hand, the stock shuffled; 2 the true state, the stock's order too.
  int see = 0;
};

// The agents of a probe: the heuristic for side `side` and the other
// side's agent, made once.
struct Players {
  const Setup& setup;
  int side;
  HeuristicAgent mine{setup.mine};
  std::unique_ptr<Agent> other = make_agent(setup.vs);
  HeuristicAgent model{setup.mine};
  Agent& modelled() { return setup.model_self ? static_cast<Agent&>(model) : *other; }
};

// Deals won by `side` over the playouts from the view `v` after `a` (none:
// nullptr), with `first` playing the rest of the seat's turn: 1, 0.5 or 0 a
// playout, summed. The playouts start from draws consistent with the view,
// or from `truth` when given (a clairvoyant player: with the stock shuffled
// anew, or as it lies when the setup sees all).
double value(const View& v, const State* truth, const Action* a, Players& p, const HeuristicParams& first,
             uint64_t base) {
  HeuristicAgent f(first);
  double won = 0;
  for (int k = 0; k < p.setup.rollouts; ++k) {
    Rng q(base + static_cast<uint64_t>(k));
    State d = truth ? *truth : v.determinize(q);
    if (truth && p.setup.see == 1) {  // the stock shuffled (Fisher-Yates, as View::determinize does)
      uint8_t* stock = d.deck.data() + d.stock_pos;
      for (int i = d.stock_size() - 1; i > 0; --i)
        std::swap(stock[i], stock[q.below(static_cast<uint32_t>(i + 1))]);
    }
    if (a) apply(d, *a);
    const int turn = d.turns;
    play_deal(
        d,
        [&](int seat) -> Agent& {
          if (d.rules.team_of(seat) != p.side) return p.modelled();
          return seat == v.seat() && d.turns == turn ? static_cast<Agent&>(f) : p.mine;
        },
        q);
    won += probe::won(d, p.side);
  }
  return won;
}

HeuristicParams going(HeuristicParams p) {
  p.out_lead = -10000;
  return p;
}
HeuristicParams staying(HeuristicParams p) {
  p.out_lead = 10000;
  p.out_danger = 0;
  p.dump_hand = 0;
  return p;
}

// The decisions searched, by kind.
struct Searched {
  long draw = 0, discard = 0, out = 0;
  long total() const { return draw + discard + out; }
};

// The heuristic, with flat Monte Carlo at the decisions the setup names. At
// a discard with `out` on as well, the discards are searched after the
// turn's player (going out, staying in or the heuristic) has chosen to discard.
class Looker final : public Agent {
 public:
  Looker(Players& p, Rng& search, Searched& searched, const State* truth)
      : p_(p),
        search_(search),
        searched_(searched),
        truth_(truth),
        go_(going(p.setup.mine)),
        stay_(staying(p.setup.mine)) {
    looked_turn_.fill(-1);
  }

  Action act(const View& v, Rng& rng) override {
    const Setup& setup = p_.setup;
    const int seat = v.seat();
    if (setup.draw && v.phase() == Phase::kDraw) {
      const Action a = p_.mine.act(v, rng);
      v.legal_actions(legal_);
      Action take{}, draw{};
      bool has_take = false, has_draw = false;
      for (Action x : legal_) {
        if (x.type() == ActionType::kTakePile) {
          if (!has_take) take = x, has_take = true;
        } else if (!has_draw) {
          draw = x, has_draw = true;
        }
      }
      if (a.type() == ActionType::kTakePile) take = a;
      if (!has_take || !has_draw) return a;
      ++searched_.draw;
      const uint64_t base = search_.next();
      const double vt = value(v, truth_, &take, p_, setup.mine, base),
                   vd = value(v, truth_, &draw, p_, setup.mine, base);
      return vt == vd ? a : vt > vd ? take : draw;
    }
    if (v.phase() != Phase::kMeld) return p_.mine.act(v, rng);
    Agent* turn = &p_.mine;
    if (setup.out && v.melds(p_.side).canastas() >= v.rules().canastas_to_go_out) {
      // The turn's first meld-phase decision picks who plays the rest of it.
      if (looked_turn_[seat] != v.turns()) {
        looked_turn_[seat] = v.turns();
        ++searched_.out;
        const uint64_t base = search_.next();
        const double vn = value(v, truth_, nullptr, p_, setup.mine, base);
        const double vg = value(v, truth_, nullptr, p_, going(setup.mine), base);
        const double vs = value(v, truth_, nullptr, p_, staying(setup.mine), base);
        turn_[seat] = (vg > vn && vg >= vs) ? &go_ : (vs > vn) ? &stay_ : static_cast<Agent*>(&p_.mine);
      }
      turn = turn_[seat];
    }
    const Action a = turn->act(v, rng);
    if (!setup.discard || a.type() != ActionType::kDiscard) return a;
    v.legal_actions(legal_);
    int n = 0;
    for (Action x : legal_) n += x.type() == ActionType::kDiscard;
    if (n < 2) return a;
    ++searched_.discard;
    const uint64_t base = search_.next();
    Action best = a;
    double vb = value(v, truth_, &a, p_, setup.mine, base);
    for (Action x : legal_) {
      if (x.type() != ActionType::kDiscard || x == a) continue;
      const double vx = value(v, truth_, &x, p_, setup.mine, base);
      if (vx > vb) best = x, vb = vx;
    }
    return best;
  }

 private:
  Players& p_;
  Rng& search_;
  Searched& searched_;
  const State* truth_;  // the true state, for a clairvoyant player; else nullptr
  HeuristicAgent go_, stay_;
  std::array<int, kMaxSeats> looked_turn_{};
  std::array<Agent*, kMaxSeats> turn_{};
  ActionList legal_;
};

double run(const Setup& setup, int deals, uint64_t seed, bool look, Searched& searched) {
  const Rules rules = classic_rules();
  Rng search(seed + 1);
  Players p{setup, 0};
  double won = 0;
  for (int k = 0; k < deals; ++k) {
    auto [s, play, side] = probe::deal(rules, seed, k);
    p.side = side;
    Looker looker(p, search, searched, setup.see > 0 ? &s : nullptr);
    Agent& mine = look ? static_cast<Agent&>(looker) : p.mine;
    play_deal(
        s, [&, side = side](int seat) -> Agent& { return rules.team_of(seat) == side ? mine : *p.other; },
        play);
    won += probe::won(s, side);
  }
  return won;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "the share of deals the heuristic would win with flat Monte Carlo at the pile, the discard or the "
      "going out"};
  probe::Options o;
  o.deals = 6000;
  std::string at = "both";
  Setup setup;
  probe::add_options(app, o, "the heuristic, with its parameters");
  app.add_option("--at", at, "the decisions searched")
      ->check(CLI::IsMember({"draw", "out", "both", "discard", "all"}))
      ->capture_default_str();
  app.add_option("--rollouts", setup.rollouts, "playouts per option")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_flag("--model-self", setup.model_self,
               "the playouts play the other side with the heuristic (default: with its own agent)");
  std::string see;
  app.add_option("--clairvoyant", see,
                 "the playouts start from the true hands (hands: the stock shuffled anew; all: the stock's "
                 "order too), not from draws consistent with the seat's view: bounds no player can reach")
      ->check(CLI::IsMember({"hands", "all"}));
  if (int code = 0; !probe::parse(app, argc, argv, "probe_flat_mc", code)) return code;
  if (!probe::read_agents(o, "probe_flat_mc")) return 2;
  const AgentSpec& agent = o.agent;
  setup.vs = o.vs;
  const int deals = o.deals;
  const uint64_t seed = o.seed;
  if (!std::holds_alternative<HeuristicParams>(agent.params)) {
    std::fprintf(stderr, "probe_flat_mc: --agent must be the heuristic (its parameters drive the options)\n");
    return 2;
  }
  setup.mine = std::get<HeuristicParams>(agent.params);
  setup.see = see == "hands" ? 1 : see == "all" ? 2 : 0;
  setup.draw = at == "draw" || at == "both" || at == "all";
  setup.out = at == "out" || at == "both" || at == "all";
  setup.discard = at == "discard" || at == "all";
  Searched none, searched;
  const double base = run(setup, deals, seed, false, none);
  const double looked = run(setup, deals, seed, true, searched);
  const char* from[] = {"", ", from the true hands (the stock shuffled)",
                        ", from the true state (the stock too)"};
  std::printf("%s against %s, %d deals, seed %llu, flat Monte Carlo at %s, %d playouts an option%s\n",
              agent.to_string().c_str(), setup.vs.to_string().c_str(), deals,
              static_cast<unsigned long long>(seed), at.c_str(), setup.rollouts, from[setup.see]);
  std::printf("  deals won as it plays    %.2f%%\n", 100 * base / deals);
  std::printf(
      "  deals won with the search %.2f%% (%ld decisions searched: %ld at the pile, %ld discards, "
      "%ld turns with the canastas to go out)\n",
      100 * looked / deals, searched.total(), searched.draw, searched.discard, searched.out);
  return 0;
}
