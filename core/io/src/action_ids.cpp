#include "canasta/action_ids.h"

#include <algorithm>

namespace canasta {

namespace {

constexpr int kWildMeldMost = kCanastaSize;  // a wild meld holds at most seven cards
constexpr int kRanks = kLastNatural - kFirstNatural + 1;
constexpr int kCleanDests = kRanks + 1;  // the wild meld, then 4 to A
constexpr int kCleanSlots = kCleanDests * 4;

// (jokers, twos) with at most w cards together, in lexicographic order.
constexpr int pairs(int w) { return (w + 1) * (w + 2) / 2; }
constexpr int pair_index(int j, int t, int w) { return j * (w + 1) - j * (j - 1) / 2 + t; }

// The ways to take the pile, in canonical order: with a natural pair, onto
// the side's meld, with a natural and a joker, with a natural and a two.
constexpr int take_slot(int n, int j, int t) {
  if (j == 0 && t == 0) return n == 2 ? 0 : n == 0 ? 1 : -1;
  if (n != 1 || j + t != 1) return -1;
  return j ? 2 : 3;
}

}  // namespace

ActionIds::ActionIds(const Rules& rules)
    : wilds_(std::min<int>(rules.max_wilds, 7)),
      naturals_(4 * rules.decks),
      tri_(pairs(wilds_)),
      wild_melds_(rules.wild_melds),
      cleanings_(rules.closed_canastas) {
  const auto push = [&](Action a) { actions_.push_back(a); };
  push(Action::make(ActionType::kDraw));
  take_ = size();
  for (int k = kFirstNatural; k <= kLastNatural; ++k) {
    push(Action::make(ActionType::kTakePile, k, 2));
    push(Action::make(ActionType::kTakePile, k, 0));
    push(Action::make(ActionType::kTakePile, k, 1, 1, 0));
    push(Action::make(ActionType::kTakePile, k, 1, 0, 1));
  }
  pass_ = size();
  for (ActionType t : {ActionType::kPass, ActionType::kAsk, ActionType::kYes, ActionType::kNo})
    push(Action::make(t));
  wild_meld_ = size();
  if (wild_melds_)
    for (int j = 0; j <= kWildMeldMost; ++j)
      for (int t = 0; j + t <= kWildMeldMost; ++t) push(Action::make(ActionType::kMeld, kTwo, 0, j, t));
  meld_ = size();
  for (int k = kBlack3; k <= kLastNatural; ++k)
    for (int n = 0; n <= naturals_; ++n)
      for (int j = 0; j <= wilds_; ++j)
        for (int t = 0; j + t <= wilds_; ++t) push(Action::make(ActionType::kMeld, k, n, j, t));
  clean_ = size();
  if (cleanings_)
    for (int k = kFirstNatural; k <= kLastNatural; ++k)
      for (int d = 0; d < kCleanDests; ++d)
        for (bool pair : {false, true})
          for (bool joker : {false, true})
            push(Action::clean(k, joker, d == 0 ? kTwo : kFirstNatural + d - 1, pair));
  discard_ = size();
  for (int k = 0; k < kKindNb; ++k) push(Action::make(ActionType::kDiscard, k));
}

int ActionIds::id(Action a) const {
  const int k = a.kind(), n = a.naturals(), j = a.jokers(), t = a.twos();
  int id = -1;
  switch (a.type()) {
    case ActionType::kDraw:
      id = 0;
      break;
    case ActionType::kTakePile:
      if (is_natural(k) && take_slot(n, j, t) >= 0) id = take_ + 4 * (k - kFirstNatural) + take_slot(n, j, t);
      break;
    case ActionType::kPass:
      id = pass_;
      break;
    case ActionType::kAsk:
      id = pass_ + 1;
      break;
    case ActionType::kYes:
      id = pass_ + 2;
      break;
    case ActionType::kNo:
      id = pass_ + 3;
      break;
    case ActionType::kMeld:
      if (k == kTwo && wild_melds_ && n == 0 && j + t <= kWildMeldMost)
        id = wild_meld_ + pair_index(j, t, kWildMeldMost);
      else if (k >= kBlack3 && k <= kLastNatural && n <= naturals_ && j + t <= wilds_)
        id = meld_ + ((k - kBlack3) * (naturals_ + 1) + n) * tri_ + pair_index(j, t, wilds_);
      break;
    case ActionType::kClean: {
      const int d = a.dest();
      const int dest = d == kTwo ? 0 : is_natural(d) ? d - kFirstNatural + 1 : -1;
      if (cleanings_ && is_natural(k) && dest >= 0 && (n == 0 || n == 2) && j + t == 1)
        id = clean_ + (k - kFirstNatural) * kCleanSlots + dest * 4 + n + j;
      break;
    }
    case ActionType::kDiscard:
      if (k < kKindNb) id = discard_ + k;
      break;
    default:
      break;
  }
  // Any bit outside the fields read above leaves the action without an id.
  return id >= 0 && actions_[static_cast<size_t>(id)] == a ? id : -1;
}

}  // namespace canasta
