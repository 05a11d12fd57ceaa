#include "observation.h"

#include <fmt/format.h>

#include <algorithm>

#include "canasta/notation.h"
#include "canasta/view_encoder.h"

namespace canasta {

namespace {

// Which kinds of observer show a piece.
enum class Scope : uint8_t {
  kOwnHand,   // PrivateInfo::kSinglePlayer
  kAllHands,  // PrivateInfo::kAllPlayers
  kPublic,    // public_info
  kAlways,    // every observer (the observing seat itself)
};

bool shows(Scope scope, ObsType t) {
  switch (scope) {
    case Scope::kOwnHand:
      return t.private_info == PrivateInfo::kSinglePlayer;
    case Scope::kAllHands:
      return t.private_info == PrivateInfo::kAllPlayers;
    case Scope::kPublic:
      return t.public_info;
    case Scope::kAlways:
      return true;
  }
  return false;
}

// A deal seen from one seat.
struct Seen {
  const DealSeen& deal;
  View v;
  const State& s() const { return deal.now; }
};

// A piece of the observation now: its name, who sees it, its shape and how it is written.
struct NowPiece {
  std::string_view name;
  Scope scope;
  std::vector<int> shape;
  void (*write)(ViewEncoder&, const View&, const State*);
};

void write_hands(ViewEncoder& w, const View& v, const State* s) {
  for (int seat = 0; seat < kMaxSeats; ++seat)
    w.kinds(seat < v.rules().players && s ? s->hand[seat] : CardSet());
}

// The observation's pieces, in tensor order. Every seat and side slot is
// absolute, with unused ones zero; card kinds in the order JK 2 3r 3b 4 ... A.
const std::vector<NowPiece>& now_pieces() {
  using S = Scope;
  static const std::vector<NowPiece> pieces = {
      {"hand",
       S::kOwnHand,
       {kKindNb},
       [](ViewEncoder& w, const View& v, const State*) { w.kinds(v.hand()); }},
      {"hands", S::kAllHands, {kMaxSeats, kKindNb}, write_hands},
      {"hand_sizes",
       S::kPublic,
       {kMaxSeats},
       [](ViewEncoder& w, const View& v, const State*) {
         for (int s = 0; s < kMaxSeats; ++s) w.value(s < v.rules().players ? v.hand_size(s) : 0);
       }},
      {"known",
       S::kPublic,
       {kMaxSeats, kKindNb},
       [](ViewEncoder& w, const View& v, const State*) {
         for (int s = 0; s < kMaxSeats; ++s) w.kinds(s < v.rules().players ? v.known(s) : CardSet());
       }},
      {"melds",
       S::kPublic,
       {kMaxTeams, 3, kKindNb},
       [](ViewEncoder& w, const View& v, const State*) {
         for (int t = 0; t < kMaxTeams; ++t) {
           const TeamMelds empty{};
           const TeamMelds& m = t < v.rules().teams ? v.melds(t) : empty;
           w.kinds(m.naturals);
           w.kinds(m.jokers);
           w.kinds(m.twos);
         }
       }},
      {"red_threes",
       S::kPublic,
       {kMaxSeats},
       [](ViewEncoder& w, const View& v, const State*) {
         for (int s = 0; s < kMaxSeats; ++s) w.value(s < v.rules().players ? v.red_threes(s) : 0);
       }},
      {"pile", S::kPublic, {kKindNb}, [](ViewEncoder& w, const View& v, const State*) { w.kinds(v.pile()); }},
      {"top", S::kPublic, {kKindNb}, [](ViewEncoder& w, const View& v, const State*) { w.top(v); }},
      {"pile_size",
       S::kPublic,
       {1},
       [](ViewEncoder& w, const View& v, const State*) { w.value(v.pile_size()); }},
      {"pile_frozen",
       S::kPublic,
       {1},
       [](ViewEncoder& w, const View& v, const State*) { w.value(v.pile_frozen() ? 1 : 0); }},
      {"stock_size",
       S::kPublic,
       {1},
       [](ViewEncoder& w, const View& v, const State*) { w.value(v.stock_size()); }},
      {"phase", S::kPublic, {kPhaseNb}, [](ViewEncoder& w, const View& v, const State*) { w.phase(v); }},
      {"turn_flags",
       S::kPublic,
       {kTurnFlagNb},
       [](ViewEncoder& w, const View& v, const State*) { w.turn_flags(v); }},
      {"turn_value",
       S::kPublic,
       {1},
       [](ViewEncoder& w, const View& v, const State*) { w.value(v.turn_value()); }},
      {"scores_before",
       S::kPublic,
       {kMaxTeams},
       [](ViewEncoder& w, const View& v, const State*) {
         for (int t = 0; t < kMaxTeams; ++t) w.value(t < v.rules().teams ? v.score_before(t) : 0);
       }},
      {"discarded",
       S::kPublic,
       {kMaxSeats, kKindNb},
       [](ViewEncoder& w, const View& v, const State*) {
         for (int s = 0; s < kMaxSeats; ++s)
           if (s < v.rules().players)
             w.discarded(v, s);
           else
             w.zeros(kKindNb);
       }},
      {"seat",
       S::kAlways,
       {kMaxSeats},
       [](ViewEncoder& w, const View& v, const State*) { w.one_hot(v.seat(), kMaxSeats); }},
      {"actor",
       S::kPublic,
       {kMaxSeats},
       [](ViewEncoder& w, const View& v, const State*) { w.one_hot(v.actor(), kMaxSeats); }},
  };
  return pieces;
}

int numbers(const std::vector<int>& shape) {
  int n = 1;
  for (int d : shape) n *= d;
  return n;
}

std::vector<TensorPiece> with_offsets(std::vector<TensorPiece> pieces) {
  int offset = 0;
  for (TensorPiece& piece : pieces) {
    piece.offset = offset;
    offset += numbers(piece.shape);
  }
  return pieces;
}

std::vector<TensorPiece> now_layout(ObsType t) {
  std::vector<TensorPiece> out;
  for (const NowPiece& piece : now_pieces())
    if (shows(piece.scope, t)) out.push_back({piece.name, 0, piece.shape});
  return with_offsets(std::move(out));
}

int now_size(ObsType t) {
  int n = 0;
  for (const NowPiece& piece : now_pieces())
    if (shows(piece.scope, t)) n += numbers(piece.shape);
  return n;
}

// The state now; `s` may be null where no piece needs every hand.
void write_now(const View& v, const State* s, ObsType t, float* out) {
  ViewEncoder w{out};
  for (const NowPiece& piece : now_pieces())
    if (shows(piece.scope, t)) piece.write(w, v, s);
}

// A row of the history: its public part (who played what, and the red
// threes the player had exposed after it), then its private part (the hand
// after it: the seat's own steps, or every step for every hand).
constexpr int kStepPublicSize = 36;
static_assert(kStepPublicSize + kKindNb == kStepSize);
constexpr int row_size(ObsType t) {
  return (t.public_info ? kStepPublicSize : 0) + (t.private_info != PrivateInfo::kNone ? kKindNb : 0);
}

void write_step_public(ViewEncoder& w, const Step& step) {
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
}

// Whether an observer of `seat` sees the hand after `step`.
bool sees_hand(ObsType t, int seat, const Step& step) {
  return t.private_info == PrivateInfo::kAllPlayers ||
         (t.private_info == PrivateInfo::kSinglePlayer && step.seat == seat);
}

void write_recall(const Seen& seen, ObsType t, float* out) {
  const Rules& r = seen.v.rules();
  const int seat = seen.v.seat();
  const DealStart& start = seen.deal.start;
  write_now(seen.v, &seen.s(), t, out);
  ViewEncoder w{out + now_size(t)};
  if (t.private_info == PrivateInfo::kSinglePlayer) w.kinds(start.hand[static_cast<size_t>(seat)]);
  if (t.private_info == PrivateInfo::kAllPlayers)
    for (int s = 0; s < kMaxSeats; ++s)
      w.kinds(s < r.players ? start.hand[static_cast<size_t>(s)] : CardSet());
  if (t.public_info)
    for (int s = 0; s < kMaxSeats; ++s) w.value(s < r.players ? start.red3[static_cast<size_t>(s)] : 0);
  const auto steps = seen.deal.steps.first(std::min(seen.deal.steps.size(), size_t(max_game_length(r))));
  if (row_size(t) > 0)
    for (const Step& step : steps) {
      if (t.public_info) write_step_public(w, step);
      if (t.private_info != PrivateInfo::kNone)
        w.kinds(sees_hand(t, seat, step) ? step.hand_after : CardSet());
    }
  std::fill(w.p, out + observer_size(r, t), 0.0F);
}

// The observation now as text; `s` may be null where no line needs every hand.
std::string now_string(const View& v, const State* s, ObsType t) {
  const Rules& r = v.rules();
  std::string out = fmt::format("seat {} (side {})", v.seat(), r.team_of(v.seat()));
  if (t.public_info)
    out += fmt::format("; actor {}; phase {}; flags {}; turn value {}", v.actor(),
                       static_cast<int>(v.phase()), v.turn_flags(), v.turn_value());
  out += '\n';
  if (t.private_info == PrivateInfo::kSinglePlayer)
    out += fmt::format("hand: {}\n", cards_to_string(v.hand()));
  if (t.private_info == PrivateInfo::kAllPlayers && s)
    for (int seat = 0; seat < r.players; ++seat)
      out += fmt::format("hand of seat {}: {}\n", seat, cards_to_string(s->hand[seat]));
  if (!t.public_info) return out;
  for (int seat = 0; seat < r.players; ++seat)
    out +=
        fmt::format("seat {}: {} cards, red threes {}, known {}, discarded {:#x}\n", seat, v.hand_size(seat),
                    v.red_threes(seat), cards_to_string(v.known(seat)), v.discarded(seat));
  for (int team = 0; team < r.teams; ++team) {
    std::string melds;
    for (int k = kTwo; k <= kLastNatural; ++k)
      if (v.melds(team).size(k) > 0)
        melds += fmt::format(" {}: {};", meld_token(k), cards_to_string(v.melds(team).cards(k)));
    out += fmt::format("side {} (score {}):{}\n", team, v.score_before(team), melds.empty() ? " -" : melds);
  }
  std::string pile;
  for (int i = 0; i < v.pile_size(); ++i) pile += (i ? " " : "") + std::string(kind_token(v.pile_card(i)));
  out += fmt::format("pile: {}{}; stock {}\n", pile, v.pile_frozen() ? " (frozen)" : "", v.stock_size());
  return out;
}

// The first line of the information state: the hands dealt, the red threes exposed then.
std::string dealt_line(const Seen& seen, ObsType t) {
  const Rules& r = seen.v.rules();
  const DealStart& start = seen.deal.start;
  std::string out;
  if (t.private_info == PrivateInfo::kSinglePlayer)
    out = "dealt: " + cards_to_string(start.hand[static_cast<size_t>(seen.v.seat())]);
  if (t.private_info == PrivateInfo::kAllPlayers)
    for (int s = 0; s < r.players; ++s)
      out += fmt::format("{}seat {} {}", s ? ", " : "dealt: ", s,
                         cards_to_string(start.hand[static_cast<size_t>(s)]));
  if (t.public_info) {
    out += out.empty() ? "red threes" : "; red threes";
    for (int s = 0; s < r.players; ++s) out += fmt::format(" {}", start.red3[static_cast<size_t>(s)]);
  }
  return out.empty() ? out : out + '\n';
}

std::string recall_string(const Seen& seen, ObsType t) {
  const Rules& r = seen.v.rules();
  const int seat = seen.v.seat();
  std::string out = dealt_line(seen, t);
  std::array<int, kMaxSeats> red3{};
  for (int s = 0; s < r.players; ++s)
    red3[static_cast<size_t>(s)] = seen.deal.start.red3[static_cast<size_t>(s)];
  int number = 0;
  for (const Step& step : seen.deal.steps) {
    ++number;
    const bool hand = sees_hand(t, seat, step);
    if (!t.public_info) {
      if (hand) out += fmt::format("step {}: hand {}\n", number, cards_to_string(step.hand_after));
      continue;
    }
    out += fmt::format("seat {}: {}", step.seat, action_to_string(step.action));
    int& reds = red3[static_cast<size_t>(step.seat)];
    if (step.red3_after != reds) out += fmt::format("; red threes {}", step.red3_after);
    reds = step.red3_after;
    if (hand) out += fmt::format("; hand {}", cards_to_string(step.hand_after));
    out += '\n';
  }
  return out + now_string(seen.v, &seen.s(), t);
}

}  // namespace

std::vector<TensorPiece> observer_pieces(const Rules& r, ObsType t) {
  if (!t.perfect_recall) return now_layout(t);
  std::vector<TensorPiece> out{{"observation", 0, {now_size(t)}}};
  if (t.private_info == PrivateInfo::kSinglePlayer) out.push_back({"dealt_hand", 0, {kKindNb}});
  if (t.private_info == PrivateInfo::kAllPlayers) out.push_back({"dealt_hands", 0, {kMaxSeats, kKindNb}});
  if (t.public_info) out.push_back({"dealt_red_threes", 0, {kMaxSeats}});
  if (row_size(t) > 0) out.push_back({"history", 0, {max_game_length(r), row_size(t)}});
  return with_offsets(std::move(out));
}

int observer_size(const Rules& r, ObsType t) {
  if (!t.perfect_recall) return now_size(t);
  int n = now_size(t) + max_game_length(r) * row_size(t) + (t.public_info ? kMaxSeats : 0);
  if (t.private_info == PrivateInfo::kSinglePlayer) n += kKindNb;
  if (t.private_info == PrivateInfo::kAllPlayers) n += kMaxSeats * kKindNb;
  return n;
}

void observer_tensor(const DealSeen& deal, int seat, ObsType t, float* out) {
  const Seen seen{deal, View(deal.now, seat)};
  if (t.perfect_recall)
    write_recall(seen, t, out);
  else
    write_now(seen.v, &deal.now, t, out);
}

std::string observer_string(const DealSeen& deal, int seat, ObsType t) {
  const Seen seen{deal, View(deal.now, seat)};
  return t.perfect_recall ? recall_string(seen, t) : now_string(seen.v, &deal.now, t);
}

void observation_tensor(const View& v, float* out) { write_now(v, nullptr, ObsType{}, out); }

std::string observation_string(const View& v) { return now_string(v, nullptr, ObsType{}); }

}  // namespace canasta
