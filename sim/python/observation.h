// What a seat knows, as numbers and as text, for learning code (the Python
// module's observers, in the kinds of OpenSpiel's IIGObservationType): the
// public facts, the seat's own cards or every seat's, now or with perfect
// recall of the deal. The layouts are documented in sim/doc/python.md.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/action_ids.h"
#include "canasta/view.h"

namespace canasta {

// Whose private cards an observation shows (OpenSpiel's PrivateInfoType, in its order).
enum class PrivateInfo : uint8_t {
  kNone,          // no hand
  kSinglePlayer,  // the observing seat's own hand
  kAllPlayers,    // every seat's hand (a perfect-information view, for baselines)
};

// What an observer shows (OpenSpiel's IIGObservationType). The default is
// the observation a seat has: public facts and its own hand, now.
struct ObsType {
  bool perfect_recall = false;  // the whole deal so far, not only the position now
  bool public_info = true;      // what every seat sees
  PrivateInfo private_info = PrivateInfo::kSinglePlayer;
};

// One step of a deal, as every seat saw it: who played what, the red threes
// the actor had exposed after it, and (seen by the actor alone) its hand after it.
struct Step {
  Action action;
  int8_t seat;
  uint8_t red3_after;
  CardSet hand_after;
};

// Every seat's hand and exposed red threes when the deal began (after the
// deal's own exposures and replacements).
struct DealStart {
  std::array<CardSet, kMaxSeats> hand{};
  std::array<uint8_t, kMaxSeats> red3{};
};

// A deal as an observer reads it: the position now, how it began, and every step since.
struct DealSeen {
  const State& now;
  const DealStart& start;
  std::span<const Step> steps;
};

// The most actions a deal can last: every turn begins with a draw (at most
// one a card of the deck) or a take of the pile (at most one a card, since
// its top card is melded for good), holds at most an ask, an answer and a
// discard, and every meld or cleaning puts a card of the hand on the table.
inline int max_game_length(const Rules& r) { return 9 * r.deck_cards(); }

// A named part of a tensor, for an observer's dict: `shape` numbers from `offset`.
struct TensorPiece {
  std::string_view name;
  int offset;
  std::vector<int> shape;
};

// The parts of the tensor of an observer of kind `type`, in order, and its size.
std::vector<TensorPiece> observer_pieces(const Rules& r, ObsType type);
int observer_size(const Rules& r, ObsType type);
// What `seat` observes of the deal, as numbers (observer_size(r, type) of
// them) and as text. Only `type`'s information is read.
void observer_tensor(const DealSeen& deal, int seat, ObsType type, float* out);
std::string observer_string(const DealSeen& deal, int seat, ObsType type);

// The default observation of a View alone (public facts and the seat's hand, now).
constexpr int kObservationSize = 405;
void observation_tensor(const View& v, float* out);
std::string observation_string(const View& v);
// The default information state's size: the observation, the seat's dealt
// hand and everyone's dealt red threes, one row of kStepSize per step.
constexpr int kStepSize = 51;
inline int information_state_size(const Rules& r) {
  return observer_size(r, ObsType{.perfect_recall = true});
}

}  // namespace canasta
