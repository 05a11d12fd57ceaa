// Where an agent's deals are lost: plays deals of an agent against another
// and sorts them by how they ended (the agent's side went out, the other
// side did, the stock ran out), by who won, and by which side completed a
// canasta first. For the deals in which the agent's side completed one, it
// counts the meld phases its players began with that canasta on the table
// before the deal ended (the turns in which a player of the side could have
// raced to go out), the cards they held then, and how many of those phases
// began with the heuristic's estimate of the margin on going out
// (out_estimate) below 0, where a heuristic playing for the deal stays in
// unless its melds of the turn raise the estimate.
//
//   probe_lost_deals --agent 'heuristic:out_lead=0' --deals 20000
#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/heuristic.h"
#include "canasta/runner.h"
#include "probe.h"

using namespace canasta;

namespace {

// How a deal ended, from the agent's side.
enum Ended { kAgentOut, kOtherOut, kNoOut, kEndedNb };
constexpr const char* kEndedNames[kEndedNb] = {"agent's side went out", "other side went out",
                                               "nobody went out"};
// Which side completed a canasta first.
enum First { kOnlyAgent, kAgentFirst, kOtherFirst, kOnlyOther, kNeither, kFirstNb };
constexpr const char* kFirstNames[kFirstNb] = {"only agent", "agent first", "other first", "only other",
                                               "neither"};

// The deals of one row (won or lost, and how they ended).
struct Row {
  long deals = 0;
  std::array<long, kFirstNb> first{};
  // Over the deals in which the agent's side completed a canasta: the turn it
  // did, the meld phases its players began with it, their cards then, and
  // the phases whose estimate was below 0.
  long with_canasta = 0, canasta_turn = 0, phases = 0, cards = 0, behind = 0;
};

// Follows one deal: the turn at which each side completed its first canasta,
// and the agent's meld phases after its side's.
class Watch : public PlayObserver {
 public:
  explicit Watch(int side) : side_(side) {}
  void before(const State& s, int seat, Action /*a*/) {
    if (s.rules.team_of(seat) != side_ || s.phase != Phase::kMeld || s.turns == last_turn_) return;
    last_turn_ = s.turns;  // the first action of the meld phase
    if (first[side_] < 0) return;
    const View v(s, seat);
    ++phases;
    cards += v.hand_size(seat);
    if (out_estimate(v) < 0) ++behind;
  }
  void after(const State& s) {
    for (int t = 0; t < 2; ++t)
      if (first[t] < 0 && s.melds[t].canastas() > 0) first[t] = s.turns;
  }
  std::array<int, 2> first{-1, -1};
  long phases = 0, cards = 0, behind = 0;

 private:
  int side_;
  int last_turn_ = -1;
};

First first_of(const Watch& w, int side) {
  const int a = w.first[side], o = w.first[1 - side];
  if (a < 0) return o < 0 ? kNeither : kOnlyOther;
  if (o < 0) return kOnlyAgent;
  return a <= o ? kAgentFirst : kOtherFirst;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "where an agent's deals are lost: how they ended, who completed a canasta first, how long it raced"};
  probe::Options o;
  o.deals = 20000;
  probe::add_options(app, o, "the agent whose deals are sorted");
  if (int code = 0; !probe::parse(app, argc, argv, "probe_lost_deals", code)) return code;
  if (!probe::read_agents(o, "probe_lost_deals")) return 2;
  const Rules rules = classic_rules();
  const auto a = make_agent(o.agent), b = make_agent(o.vs);
  std::array<std::array<Row, kEndedNb>, 2> rows{};  // [won][ended]
  double won = 0;
  for (int k = 0; k < o.deals; ++k) {
    auto [s, play, side] = probe::deal(rules, o.seed, k);
    Watch watch(side);
    play_deal(
        s, [&, side = side](int seat) -> Agent& { return rules.team_of(seat) == side ? *a : *b; }, play,
        watch);
    const double w = probe::won(s, side);
    won += w;
    const Ended ended = s.out_seat < 0 ? kNoOut : rules.team_of(s.out_seat) == side ? kAgentOut : kOtherOut;
    Row& r = rows[w > 0.5][ended];
    ++r.deals;
    ++r.first[first_of(watch, side)];
    if (watch.first[side] >= 0) {
      ++r.with_canasta;
      r.canasta_turn += watch.first[side];
      r.phases += watch.phases;
      r.cards += watch.cards;
      r.behind += watch.behind;
    }
  }
  std::printf("%s against %s, %d deals, seed %llu: %.2f%% won\n", o.agent.to_string().c_str(),
              o.vs.to_string().c_str(), o.deals, static_cast<unsigned long long>(o.seed),
              100 * won / o.deals);
  std::printf(
      "  deals by result, end and first canasta; then, where the agent's side completed one, a deal:\n");
  std::printf("  the turn it did, its meld phases after it, the cards held then, and those phases behind\n");
  std::printf("    %-6s %-22s %6s", "", "", "deals");
  for (const char* f : kFirstNames) std::printf(" %11s", f);
  std::printf(" %7s %7s %6s %7s\n", "turn", "phases", "cards", "behind");
  for (int w = 0; w < 2; ++w)
    for (int e = 0; e < kEndedNb; ++e) {
      const Row& r = rows[w][e];
      if (r.deals == 0) continue;
      std::printf("    %-6s %-22s %6ld", w ? "won" : "lost", kEndedNames[e], r.deals);
      for (long n : r.first) std::printf(" %11ld", n);
      if (r.with_canasta == 0) {  // nothing to average
        std::printf(" %7s %7s %6s %7s\n", "-", "-", "-", "-");
        continue;
      }
      const auto per = [&](long x) { return static_cast<double>(x) / static_cast<double>(r.with_canasta); };
      std::printf(" %7.1f %7.2f %6.1f %7.2f\n", per(r.canasta_turn), per(r.phases),
                  static_cast<double>(r.cards) / static_cast<double>(std::max(1L, r.phases)), per(r.behind));
    }
  std::printf(
      "    (lost: lost or tied; turn, phases, behind: a deal, over the row's deals in which the agent's "
      "side\n"
      "    completed a canasta; cards: held at the start of those phases, a phase; a turn is any "
      "player's)\n");
  return 0;
}
