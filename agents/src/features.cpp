#include "canasta/features.h"

#include "canasta/engine.h"

namespace canasta {

void features(const View& v, float* out) {
  const Rules& r = v.rules();
  const int seat = v.seat();
  const int my_team = r.team_of(seat);
  float* p = out;
  const auto kinds = [&](CardSet c) {
    for (int k = 0; k < kKindNb; ++k) *p++ = static_cast<float>(c.count(k));
  };
  const auto value = [&](double x) { *p++ = static_cast<float>(x); };
  // The seat's hand.
  kinds(v.hand());
  // Each side, own side first: its melds by rank (naturals, wild cards,
  // canasta, natural canasta), then its red threes, whether it has opened,
  // the opening minimum it faces, its score before the deal and on the table.
  for (int i = 0; i < r.teams; ++i) {
    const int t = (my_team + i) % r.teams;
    const TeamMelds& m = v.melds(t);
    for (int k = 0; k < kKindNb; ++k) value(m.naturals.count(k));
    for (int k = 0; k < kKindNb; ++k) value(k == kTwo ? m.wild_meld() : m.wilds(k));
    for (int k = 0; k < kKindNb; ++k) value(k == kTwo ? m.wild_canasta() : m.is_canasta(k));
    for (int k = 0; k < kKindNb; ++k) value(k != kTwo && m.is_canasta(k) && m.wilds(k) == 0);
    value(v.team_red_threes(t));
    value(m.any());
    value(v.opening_minimum(t) / 100.0);
    value(v.score_before(t) / 1000.0);
    value(v.table_score(t) / 1000.0);
  }
  // Each seat, own seat first: hand size, the cards it took with the pile
  // and still holds, the kinds it has discarded in the deal.
  for (int i = 0; i < r.players; ++i) {
    const int s = (seat + i) % r.players;
    value(v.hand_size(s));
    kinds(v.known(s));
    for (int k = 0; k < kKindNb; ++k) value(v.discarded(s) >> k & 1U);
  }
  // The pile, the stock, the turn.
  value(v.pile_size());
  value(v.pile_frozen());
  value(v.top() >= 0);
  for (int k = 0; k < kKindNb; ++k) value(k == v.top());
  kinds(v.pile());
  value(v.stock_size());
  for (int ph = 0; ph < 4; ++ph) value(static_cast<int>(v.phase()) == ph);
  for (int bit = 0; bit < 10; ++bit) value(v.turn_flags() >> bit & 1U);
  value(v.turn_value() / 100.0);
  // Who acts, relative to the seat (one-hot).
  for (int i = 0; i < r.players; ++i) value((seat + i) % r.players == v.actor());
}

}  // namespace canasta
