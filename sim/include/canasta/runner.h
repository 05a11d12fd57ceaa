// The deal loop and the game loop: every deal and every game the project
// plays (the simulator's runs, `canasta play`, the signature test, the
// benchmarks) goes through these two functions.
#pragma once

#include "canasta/engine.h"
#include "canasta/game.h"
#include "canasta/rng.h"
#include "canasta/view.h"

namespace canasta {

// What a loop reports as it plays; every hook is optional. An observer
// derives from this and hides the hooks it needs.
struct PlayObserver {
  // A deal of game `g` has started in `s` (the game loop only).
  void deal_started(const Game& /*g*/, const State& /*s*/) {}
  // `seat` is about to play `a` in `s`.
  void before(const State& /*s*/, int /*seat*/, Action /*a*/) {}
  // ... and has played it; `s` is the state after.
  void after(const State& /*s*/) {}
  // The deal in `s` is over and `g` has counted it (the game loop only).
  void deal_finished(const Game& /*g*/, const State& /*s*/) {}
};

// Plays the deal started in `s` to its end. `agent_of(seat)` is the agent of
// the seat (any type with `Action act(const View&, Rng&)`); all draw on
// `rng`. Returns the number of actions played.
template <class AgentOf, class Observer = PlayObserver>
int play_deal(State& s, const AgentOf& agent_of, Rng& rng, Observer&& observer = {}) {
  int actions = 0;
  while (!s.over()) {
    const int seat = s.actor();
    const Action a = agent_of(seat).act(View(s, seat), rng);
    observer.before(s, seat, a);
    apply(s, a);
    observer.after(s);
    ++actions;
  }
  return actions;
}

// Plays game `g` to its end from its next deal, in `s`: each deal is started,
// played by play_deal with the decisions drawn from the stream
// (g.seed, play_stream, deal index), and counted by finish_deal.
template <class AgentOf, class Observer = PlayObserver>
void play_game(Game& g, State& s, const AgentOf& agent_of, Stream play_stream, Observer&& observer = {}) {
  while (g.end == GameEnd::kPlaying) {
    start_next_deal(g, s);
    observer.deal_started(g, s);
    Rng rng(derive_seed(g.seed, play_stream, static_cast<uint64_t>(g.deal)));
    play_deal(s, agent_of, rng, observer);
    finish_deal(g, s);
    observer.deal_finished(g, s);
  }
}

}  // namespace canasta
