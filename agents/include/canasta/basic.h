// The basic agent: the first rule-based player, kept unchanged so that
// results made with it can be reproduced (it was called `heuristic` before
// the stronger player of heuristic.h took that name). It melds what it can
// (holding back wild cards), takes the pile when it is big enough, discards
// what is safest by the public history, and freezes the pile with a wild
// card when it is big or the next opponent is close to going out.
#pragma once

#include <array>
#include <cstdint>

#include "canasta/agent_base.h"

namespace canasta {

// Its parameters, one line each: name, type, default, range, meaning. The
// line declares the field below, and `canasta agents`, spec reading and
// writing follow from it.
#define CANASTA_BASIC_PARAMS(X)                                                                            \
  X(take_min, int, 3, 0, 100,                                                                              \
    "take the pile (when not compelled) only if it holds at least this many cards")                        \
  X(freeze, int, 0, 0, 100, "discard a wild card to freeze a pile of at least this many cards (0: never)") \
  X(keep_wilds, int, 1, 0, 12, "wild cards held back from melds until the player goes out")                \
  X(go_out, bool, true, 0, 1,                                                                              \
    "1: go out as soon as the rules allow (and answer yes); 0: stay in while possible")                    \
  X(meld_min, int, 2, 2, 8,                                                                                \
    "naturals of a rank held before starting a new meld of it"                                             \
    " (higher keeps pairs and triples to take the pile)")                                                  \
  X(freeze_hand, int, 0, 0, 30,                                                                            \
    "also freeze the pile when the next opponent holds at most this many cards (0: never)")                \
  X(freeze_unopened, bool, true, 0, 1,                                                                     \
    "0: never freeze while the next opponent's side has not opened (the pile is frozen for them)")         \
  X(out_margin, int, -10000, -10000, 10000,                                                                \
    "go out, or answer yes, only when the side leads the table score of the deal by this much")            \
  X(ask, bool, false, 0, 1, "1: ask the partner before going out (when the rules allow)")                  \
  X(out_cards, int, 0, 0, 100,                                                                             \
    "go out only when the opponents hold at least this many cards together (caught with them)")

struct BasicParams {
#define CANASTA_FIELD(name, type, value, lo, hi, help) type name = value;
  CANASTA_BASIC_PARAMS(CANASTA_FIELD)
#undef CANASTA_FIELD
  friend bool operator==(const BasicParams&, const BasicParams&) = default;
};

class BasicAgent final : public Agent {
 public:
  explicit BasicAgent(const BasicParams& p = {}) : p_(p) {}
  Action act(const View& view, Rng& rng) override;

 private:
  // The position of the first legal action.
  int first_legal(const View& view) const;

  BasicParams p_;
  ActionList legal_;
  DeferredChecks later_;                                 // legal_'s actions still to check (engine.h)
  std::array<uint64_t, ActionList::kCapacity> waiting_;  // the unchecked melds (best_first.h)
};

}  // namespace canasta
