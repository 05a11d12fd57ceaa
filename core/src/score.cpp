// Scoring (core/doc/rules.md section 10, and the spanish premiums of sections 13 and 15).
#include "canasta/engine.h"

namespace canasta {

namespace {

int bonus(int ranks, int natural, int wild) {
  return kNaturalCanastaBonus * natural + kMixedCanastaBonus * (ranks - natural) + kWildCanastaBonus * wild;
}

}  // namespace

int canasta_bonus(const TeamMelds& m) {
  const auto [ranks, natural] = m.rank_canastas();
  return bonus(ranks, natural, m.wild_canasta() ? 1 : 0);
}

int table_score(const Rules& r, const TeamMelds& m, int reds) {
  const auto [ranks, natural] = m.rank_canastas();
  const int wild = m.wild_canasta() ? 1 : 0;
  return m.value() + bonus(ranks, natural, wild) + red_three_score(reds, red_threes_plus(r, m, ranks + wild));
}

DealBounds deal_bounds(const Rules& r) {
  const CardSet pack = full_pack(r);
  const int cards = pack.value();
  const int canastas = r.deck_cards() / kCanastaSize;
  const int bonus = r.wild_melds ? kWildCanastaBonus : kNaturalCanastaBonus;
  const int reds = red_three_score(pack.count(kRed3), true);
  const int premiums = r.premiums ? kCanastronBonus + kCanastaDeCanastas + kFourBlackThrees : 0;
  const int out = r.premiums ? kConcealedPremium[0][0] : kConcealedBonus;
  return {cards + canastas * bonus + reds + premiums + out,
          cards + reds + (r.premiums ? kFourBlackThreesHeld : 0)};
}

int red_three_score(int reds, bool plus) {
  const int value = reds >= kAllRedThrees ? kManyRedThreesEach * reds : kRedThreeBonus * reds;
  return plus ? value : -value;
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
    // Four black threes melded when going out score a premium instead of their value.
    if (r.premiums && m.naturals.count(kBlack3) == 4) d.melded += kFourBlackThrees - 4 * card_value(kBlack3);
    for (int seat = t; seat < r.players; seat += r.teams) {
      const CardSet& hand = s.hand[seat];
      d.in_hand -= hand.value();
      // ... and four (or more) left in one hand cost a penalty instead of their value.
      const int b3 = hand.count(kBlack3);
      if (r.premiums && b3 >= 4) d.in_hand -= kFourBlackThreesHeld - b3 * card_value(kBlack3);
    }
    d.canastas = canasta_bonus(m);
    d.red_threes = red_three_score(team_red_threes(s, t), red_threes_plus(r, m));
    if (s.end == EndReason::kWentOut && r.team_of(s.out_seat) == t) {
      if (!s.concealed)
        d.going_out = kGoingOutBonus;
      else if (r.premiums)
        d.going_out = kConcealedPremium[(s.concealed & kConcealedLater) ? 1 : 0]
                                       [(s.concealed & kConcealedLeaning) ? 1 : 0];
      else
        d.going_out = kConcealedBonus;
    }
    if (r.premiums) {  // cumulative: seven canastas are also five
      const int n = m.canastas();
      d.premiums = (n >= 5 ? kCanastronBonus : 0) + (n >= 7 ? kCanastaDeCanastas : 0);
    }
  }
  return out;
}

std::array<double, kMaxTeams> deal_margins(const State& s) {
  const auto score = deal_score(s);
  const int teams = s.rules.teams;
  double all = 0;
  for (int t = 0; t < teams; ++t) all += score[t].total();
  std::array<double, kMaxTeams> out{};
  for (int t = 0; t < teams; ++t) out[t] = score[t].total() - (all - score[t].total()) / (teams - 1);
  return out;
}
}  // namespace canasta
