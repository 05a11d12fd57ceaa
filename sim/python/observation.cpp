#include "observation.h"

#include <fmt/format.h>

#include <algorithm>

#include "canasta/notation.h"

namespace canasta {

namespace {

// Writes numbers in order: counts by kind, one-hot codes, plain values.
struct Writer {
  float* p;
  void kinds(CardSet c) {
    for (int k = 0; k < kKindNb; ++k) *p++ = static_cast<float>(c.count(k));
  }
  void one_hot(int value, int n) {
    for (int i = 0; i < n; ++i) *p++ = i == value ? 1.0F : 0.0F;
  }
  void value(double x) { *p++ = static_cast<float>(x); }
};

std::vector<TensorPiece> with_offsets(std::vector<TensorPiece> pieces) {
  int offset = 0;
  for (TensorPiece& piece : pieces) {
    piece.offset = offset;
    int n = 1;
    for (int d : piece.shape) n *= d;
    offset += n;
  }
  return pieces;
}

}  // namespace

void observation_tensor(const View& v, float* out) {
  const Rules& r = v.rules();
  Writer w{out};
  w.kinds(v.hand());
  for (int s = 0; s < kMaxSeats; ++s) w.value(s < r.players ? v.hand_size(s) : 0);
  for (int s = 0; s < kMaxSeats; ++s) w.kinds(s < r.players ? v.known(s) : CardSet());
  for (int t = 0; t < kMaxTeams; ++t) {
    const TeamMelds empty{};
    const TeamMelds& m = t < r.teams ? v.melds(t) : empty;
    w.kinds(m.naturals);
    w.kinds(m.jokers);
    w.kinds(m.twos);
  }
  for (int s = 0; s < kMaxSeats; ++s) w.value(s < r.players ? v.red_threes(s) : 0);
  w.kinds(v.pile());
  w.one_hot(v.top(), kKindNb);
  w.value(v.pile_size());
  w.value(v.pile_frozen() ? 1 : 0);
  w.value(v.stock_size());
  w.one_hot(static_cast<int>(v.phase()), 4);
  for (int bit = 0; bit < 10; ++bit) w.value(v.turn_flags() >> bit & 1U);
  w.value(v.turn_value());
  for (int t = 0; t < kMaxTeams; ++t) w.value(t < r.teams ? v.score_before(t) : 0);
  for (int s = 0; s < kMaxSeats; ++s)
    for (int k = 0; k < kKindNb; ++k) w.value(s < r.players && (v.discarded(s) >> k & 1U) ? 1 : 0);
  w.one_hot(v.seat(), kMaxSeats);
  w.one_hot(v.actor(), kMaxSeats);
}

const std::vector<TensorPiece>& observation_pieces() {
  static const std::vector<TensorPiece> pieces = with_offsets({
      {"hand", 0, {kKindNb}},
      {"hand_sizes", 0, {kMaxSeats}},
      {"known", 0, {kMaxSeats, kKindNb}},
      {"melds", 0, {kMaxTeams, 3, kKindNb}},
      {"red_threes", 0, {kMaxSeats}},
      {"pile", 0, {kKindNb}},
      {"top", 0, {kKindNb}},
      {"pile_size", 0, {1}},
      {"pile_frozen", 0, {1}},
      {"stock_size", 0, {1}},
      {"phase", 0, {4}},
      {"turn_flags", 0, {10}},
      {"turn_value", 0, {1}},
      {"scores_before", 0, {kMaxTeams}},
      {"discarded", 0, {kMaxSeats, kKindNb}},
      {"seat", 0, {kMaxSeats}},
      {"actor", 0, {kMaxSeats}},
  });
  return pieces;
}

std::string observation_string(const View& v) {
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

void information_state_tensor(const View& v, const DealStart& start, std::span<const Step> steps,
                              float* out) {
  const Rules& r = v.rules();
  const int seat = v.seat();
  observation_tensor(v, out);
  Writer w{out + kObservationSize};
  steps = steps.first(std::min(steps.size(), static_cast<size_t>(max_game_length(r))));
  w.kinds(start.hand[static_cast<size_t>(seat)]);
  for (int s = 0; s < kMaxSeats; ++s) w.value(s < r.players ? start.red3[static_cast<size_t>(s)] : 0);
  for (const Step& step : steps) {
    const Action a = step.action;
    const ActionType type = a.type();
    const bool has_kind = type == ActionType::kTakePile || type == ActionType::kMeld ||
                          type == ActionType::kDiscard || type == ActionType::kClean;
    w.value(1);
    w.one_hot(step.seat, kMaxSeats);
    w.one_hot(static_cast<int>(type), static_cast<int>(ActionType::kTypeNb));
    w.one_hot(has_kind ? a.kind() : -1, kKindNb);
    w.value(type == ActionType::kDiscard ? 0 : a.naturals());
    w.value(type == ActionType::kDiscard ? 0 : a.jokers());
    w.value(type == ActionType::kDiscard ? 0 : a.twos());
    w.value(type == ActionType::kClean ? a.dest() + 1 : 0);
    w.value(step.red3_after);
    w.kinds(step.seat == seat ? step.hand_after : CardSet());
  }
  std::fill(w.p, out + information_state_size(r), 0.0F);
}

std::vector<TensorPiece> information_state_pieces(const Rules& r) {
  return with_offsets({{"observation", 0, {kObservationSize}},
                       {"dealt_hand", 0, {kKindNb}},
                       {"dealt_red_threes", 0, {kMaxSeats}},
                       {"history", 0, {max_game_length(r), kStepSize}}});
}

std::string information_state_string(const View& v, const DealStart& start, std::span<const Step> steps) {
  const Rules& r = v.rules();
  const int seat = v.seat();
  std::string out =
      fmt::format("dealt: {}; red threes", cards_to_string(start.hand[static_cast<size_t>(seat)]));
  std::array<int, kMaxSeats> red3{};
  for (int s = 0; s < r.players; ++s) {
    red3[static_cast<size_t>(s)] = start.red3[static_cast<size_t>(s)];
    out += fmt::format(" {}", red3[static_cast<size_t>(s)]);
  }
  out += '\n';
  for (const Step& step : steps) {
    out += fmt::format("seat {}: {}", step.seat, action_to_string(step.action));
    int& reds = red3[static_cast<size_t>(step.seat)];
    if (step.red3_after != reds) out += fmt::format("; red threes {}", step.red3_after);
    reds = step.red3_after;
    if (step.seat == seat) out += fmt::format("; hand {}", cards_to_string(step.hand_after));
    out += '\n';
  }
  return out + observation_string(v);
}

}  // namespace canasta
