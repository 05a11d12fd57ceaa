// Scoring (RULES.md section 10).
#include "canasta/engine.h"

namespace canasta {

int canasta_bonus(const TeamMelds& m) {
  const int natural = m.natural_canastas();
  return kNaturalCanastaBonus * natural + kMixedCanastaBonus * (m.canastas() - natural);
}

int red_three_score(int reds, bool melded) {
  const int value = reds == kAllRedThrees ? kAllRedThreesBonus : kRedThreeBonus * reds;
  return melded ? value : -value;
}

int team_red_threes(const State& s, int team) {
  int reds = 0;
  for (int seat = team; seat < s.rules.players; seat += s.rules.teams) reds += s.red3[seat];
  return reds;
}

std::array<DealScore, kMaxTeams> deal_score(const State& s) {
  std::array<DealScore, kMaxTeams> out{};
  const Rules& r = s.rules;
  for (int t = 0; t < r.teams; ++t) {
    const TeamMelds& m = s.melds[t];
    DealScore& d = out[t];
    d.melded = m.value();
    for (int seat = t; seat < r.players; seat += r.teams) d.in_hand -= s.hand[seat].value();
    d.canastas = canasta_bonus(m);
    d.red_threes = red_three_score(team_red_threes(s, t), m.any());
    if (s.end == EndReason::kWentOut && r.team_of(s.out_seat) == t)
      d.going_out = s.concealed ? kConcealedBonus : kGoingOutBonus;
  }
  return out;
}
}  // namespace canasta
