// canasta play: one game, agents per side, optionally recorded.
#include <iostream>

#include "../cli.h"
#include "canasta/profile.h"
#include "canasta/record.h"
#include "canasta/runner.h"

namespace canasta::cli {

namespace {

// Keeps every deal's record as a JSON line.
struct Recorder : PlayObserver {
  DealRecord rec;
  std::vector<std::string> agents;
  std::string lines;
  int deals = 0;
  bool keep = false;

  void deal_started(const Game& g, const State& s) {
    if (!keep) return;
    begin_record(rec, g, s);
    rec.agents = agents;
  }
  void before(const State&, int seat, Action a) {
    if (keep) rec.actions.emplace_back(seat, a);
  }
  void deal_finished(const Game& g, const State& s) {
    ++deals;
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
    AgentSpec sides[2];
  };
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("play", "play one game (random play by default) and optionally record it");
  add_seed_option(*sub, o->seed, "game seed");
  sub->add_option("--record,-r", o->record, "write the game record (JSON Lines) to this file");
  add_profile_option(*sub, o->rules);
  add_agent_option(*sub, "--side0", o->sides[0], "agent spec of side 0 (seats 0 and 2)");
  add_agent_option(*sub, "--side1", o->sides[1], "agent spec of side 1 (seats 1 and 3)");
  sub->callback([o, &exit_code] {
    const Rules& rules = o->rules;
    std::vector<std::unique_ptr<Agent>> agents;
    Recorder recorder;
    recorder.keep = !o->record.empty();
    for (int seat = 0; seat < rules.players; ++seat) {
      const AgentSpec& spec = o->sides[rules.team_of(seat) % 2];
      agents.push_back(make_agent(spec));
      recorder.agents.push_back(spec.to_string());
    }
    Game g = new_game(rules, o->seed);
    State s;
    play_game(
        g, s, [&](int seat) -> Agent& { return *agents[static_cast<size_t>(seat)]; }, Stream::kPlayGame,
        recorder);
    if (recorder.keep) write_atomically(o->record, recorder.lines);
    std::cout << "game seed " << o->seed << " (" << profile_spec(rules) << "): " << recorder.deals
              << " deals, totals";
    for (int t = 0; t < rules.teams; ++t) std::cout << " " << g.totals[t];
    std::cout << ", " << game_end_name(g.end);
    if (g.end == GameEnd::kWon) std::cout << " by side " << g.winner;
    std::cout << "\n";
    if (recorder.keep) std::cout << "record: " << o->record << "\n";
    exit_code = 0;
  });
}

}  // namespace canasta::cli
