// Decks, the invariant checker and perft: what tests and debug builds hold
// the engine to.
#include <algorithm>
#include <utility>

#include "canasta/engine.h"
#include "feasible.h"

namespace canasta {

CardSet full_pack(const Rules& rules) {
  // One deck without its jokers: four twos, two red and two black threes,
  // four of each natural rank. No count passes 15 (three decks at most).
  constexpr uint64_t kDeck = [] {
    CardSet deck;
    deck.add(kTwo, 4);
    deck.add(kRed3, 2);
    deck.add(kBlack3, 2);
    for (int k = kFirstNatural; k <= kLastNatural; ++k) deck.add(k, 4);
    return deck.raw();
  }();
  CardSet pack(kDeck * static_cast<uint64_t>(rules.decks));
  pack.add(kJoker, rules.jokers);
  return pack;
}

int ordered_deck(const Rules& rules, Deck& deck) {
  const CardSet pack = full_pack(rules);
  int n = 0;
  for (int k = 0; k < kKindNb; ++k)
    for (int i = 0; i < pack.count(k); ++i) deck[n++] = static_cast<uint8_t>(k);
  return n;
}

int shuffled_deck(const Rules& rules, Rng& rng, Deck& deck) {
  const int n = ordered_deck(rules, deck);
  for (int i = n - 1; i > 0; --i) std::swap(deck[i], deck[rng.below(static_cast<uint32_t>(i + 1))]);
  return n;
}
uint64_t perft(const State& s, int depth) {
  if (depth == 0 || s.over()) return 1;
  ActionList list;
  legal_actions(s, list);
  if (depth == 1) return static_cast<uint64_t>(list.size());
  uint64_t n = 0;
  for (Action a : list) {
    State next = s;
    apply(next, a);
    n += perft(next, depth - 1);
  }
  return n;
}

const char* check_invariants(const State& s) {
  const Rules& r = s.rules;
  Deck ordered;
  const int n = ordered_deck(r, ordered);
  if (n != s.deck_size) return "deck size differs from the profile";
  std::array<int, kKindNb> want{}, have{};
  for (int i = 0; i < n; ++i) ++want[ordered[i]];
  auto add = [&](CardSet c) {
    for (int k = 0; k < kKindNb; ++k) have[k] += c.count(k);
  };
  for (int seat = 0; seat < r.players; ++seat) {
    add(s.hand[seat]);
    have[kRed3] += s.red3[seat];
    if (s.hand[seat].count(kRed3) && !(s.red3_pending >> seat & 1U)) return "red three held in a hand";
    if (!s.hand[seat].contains(s.known[seat])) return "known cards not in the hand";
  }
  for (int t = 0; t < r.teams; ++t) {
    const TeamMelds& m = s.melds[t];
    add(m.naturals);
    have[kJoker] += m.jokers.total();
    have[kTwo] += m.twos.total();
    for (int k = 0; k < kFirstNatural; ++k)
      if ((m.jokers.count(k) || m.twos.count(k)) && !(k == kTwo && r.wild_melds))
        return "wild card outside a natural meld";
    if (m.wild_meld() && !detail::meld_shape_ok(TeamMelds{}, kTwo, 0, m.wild_meld(), r))
      return "illegal meld of wild cards";
    if (m.naturals.count(kJoker) || m.naturals.count(kTwo) || m.naturals.count(kRed3))
      return "meld of wild cards or red threes";
    const int b3 = m.naturals.count(kBlack3);
    if (b3 != 0 && (b3 < 3 || b3 > 4)) return "black-three meld of the wrong size";
    for (int k = kFirstNatural; k <= kLastNatural; ++k) {
      if (!m.has(k)) {
        if (m.wilds(k)) return "wild cards without naturals";
        continue;
      }
      if (!detail::meld_shape_ok(TeamMelds{}, k, m.naturals.count(k), m.wilds(k), r))
        return "illegal meld on the table";
    }
  }
  bool frozen = false;
  for (int i = 0; i < s.pile_size; ++i) {
    ++have[s.pile[i]];
    frozen |= is_wild(s.pile[i]) || s.pile[i] == kRed3;
  }
  // Before the pile is first taken it may be frozen without a wild card
  // (Rules::frozen_until_taken); the state need not remember the take.
  if (frozen ? !s.pile_frozen : (s.pile_frozen && !r.frozen_until_taken))
    return "pile freeze flag disagrees with the pile";
  if (s.stock_pos > s.deck_size) return "stock position past the deck";
  for (int i = s.stock_pos; i < s.deck_size; ++i) ++have[s.deck[i]];
  if (have != want) return "cards not conserved";
  if (s.phase != Phase::kOver && s.phase != Phase::kDraw && s.hand[s.seat].empty() &&
      !(s.flags & kPilePending))
    return "empty hand in the middle of a turn";
  return nullptr;
}

}  // namespace canasta
