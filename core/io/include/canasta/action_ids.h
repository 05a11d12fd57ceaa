// A dense id space for the actions of one rules profile, for learning code
// (a policy head, an action mask): ids 0 .. size()-1, in the engine's
// canonical order, so that a legal-action list is ascending in ids too.
// The layout is documented in sim/doc/python.md ("Action ids").
#pragma once

#include <cstddef>
#include <vector>

#include "canasta/rules.h"
#include "canasta/types.h"

namespace canasta {

class ActionIds {
 public:
  explicit ActionIds(const Rules& rules);
  // How many ids the profile has: every action the engine can list in it
  // has one (1,144 in classic, 1,708 in spanish, 2,188 in spanish-6p3).
  int size() const { return static_cast<int>(actions_.size()); }
  // The action's id, or -1 when the action has none in this profile.
  int id(Action a) const;
  // The action of an id in [0, size()).
  Action action(int id) const { return actions_[static_cast<std::size_t>(id)]; }

 private:
  int wilds_;     // most wild cards one meld action can hold: the profile's max_wilds
  int naturals_;  // most naturals of a rank: 4 a deck
  int tri_;       // (jokers, twos) pairs with at most wilds_ cards together
  int take_ = 0, pass_ = 0, wild_meld_ = 0, meld_ = 0, clean_ = 0, discard_ = 0;
  bool wild_melds_, cleanings_;
  std::vector<Action> actions_;
};

}  // namespace canasta
