#include "canasta/view.h"

#include <algorithm>
#include <cassert>

namespace canasta {

CardSet View::unseen() const {
  const Rules& r = rules();
  CardSet u = full_pack(r) - hand();
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

bool View::answer_consistent(const State& d) {
  ActionList legal;
  State yes = d, no = d;
  apply_unchecked(yes, Action::make(ActionType::kYes));
  apply_unchecked(no, Action::make(ActionType::kNo));
  canasta::legal_actions(yes, legal);
  if (legal.empty()) return false;
  canasta::legal_actions(no, legal);
  return !legal.empty();
}

State View::determinize(Rng& rng, int tries) const {
  State d = sample(rng);
  if (phase() != Phase::kAnswer) return d;
  for (int i = 0; i < tries; ++i) {
    if (answer_consistent(d)) return d;
    d = sample(rng);
  }
  return determinize_exact(rng);
}

namespace {

constexpr double binomial(int n, int k) {
  double c = 1;
  for (int i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c;
}

// The possible hidden parts of the asker's hand: every multiset of `left`
// cards from `pool`, but those that would leave two cards or more that no meld
// can take (going out discards one card at most). `leaf(hidden, weight)` gets
// each, `weight` being the number of ways to draw it from the pool.
struct HiddenHands {
  CardSet pool;     // the cards the hidden part comes from
  CardSet base;     // what the player surely holds when going out: known cards (and a pending pile)
  uint16_t melded;  // ranks the side has melded (black threes included)
  CardSet hidden;   // the part under construction

  template <class Leaf>
  void walk(int kind, int left, int orphans, double weight, const Leaf& leaf) {
    if (left == 0) {
      leaf(hidden, weight);
      return;
    }
    if (kind == kKindNb) return;
    if (kind == kRed3) {
      walk(kind + 1, left, orphans, weight, leaf);
      return;
    }
    const int most = std::min(pool.count(kind), left);
    for (int x = 0; x <= most; ++x) {
      const int held = base.count(kind) + x;
      int lost = 0;  // cards of this kind that no meld can take
      if (kind == kBlack3)
        lost = (melded >> kBlack3 & 1U) ? held : (held == 1 ? 1 : held == 2 ? 2 : 0);
      else if (is_natural(kind) && !(melded >> kind & 1U))
        lost = held == 1 ? 1 : 0;
      if (orphans + lost > 1) continue;
      hidden.set(kind, x);
      walk(kind + 1, left - x, orphans + lost, weight * binomial(pool.count(kind), x), leaf);
    }
    hidden.set(kind, 0);
  }
};

}  // namespace

State View::determinize_exact(Rng& rng) const {
  if (phase() != Phase::kAnswer) return sample(rng);
  const int asker = to_move();
  HiddenHands h;
  h.pool = unseen();
  h.pool.set(kRed3, 0);  // red threes are never held at this point
  h.base = known(asker);
  if (turn_flags() & kPilePending) {
    CardSet rest = pile();  // joins the hand once the opening is made
    rest.set(kRed3, 0);
    h.base = h.base + rest;
  }
  h.melded = melds(rules().team_of(asker)).ranks();
  // The answer check reads only the asker's hand and public facts.
  State probe = *s_;
  double total = 0;
  CardSet chosen;
  bool found = false;
  h.walk(0, hand_size(asker) - known(asker).total(), 0, 1.0, [&](CardSet hidden, double weight) {
    probe.hand[asker] = known(asker) + hidden;
    if (!answer_consistent(probe)) return;
    total += weight;
    if (rng.uniform() * total < weight) chosen = hidden, found = true;
  });
  // The asker's real hand is among those enumerated, unless the position was
  // not reached by legal play.
  assert(found);
  return found ? sample(rng, asker, chosen) : sample(rng);
}

State View::sample(Rng& rng, int fixed_seat, CardSet fixed) const {
  const Rules& r = rules();
  State d = *s_;
  // Everything hidden from the seat is overwritten below: the other hands
  // and the whole deck order.
  d.deck.fill(0);
  std::array<uint8_t, kMaxCards> cards{};
  int n = 0, reds = 0;
  const CardSet u = unseen() - fixed;
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
    if (seat == fixed_seat) {
      d.hand[seat] = d.hand[seat] + fixed;
      continue;
    }
    for (int c = d.hand[seat].total(); c < hand_size(seat); ++c) d.hand[seat].add(cards[next++]);
  }
  // The stock: the rest and the red threes, in random order.
  std::array<uint8_t, kMaxCards> stock{};
  int m = 0;
  for (; next < n; ++next) stock[m++] = cards[next];
  for (int i = 0; i < reds; ++i) stock[m++] = kRed3;
  for (int i = m - 1; i > 0; --i) std::swap(stock[i], stock[rng.below(static_cast<uint32_t>(i + 1))]);
  for (int i = 0; i < m; ++i) d.deck[d.stock_pos + i] = stock[i];
  // Replacements still owed for red threes already exposed are public; a
  // red three not yet exposed is known to its holder alone, so only the
  // seat's own stays pending (the others' were dealt to the stock above).
  if (r.red3_deal != RedThreeDeal::kExposedNow) d.red3_pending &= static_cast<uint8_t>(1U << seat_);
  return d;
}

bool operator==(const View& a, const View& b) {
  if (a.seat() != b.seat() || a.rules() != b.rules()) return false;
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
