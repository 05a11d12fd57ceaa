#include "canasta/view.h"

namespace canasta {

CardSet View::unseen() const {
  const Rules& r = rules();
  Deck full;
  const int n = ordered_deck(r, full);
  CardSet u;
  for (int i = 0; i < n; ++i) u.add(full[i]);
  u = u - hand();
  for (int t = 0; t < r.teams; ++t) {
    const TeamMelds& m = melds(t);
    u = u - m.naturals;
    u.remove(kJoker, m.jokers.total());
    u.remove(kTwo, m.twos.total());
  }
  u = u - pile();
  for (int seat = 0; seat < r.players; ++seat) {
    u.remove(kRed3, red_threes(seat));
    if (seat != seat_) u = u - known(seat);
  }
  return u;
}

State View::determinize(Rng& rng) const {
  // While the seat answers "may I go out?", the asker's hand is hidden but
  // constrained: asking was legal, so the asker can go out after a yes and
  // finish the turn after a no. Samples that break this are drawn again.
  State d = sample(rng);
  if (phase() != Phase::kAnswer) return d;
  ActionList legal;
  for (int tries = 0; tries < 100000; ++tries) {
    State yes = d, no = d;
    apply_unchecked(yes, Action::make(ActionType::kYes));
    apply_unchecked(no, Action::make(ActionType::kNo));
    canasta::legal_actions(yes, legal);
    if (!legal.empty()) {
      canasta::legal_actions(no, legal);
      if (!legal.empty()) return d;
    }
    d = sample(rng);
  }
  return d;
}

State View::sample(Rng& rng) const {
  const Rules& r = rules();
  State d = *s_;
  // Everything hidden from the seat is overwritten below: the other hands
  // and the whole deck order.
  d.deck.fill(0);
  std::array<uint8_t, kMaxCards> cards{};
  int n = 0, reds = 0;
  const CardSet u = unseen();
  for (int k = 0; k < kKindNb; ++k) {
    if (k == kRed3) {
      reds = u.count(k);  // red threes are never held (but by seats yet to expose them): they go to the stock
      continue;
    }
    for (int c = 0; c < u.count(k); ++c) cards[n++] = static_cast<uint8_t>(k);
  }
  for (int i = n - 1; i > 0; --i) std::swap(cards[i], cards[rng.below(static_cast<uint32_t>(i + 1))]);
  int next = 0;
  for (int seat = 0; seat < r.players; ++seat) {
    if (seat == seat_) continue;
    d.hand[seat] = known(seat);
    for (int c = d.hand[seat].total(); c < hand_size(seat); ++c) d.hand[seat].add(cards[next++]);
  }
  // The stock: the rest and the red threes, in random order.
  std::array<uint8_t, kMaxCards> stock{};
  int m = 0;
  for (; next < n; ++next) stock[m++] = cards[next];
  for (int i = 0; i < reds; ++i) stock[m++] = kRed3;
  for (int i = m - 1; i > 0; --i) std::swap(stock[i], stock[rng.below(static_cast<uint32_t>(i + 1))]);
  for (int i = 0; i < m; ++i) d.deck[d.stock_pos + i] = stock[i];
  d.red3_pending = 0;
  return d;
}

bool operator==(const View& a, const View& b) {
  if (a.seat() != b.seat() || profile_spec(a.rules()) != profile_spec(b.rules())) return false;
  const Rules& r = a.rules();
  if (a.hand() != b.hand() || a.stock_size() != b.stock_size() || a.pile_size() != b.pile_size() ||
      a.pile_frozen() != b.pile_frozen() || a.dealer() != b.dealer() || a.to_move() != b.to_move() ||
      a.actor() != b.actor() || a.phase() != b.phase() || a.turn_flags() != b.turn_flags() ||
      a.turn_value() != b.turn_value() || a.turns() != b.turns())
    return false;
  for (int i = 0; i < a.pile_size(); ++i)
    if (a.pile_card(i) != b.pile_card(i)) return false;
  for (int seat = 0; seat < r.players; ++seat)
    if (a.hand_size(seat) != b.hand_size(seat) || a.red_threes(seat) != b.red_threes(seat) ||
        a.known(seat) != b.known(seat) || a.discarded(seat) != b.discarded(seat))
      return false;
  for (int t = 0; t < r.teams; ++t) {
    const TeamMelds &x = a.melds(t), &y = b.melds(t);
    if (x.naturals != y.naturals || x.jokers != y.jokers || x.twos != y.twos ||
        a.score_before(t) != b.score_before(t))
      return false;
  }
  return true;
}

}  // namespace canasta
