// canasta play: one game, agents per side (or a person at one seat),
// optionally recorded.
#include <fmt/format.h>

#include <iostream>

#include "../cli.h"
#include "../human.h"
#include "../table.h"
#include "canasta/profile.h"
#include "canasta/record.h"
#include "canasta/runner.h"

namespace canasta::cli {

namespace {

// Keeps every finished deal's record as a JSON line; with a person at the
// table, tells them what the other seats play and how each deal ends.
struct Recorder : PlayObserver {
  DealRecord rec;
  std::vector<std::string> agents;
  std::string lines;
  int deals = 0;
  bool keep = false;
  int human = -1;

  void deal_started(const Game& g, const State& s) {
    if (human >= 0)
      fmt::print("\n== deal {} of the game, dealer {}, seat {} plays first; totals {}\n", g.deal, g.dealer,
                 (g.dealer + 1) % s.rules.players,
                 fmt::join(g.totals.begin(), g.totals.begin() + s.rules.teams, " "));
    if (!keep) return;
    begin_record(rec, g, s);
    rec.agents = agents;
  }
  void before(const State&, int seat, Action a) {
    if (human >= 0 && seat != human) fmt::print("  {}\n", action_line(seat, a));
    if (keep) rec.actions.emplace_back(seat, a);
  }
  void deal_finished(const Game& g, const State& s) {
    ++deals;
    if (human >= 0) fmt::print("\n{}", score_text(s));
    if (!keep) return;
    end_record(rec, s, g);
    append_json_line(lines, rec);
  }
};

}  // namespace

void add_play(CLI::App& app, int& exit_code) {
  struct Options {
    Rules rules;
    uint64_t seed = 1;
    std::string record;
    AgentSpec sides[kMaxTeams];
    int human = -1;
    AgentSpec hint;
  };
  auto o = std::make_shared<Options>();
  o->hint.params = IsmctsParams{};  // ismcts:iters=2000, without reading a spec
  std::string unused;
  set_agent_param(o->hint, "iters", "2000", unused);
  auto* sub = app.add_subcommand("play", "play one game (random play by default) and optionally record it");
  add_seed_option(*sub, o->seed, "game seed");
  sub->add_option("--record,-r", o->record, "write the game record (JSON Lines) to this file")
      ->check(named());
  add_profile_option(*sub, o->rules);
  add_agent_option(*sub, "--side0", o->sides[0], "agent spec of side 0 (seats s with s mod sides = 0)");
  add_agent_option(*sub, "--side1", o->sides[1], "agent spec of side 1 (also side 2 without --side2)");
  auto* side2 =
      add_agent_option(*sub, "--side2", o->sides[2], "agent spec of side 2 at a table of three sides");
  sub->add_option("--human", o->human,
                  "play this seat yourself, in the terminal (the other seats play their side's agent)")
      ->check(CLI::Range(0, kMaxSeats - 1));
  add_agent_option(*sub, "--hint", o->hint, "the agent that answers `hint` at the human seat");
  sub->callback([o, side2, &exit_code] {
    const Rules& rules = o->rules;
    if (side2->count() > 0 && rules.teams != 3)
      throw InputError{"--side2 needs a table of three sides (spanish-3p, spanish-6p3)"};
    if (side2->count() == 0) o->sides[2] = o->sides[1];
    if (o->human >= rules.players)
      throw InputError{fmt::format("--human {}: a game of {} players has seats 0 to {}", o->human,
                                   rules.players, rules.players - 1)};
    check_distinct_files({{"--record", o->record}},
                         files_read({&o->sides[0], &o->sides[1], &o->sides[2], &o->hint}));
    Game g = new_game(rules, o->seed);
    State s;
    std::vector<std::unique_ptr<Agent>> agents;
    Recorder recorder;
    recorder.keep = !o->record.empty();
    recorder.human = o->human;
    for (int seat = 0; seat < rules.players; ++seat) {
      const AgentSpec& spec = o->sides[rules.team_of(seat)];
      if (seat == o->human) {
        agents.push_back(std::make_unique<HumanSeat>(s, seat, o->hint, std::cin, color_terminal()));
        recorder.agents.push_back("human");
      } else {
        agents.push_back(make_agent(spec));
        recorder.agents.push_back(spec.to_string());
      }
    }
    if (o->human >= 0)
      fmt::print("canasta: you play seat {} (side {}), {}; `help` lists the commands\n", o->human,
                 rules.team_of(o->human), profile_spec(rules));
    bool quit = false;
    try {
      play_game(
          g, s, [&](int seat) -> Agent& { return *agents[static_cast<size_t>(seat)]; }, Stream::kPlayGame,
          recorder);
    } catch (const HumanSeat::Quit&) {
      quit = true;
    }
    if (recorder.keep) write_atomically(o->record, recorder.lines);
    if (quit) {
      fmt::print("\nquit: {} deal{} finished{}\n", recorder.deals, recorder.deals == 1 ? "" : "s",
                 recorder.keep ? ", recorded in " + printable(o->record, 400) : "");
      exit_code = 0;
      return;
    }
    std::cout << (o->human >= 0 ? "\n" : "") << "game seed " << o->seed << " (" << profile_spec(rules)
              << "): " << recorder.deals << " deals, totals";
    for (int t = 0; t < rules.teams; ++t) std::cout << " " << g.totals[t];
    std::cout << ", " << game_end_name(g.end);
    if (g.end == GameEnd::kWon) std::cout << " by side " << g.winner;
    std::cout << "\n";
    if (recorder.keep) std::cout << "record: " << printable(o->record, 400) << "\n";
    exit_code = 0;
  });
}

}  // namespace canasta::cli
