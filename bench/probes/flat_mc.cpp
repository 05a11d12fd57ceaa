// How much the heuristic would gain from looking ahead at two of its
// decisions: plays deals of a heuristic against another agent twice, on the
// same deck orders, once as the heuristic plays and once with flat Monte
// Carlo at the decisions asked for:
//   draw: take the pile or draw, whenever both are legal;
//   out:  at the start of each meld phase once the side has its canastas,
//         the rest of the turn as the heuristic plays it, going out whenever
//         it can, or staying in (no going out, no dumping the hand).
// Each option is scored by the deals won in `--rollouts` playouts from
// states drawn consistent with the seat's view (View::determinize), the same
// draws for every option; the playouts play the heuristic for its side and
// the other side's own agent for the other. The gain bounds what a rule for
// these decisions could add.
//
//   probe_flat_mc --agent 'heuristic:out_lead=0' --at both --deals 6000
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/heuristic.h"
#include "probe.h"

using namespace canasta;

namespace {

struct Setup {
  HeuristicParams mine;
  AgentSpec vs;
  int rollouts = 64;
  bool draw = false, out = false;
};

// The deal played out from `s`: the heuristic `first` for `seat`'s turn
// `turn`, `mine` for the rest of side `side`, the other agent for the rest.
// Returns 1, 0.5 or 0: the deal won, tied or lost by `side`.
double playout(State s, int side, const Setup& setup, const HeuristicParams& first, int seat, int turn,
               Rng& rng) {
  HeuristicAgent h(setup.mine), f(first);
  const auto other = make_agent(setup.vs);
  while (!s.over()) {
    const int actor = s.actor();
    const View v(s, actor);
    const bool own = s.rules.team_of(actor) == side;
    const Action a = !own                                 ? other->act(v, rng)
                     : (actor == seat && s.turns == turn) ? f.act(v, rng)
                                                          : h.act(v, rng);
    apply(s, a);
  }
  return probe::won(s, side);
}

// Deals won by side `side` over the playouts after `a` (or, when `a` is
// empty, after nothing, the turn played by `first`).
double value(const View& v, const Action* a, int side, const Setup& setup, const HeuristicParams& first,
             uint64_t base) {
  double won = 0;
  for (int k = 0; k < setup.rollouts; ++k) {
    Rng q(base + static_cast<uint64_t>(k));
    State d = v.determinize(q);
    if (a) apply(d, *a);
    won += playout(d, side, setup, first, v.seat(), d.turns, q);
  }
  return won;
}

double run(const Setup& setup, int deals, uint64_t seed, bool look, long& decisions) {
  const Rules rules = classic_rules();
  HeuristicAgent h(setup.mine);
  const auto other = make_agent(setup.vs);
  HeuristicParams go = setup.mine, stay = setup.mine;
  go.out_lead = -10000;
  stay.out_lead = 10000;
  stay.out_danger = 0;
  stay.dump_hand = 0;
  Rng decks(seed), search(seed + 1);
  ActionList legal;
  double won = 0;
  for (int d = 0; d < deals; ++d) {
    auto [s, play, side] = probe::deal(rules, decks, seed, d);
    int looked_turn = -1;
    while (!s.over()) {
      const int seat = s.actor();
      const View v(s, seat);
      if (rules.team_of(seat) != side) {
        apply(s, other->act(v, play));
        continue;
      }
      Action a = h.act(v, play);
      if (look && setup.draw && s.phase == Phase::kDraw) {
        v.legal_actions(legal);
        Action take{}, draw{};
        bool has_take = false, has_draw = false;
        for (Action x : legal) {
          if (x.type() == ActionType::kTakePile) {
            if (!has_take) take = x, has_take = true;
          } else if (!has_draw) {
            draw = x, has_draw = true;
          }
        }
        if (a.type() == ActionType::kTakePile) take = a;
        if (has_take && has_draw) {
          ++decisions;
          const uint64_t base = search.next();
          const double vt = value(v, &take, side, setup, setup.mine, base);
          const double vd = value(v, &draw, side, setup, setup.mine, base);
          if (vt != vd) a = vt > vd ? take : draw;
        }
      }
      if (look && setup.out && s.phase == Phase::kMeld && s.turns != looked_turn &&
          s.melds[side].canastas() >= rules.canastas_to_go_out) {
        looked_turn = s.turns;
        ++decisions;
        const uint64_t base = search.next();
        const double vn = value(v, nullptr, side, setup, setup.mine, base);
        const double vg = value(v, nullptr, side, setup, go, base);
        const double vs = value(v, nullptr, side, setup, stay, base);
        const HeuristicParams& pick = (vg > vn && vg >= vs) ? go : (vs > vn) ? stay : setup.mine;
        HeuristicAgent turn(pick);
        while (!s.over() && s.actor() == seat && s.phase == Phase::kMeld)
          apply(s, turn.act(View(s, seat), play));
        continue;
      }
      apply(s, a);
    }
    won += probe::won(s, side);
  }
  return won;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "the share of deals the heuristic would win with flat Monte Carlo at the pile or the going out"};
  std::string agent_text = "heuristic", vs_text = "random", at = "both";
  int deals = 6000;
  Setup setup;
  uint64_t seed = 1;
  app.add_option("--agent", agent_text, "the heuristic, with its parameters")->capture_default_str();
  app.add_option("--vs", vs_text, "the other side's agent")->capture_default_str();
  app.add_option("--at", at, "the decisions searched")
      ->check(CLI::IsMember({"draw", "out", "both"}))
      ->capture_default_str();
  app.add_option("--deals", deals, "deals of each run (one table side each, alternating)")
      ->check(CLI::Range(1, 100000000))
      ->capture_default_str();
  app.add_option("--rollouts", setup.rollouts, "playouts per option")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  app.add_option("--seed", seed, "seed of the deck orders and of the searches")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  AgentSpec agent;
  std::string error;
  if (!parse_agent_spec(agent_text, agent, error) || !parse_agent_spec(vs_text, setup.vs, error)) {
    std::fprintf(stderr, "probe_flat_mc: %s\n", error.c_str());
    return 2;
  }
  if (!std::holds_alternative<HeuristicParams>(agent.params)) {
    std::fprintf(stderr, "probe_flat_mc: --agent must be the heuristic (its parameters drive the options)\n");
    return 2;
  }
  setup.mine = std::get<HeuristicParams>(agent.params);
  setup.draw = at != "out";
  setup.out = at != "draw";
  long none = 0, decisions = 0;
  const double base = run(setup, deals, seed, false, none);
  const double looked = run(setup, deals, seed, true, decisions);
  std::printf("%s against %s, %d deals, seed %llu, flat Monte Carlo at %s, %d playouts an option\n",
              agent.to_string().c_str(), setup.vs.to_string().c_str(), deals,
              static_cast<unsigned long long>(seed), at.c_str(), setup.rollouts);
  std::printf("  deals won as it plays    %.2f%%\n", 100 * base / deals);
  std::printf("  deals won with the search %.2f%% (%ld decisions searched)\n", 100 * looked / deals,
              decisions);
  return 0;
}
