// A deal played again from its start, with who received each card of the
// deck and when: what redraw.cpp needs to draw the hidden cards again.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "canasta/engine.h"
#include "observation.h"

namespace canasta {

// Card counts by kind, which may go below zero while a change is worked out.
using Counts = std::array<int, kKindNb>;
Counts counts_of(CardSet c);
CardSet set_of(const Counts& c);
int total(const Counts& c);

// Who received the card at a position of the deck, and when (0: while
// dealing, t: during step t); upcards go to the table, the stock to nobody yet.
constexpr int kTable = -1, kStock = -2;
struct Receipt {
  int owner = kStock;
  int when = 0;
};

struct Trace {
  std::vector<State> after;  // [0]: the deal's start; [t]: after step t
  std::array<Receipt, kMaxCards> got{};

  const State& start() const { return after.front(); }
  const State& now() const { return after.back(); }
  // Whether the card at `pos` is hidden from `seat`: the stock, and the
  // cards other seats received, but for red threes exposed as they came (all
  // but those dealt to a seat that keeps them for its first turn).
  bool hidden_from(int seat, int pos) const;
  // The change in `q`'s hand at step t that everybody sees (melds, discards,
  // pickups, exposed red threes): the change less the cards it drew then.
  Counts public_change(int q, size_t t, const Counts& drawn) const;
};

// Plays `steps` again from `start`. False when the draws of a step cannot be
// told to one seat (a state not reached by play from its deal).
bool trace_deal(const State& start, std::span<const Step> steps, Trace& tr);

// The hidden cards (from `seat`) that each other seat received, by when:
// [q][0] dealt, [q][t] drawn at step t.
using Receipts = std::vector<Counts>;
std::vector<Receipts> hidden_receipts(const Trace& tr, int seat, const Deck& deck);

}  // namespace canasta
