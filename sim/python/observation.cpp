#include "observation.h"

#include <fmt/format.h>

#include "canasta/notation.h"

namespace canasta {

void observation_tensor(const View& v, float* out) {
  const Rules& r = v.rules();
  float* p = out;
  const auto kinds = [&](CardSet c) {
    for (int k = 0; k < kKindNb; ++k) *p++ = static_cast<float>(c.count(k));
  };
  const auto one_hot = [&](int value, int n) {
    for (int i = 0; i < n; ++i) *p++ = i == value ? 1.0F : 0.0F;
  };
  kinds(v.hand());                                                                                    // 15
  for (int s = 0; s < kMaxSeats; ++s) *p++ = s < r.players ? static_cast<float>(v.hand_size(s)) : 0;  // 6
  for (int s = 0; s < kMaxSeats; ++s) kinds(s < r.players ? v.known(s) : CardSet());                  // 90
  for (int t = 0; t < kMaxTeams; ++t) {                                                               // 135
    const TeamMelds empty{};
    const TeamMelds& m = t < r.teams ? v.melds(t) : empty;
    kinds(m.naturals);
    kinds(m.jokers);
    kinds(m.twos);
  }
  for (int s = 0; s < kMaxSeats; ++s) *p++ = s < r.players ? static_cast<float>(v.red_threes(s)) : 0;  // 6
  kinds(v.pile());                                                                                     // 15
  one_hot(v.top(), kKindNb);                                                                           // 15
  *p++ = static_cast<float>(v.pile_size());                                                            // 1
  *p++ = v.pile_frozen() ? 1.0F : 0.0F;                                                                // 1
  *p++ = static_cast<float>(v.stock_size());                                                           // 1
  one_hot(static_cast<int>(v.phase()), 4);                                                             // 4
  for (int bit = 0; bit < 10; ++bit) *p++ = (v.turn_flags() >> bit & 1U) ? 1.0F : 0.0F;                // 10
  *p++ = static_cast<float>(v.turn_value());                                                           // 1
  for (int t = 0; t < kMaxTeams; ++t) *p++ = t < r.teams ? static_cast<float>(v.score_before(t)) : 0;  // 3
  for (int s = 0; s < kMaxSeats; ++s)                                                                  // 90
    for (int k = 0; k < kKindNb; ++k) *p++ = s < r.players && (v.discarded(s) >> k & 1U) ? 1.0F : 0.0F;
  one_hot(v.seat(), kMaxSeats);   // 6
  one_hot(v.actor(), kMaxSeats);  // 6
}

std::string information_state(const View& v) {
  const Rules& r = v.rules();
  std::string out = fmt::format("seat {} (side {}); actor {}; phase {}; flags {}; turn value {}\n", v.seat(),
                                r.team_of(v.seat()), v.actor(), static_cast<int>(v.phase()), v.turn_flags(),
                                v.turn_value());
  out += fmt::format("hand: {}\n", cards_to_string(v.hand()));
  for (int s = 0; s < r.players; ++s)
    out += fmt::format("seat {}: {} cards, red threes {}, known {}, discarded {:#x}\n", s, v.hand_size(s),
                       v.red_threes(s), cards_to_string(v.known(s)), v.discarded(s));
  for (int t = 0; t < r.teams; ++t) {
    std::string melds;
    for (int k = kTwo; k <= kLastNatural; ++k)
      if (v.melds(t).size(k) > 0)
        melds += fmt::format(" {}: {};", meld_token(k), cards_to_string(v.melds(t).cards(k)));
    out += fmt::format("side {} (score {}):{}\n", t, v.score_before(t), melds.empty() ? " -" : melds);
  }
  std::string pile;
  for (int i = 0; i < v.pile_size(); ++i) pile += (i ? " " : "") + std::string(kind_token(v.pile_card(i)));
  out += fmt::format("pile: {}{}; stock {}\n", pile, v.pile_frozen() ? " (frozen)" : "", v.stock_size());
  return out;
}

}  // namespace canasta
