// A person at the table: `canasta play --human SEAT`. The seat's decisions
// are read from a stream (the terminal), with the legal actions numbered,
// `hint` (what an agent would play, and for ISMCTS its visit counts) and
// `undo` (of one's own decisions since the last card drawn).
#pragma once

#include <deque>
#include <iosfwd>
#include <memory>
#include <vector>

#include "canasta/agent.h"

namespace canasta::cli {

class HumanSeat final : public Agent {
 public:
  // Thrown when the input ends or says `quit`.
  struct Quit {};

  // `table` is the game's state: the decisions of a turn are tried on a copy
  // of it, so that they can be taken back until they show a hidden card or
  // hand the play to another seat.
  HumanSeat(const State& table, int seat, const AgentSpec& hint, std::istream& in, bool color);
  Action act(const View& view, Rng& rng) override;

 private:
  const State& table_;
  int seat_;
  std::unique_ptr<Agent> hint_;
  std::istream& in_;
  bool color_;
  bool interactive_;           // the input is a terminal (else it is echoed)
  std::deque<Action> queued_;  // decisions made, to be played in order
  uint64_t hints_ = 0;
};

}  // namespace canasta::cli
