#include "canasta/view.h"

namespace canasta {

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
