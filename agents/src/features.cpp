#include "canasta/features.h"

#include <cassert>

#include "canasta/engine.h"
#include "canasta/view_encoder.h"

namespace canasta {

namespace {

// A side's block (kSideNaturals ... kSideTableScore).
void encode_side(ViewEncoder& e, const View& v, int team) {
  const TeamMelds& m = v.melds(team);
  for (int k = 0; k < kKindNb; ++k) e.value(m.naturals.count(k));
  for (int k = 0; k < kKindNb; ++k) e.value(k == kTwo ? m.wild_meld() : m.wilds(k));
  for (int k = 0; k < kKindNb; ++k) e.value(k == kTwo ? m.wild_canasta() : m.is_canasta(k));
  for (int k = 0; k < kKindNb; ++k) e.value(k != kTwo && m.is_canasta(k) && m.wilds(k) == 0);
  e.value(v.team_red_threes(team));
  e.value(m.any());
  e.value(v.opening_minimum(team) / kOpeningScale);
  e.value(v.score_before(team) / kScoreScale);
  e.value(v.table_score(team) / kScoreScale);
}

// A seat's block (kSeatHandSize ... kSeatDiscarded).
void encode_seat(ViewEncoder& e, const View& v, int seat) {
  e.value(v.hand_size(seat));
  e.kinds(v.known(seat));
  e.discarded(v, seat);
}

// The pile and the turn (kTablePileSize ... kTableTurnValue).
void encode_table(ViewEncoder& e, const View& v) {
  e.value(v.pile_size());
  e.value(v.pile_frozen());
  e.value(v.top() >= 0);
  e.top(v);
  e.kinds(v.pile());
  e.value(v.stock_size());
  e.phase(v);
  e.turn_flags(v);
  e.value(v.turn_value() / kTurnValueScale);
}

}  // namespace

void features(const View& v, float* out) {
  const Rules& r = v.rules();
  const int seat = v.seat();
  const int my_team = r.team_of(seat);
  [[maybe_unused]] const FeatureLayout layout = feature_layout(r);
  ViewEncoder e{out};
  e.kinds(v.hand());
  for (int i = 0; i < r.teams; ++i) encode_side(e, v, (my_team + i) % r.teams);
  assert(e.p == out + layout.seats);
  for (int i = 0; i < r.players; ++i) encode_seat(e, v, (seat + i) % r.players);
  assert(e.p == out + layout.table);
  encode_table(e, v);
  assert(e.p == out + layout.actor);
  for (int i = 0; i < r.players; ++i) e.value((seat + i) % r.players == v.actor());
  assert(e.p == out + layout.size);
}

}  // namespace canasta
