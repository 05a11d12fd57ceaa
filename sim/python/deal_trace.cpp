#include "deal_trace.h"

namespace canasta {

namespace {

// The deal's own draws, in the order of start_deal: the hands round-robin
// from the dealer's left, the upcards, then the replacements of dealt red
// threes, one position per red three the seat shows after the deal: each
// seat's in turn order where they are replaced at once, else the first
// player's, whose turn begins the deal.
bool receipts_at_deal(const State& start, Trace& tr) {
  const Rules& r = start.rules;
  const int first = r.next_seat(start.dealer);
  int pos = 0;
  const auto give = [&](int owner, int n) {
    for (int i = 0; i < n && pos < kMaxCards; ++i) tr.got[static_cast<size_t>(pos++)] = {owner, 0};
  };
  for (int i = 0; i < r.players * r.hand_size; ++i) give((first + i) % r.players, 1);
  give(kTable, start.pile_size);
  if (r.red3_deal == RedThreeDeal::kImmediate)
    for (int i = 0; i < r.players; ++i) give((first + i) % r.players, start.red3[(first + i) % r.players]);
  else if (!(start.red3_pending >> first & 1U))
    give(first, start.red3[first]);
  return pos == start.stock_pos;
}

// The seat that received the `consumed` cards drawn in a step: the one whose
// hand and red threes grew by that many.
int receiver(const State& before, const State& after, int consumed) {
  int found = -1;
  for (int seat = 0; seat < before.rules.players; ++seat) {
    const int grew =
        after.hand[seat].total() + after.red3[seat] - before.hand[seat].total() - before.red3[seat];
    if (grew == consumed) {
      if (found >= 0) return -1;
      found = seat;
    }
  }
  return found;
}

}  // namespace

Counts counts_of(CardSet c) {
  Counts out{};
  for (int k = 0; k < kKindNb; ++k) out[static_cast<size_t>(k)] = c.count(k);
  return out;
}

CardSet set_of(const Counts& c) {
  CardSet out;
  for (int k = 0; k < kKindNb; ++k) out.add(k, c[static_cast<size_t>(k)]);
  return out;
}

int total(const Counts& c) {
  int n = 0;
  for (int v : c) n += v;
  return n;
}

bool Trace::hidden_from(int seat, int pos) const {
  const Receipt& g = got[static_cast<size_t>(pos)];
  if (g.owner == kStock) return true;
  if (g.owner == kTable || g.owner == seat) return false;
  return start().deck[static_cast<size_t>(pos)] != kRed3 ||
         (g.when == 0 && start().hand[g.owner].count(kRed3) > 0);
}

Counts Trace::public_change(int q, size_t t, const Counts& drawn) const {
  const Counts after_step = counts_of(after[t].hand[q]), before = counts_of(after[t - 1].hand[q]);
  Counts out{};
  for (size_t k = 0; k < kKindNb; ++k) out[k] = after_step[k] - before[k] - drawn[k];
  return out;
}

bool trace_deal(const State& start, std::span<const Step> steps, Trace& tr) {
  tr.after.assign(1, start);
  tr.after.reserve(steps.size() + 1);
  if (!receipts_at_deal(start, tr)) return false;
  for (size_t t = 1; t <= steps.size(); ++t) {
    State next = tr.after.back();
    apply(next, steps[t - 1].action);
    const int from = tr.after.back().stock_pos, to = next.stock_pos;
    if (to > from) {
      const int seat = receiver(tr.after.back(), next, to - from);
      if (seat < 0) return false;
      for (int pos = from; pos < to; ++pos) tr.got[static_cast<size_t>(pos)] = {seat, static_cast<int>(t)};
    }
    tr.after.push_back(next);
  }
  return true;
}

std::vector<Receipts> hidden_receipts(const Trace& tr, int seat, const Deck& deck) {
  const State& start = tr.start();
  std::vector<Receipts> out(start.rules.players, Receipts(tr.after.size(), Counts{}));
  for (int pos = 0; pos < start.deck_size; ++pos) {
    const Receipt& g = tr.got[static_cast<size_t>(pos)];
    if (g.owner >= 0 && tr.hidden_from(seat, pos))
      ++out[static_cast<size_t>(g.owner)][static_cast<size_t>(g.when)][deck[static_cast<size_t>(pos)]];
  }
  return out;
}

}  // namespace canasta
