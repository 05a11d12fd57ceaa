// What a seat knows, as numbers and as text, for learning code (the Python
// module's observation and information state). Read through the seat's
// View and the steps it has seen only. The layouts are documented in
// sim/doc/python.md.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/action_ids.h"
#include "canasta/view.h"

namespace canasta {

// The observation: what the seat sees now.
constexpr int kObservationSize = 405;
void observation_tensor(const View& v, float* out);
std::string observation_string(const View& v);

// A named part of a tensor, for an observer's dict: `shape` numbers from `offset`.
struct TensorPiece {
  std::string_view name;
  int offset;
  std::vector<int> shape;
};
const std::vector<TensorPiece>& observation_pieces();

// One step of a deal, as every seat saw it: who played what, the red threes
// the actor had exposed after it, and (seen by the actor alone) its hand after it.
struct Step {
  Action action;
  int8_t seat;
  uint8_t red3_after;
  CardSet hand_after;
};

// The most actions a deal can last: every turn begins with a draw (at most
// one a card of the deck) or a take of the pile (at most one a card, since
// its top card is melded for good), holds at most an ask, an answer and a
// discard, and every meld or cleaning puts a card of the hand on the table.
inline int max_game_length(const Rules& r) { return 9 * r.deck_cards(); }

// The information state, with perfect recall: the observation, the seat's
// hand when the deal began and the red threes each seat had exposed then,
// and every step since, the seat's hand after each of its own.
constexpr int kDealtSize = kKindNb + kMaxSeats;
constexpr int kStepSize = 51;
inline int information_state_size(const Rules& r) {
  return kObservationSize + kDealtSize + max_game_length(r) * kStepSize;
}
struct DealStart {
  std::array<CardSet, kMaxSeats> hand{};
  std::array<uint8_t, kMaxSeats> red3{};
};
void information_state_tensor(const View& v, const DealStart& start, std::span<const Step> steps, float* out);
std::string information_state_string(const View& v, const DealStart& start, std::span<const Step> steps);
std::vector<TensorPiece> information_state_pieces(const Rules& r);

}  // namespace canasta
