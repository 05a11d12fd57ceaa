#include "reference.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace canasta::test {

namespace {

int meld_cards(const TeamMelds& m, int k) {
  return m.naturals.count(k) + m.jokers.count(k) + m.twos.count(k);
}

int canastas(const TeamMelds& m) {
  int n = 0;
  for (int k = kFirstNatural; k <= kLastNatural; ++k)
    if (m.naturals.count(k) > 0 && meld_cards(m, k) >= 7) ++n;
  // The meld of wild cards only sits at rank 2.
  return n + (meld_cards(m, kTwo) >= 7 ? 1 : 0);
}

bool opened(const TeamMelds& m) { return m.naturals.raw() != 0 || m.jokers.raw() != 0 || m.twos.raw() != 0; }

// The pile is frozen for everybody: it holds a wild card or a red three, or
// (spanish) it has not been taken yet in this deal.
bool pile_frozen_for_all(const State& s) {
  // Whether the pile was taken before is no fact of the cards: the state's flag says.
  if (s.rules.frozen_until_taken && s.pile_frozen) return true;
  for (int i = 0; i < s.pile_size; ++i)
    if (s.pile[i] == kJoker || s.pile[i] == kTwo || s.pile[i] == kRed3) return true;
  return false;
}

// Whether a natural meld of `nat` naturals and `wild` wild cards is legal.
bool natural_meld_ok(int nat, int wild, const Rules& r) {
  if (nat < 2 || nat + wild < 3 || wild > r.max_wilds) return false;
  if (r.wilds_le_naturals && wild > nat) return false;
  // Closed canastas: seven cards at most, eight when all are naturals.
  if (r.closed_canastas && nat + wild > (wild > 0 ? 7 : 8)) return false;
  return true;
}

int minimum(const State& s) { return s.rules.opening_minimum(s.score_before[s.rules.team_of(s.seat)]); }

bool side_opened_before_turn(const State& s) { return s.start_ranks != 0; }

// The opening this turn is started but below its minimum.
bool opening_unmet(const State& s) {
  const TeamMelds& m = s.melds[s.rules.team_of(s.seat)];
  return !side_opened_before_turn(s) && opened(m) && s.turn_value < minimum(s);
}

// Going out now (the hand empties) is allowed.
bool may_go_out(const State& s, const TeamMelds& melds_after, int turn_value_after) {
  if (s.flags & kAnsweredNo) return false;
  if (canastas(melds_after) < s.rules.canastas_to_go_out) return false;
  if (side_opened_before_turn(s)) return true;
  // An unopened side: the minimum, unless concealed after a draw from the stock.
  return turn_value_after >= minimum(s) || (s.flags & kDrewStock);
}

std::vector<Action> every_writable_action(const State& s) {
  std::vector<Action> out;
  for (auto t : {ActionType::kDraw, ActionType::kAsk, ActionType::kYes, ActionType::kNo, ActionType::kPass})
    out.push_back(Action::make(t));
  const CardSet h = s.hand[s.seat];
  for (int j = 0; j <= std::min(h.count(kJoker), 7); ++j)
    for (int t = 0; t <= std::min(h.count(kTwo), 7); ++t)
      out.push_back(Action::make(ActionType::kMeld, kTwo, 0, j, t));
  for (int k = kFirstNatural; k <= kLastNatural; ++k)
    for (int q = kTwo; q <= kLastNatural; ++q)
      for (int pair = 0; pair <= 1; ++pair)
        for (int joker = 0; joker <= 1; ++joker) out.push_back(Action::clean(k, joker != 0, q, pair != 0));
  for (int k = kBlack3; k <= kLastNatural; ++k)
    for (int x = 0; x <= h.count(k); ++x)
      for (int j = 0; j <= std::min(h.count(kJoker), 3); ++j)
        for (int t = 0; t <= std::min(h.count(kTwo), 3); ++t) {
          out.push_back(Action::make(ActionType::kMeld, k, x, j, t));
          if (x <= 2 && j <= 1 && t <= 1) out.push_back(Action::make(ActionType::kTakePile, k, x, j, t));
        }
  for (int k = 0; k < kKindNb; ++k) out.push_back(Action::make(ActionType::kDiscard, k));
  return out;
}

constexpr int64_t kNodeBudget = 20000;

bool locally_ok(const State& s, Action a);
bool discard_ok(const State& s, Action a);

bool take_ok(const State& s, Action a) {
  if (s.phase != Phase::kDraw || s.pile_size == 0) return false;
  const int top = s.pile[s.pile_size - 1];
  if (a.kind() != top || top == kJoker || top == kTwo || top == kBlack3 || top == kRed3) return false;
  const CardSet h = s.hand[s.seat];
  if (!h.contains(a.cards())) return false;
  if (s.rules.one_card_rule && h.total() == 1 && s.pile_size == 1) return false;
  const TeamMelds& m = s.melds[s.rules.team_of(s.seat)];
  const bool frozen = !opened(m) || pile_frozen_for_all(s);
  const int x = a.naturals(), w = a.jokers() + a.twos();
  bool shape;
  if (frozen)
    shape = x == 2 && w == 0;
  else if (m.naturals.count(top) > 0)
    shape = x == 0 && w == 0;
  else
    shape = (x == 2 && w == 0) || (x == 1 && w == 1);
  if (!shape) return false;
  if (!natural_meld_ok(m.naturals.count(top) + x + 1, m.jokers.count(top) + m.twos.count(top) + w, s.rules))
    return false;
  // Taking may empty the hand (the pile holding only its top, or red threes):
  // that is going out, with its conditions.
  int joins = 0;
  for (int i = 0; i < s.pile_size - 1; ++i) joins += s.pile[i] != kRed3;
  if (h.total() == a.cards().total() && joins == 0) {
    TeamMelds after = m;
    after.naturals.add(top, x + 1);
    after.jokers.add(top, a.jokers());
    after.twos.add(top, a.twos());
    return may_go_out(s, after, a.cards().value() + (top == kAce ? 20 : top >= kEight ? 10 : 5));
  }
  return true;
}

bool meld_ok(const State& s, Action a) {
  if (s.phase != Phase::kMeld) return false;
  const CardSet h = s.hand[s.seat];
  const CardSet used = a.cards();
  if (used.total() == 0 || !h.contains(used)) return false;
  const Rules& r = s.rules;
  const TeamMelds& m = s.melds[r.team_of(s.seat)];
  const int k = a.kind();
  const int w = a.jokers() + a.twos();
  if (k == kBlack3) {
    if (w != 0 || (a.naturals() != 3 && a.naturals() != 4) || m.naturals.count(kBlack3) > 0) return false;
    if (s.flags & kAnsweredNo) return false;
  } else if (k == kTwo) {
    // Wild cards only: three to seven.
    const int size = meld_cards(m, kTwo) + w;
    if (!r.wild_melds || a.naturals() != 0 || size < 3 || size > 7) return false;
  } else {
    if (!natural_meld_ok(m.naturals.count(k) + a.naturals(), m.jokers.count(k) + m.twos.count(k) + w, r))
      return false;
  }
  if (used.total() == h.total() && !(s.flags & kPilePending)) {
    TeamMelds after = m;
    after.naturals.add(k, a.naturals());
    after.jokers.add(k, a.jokers());
    after.twos.add(k, a.twos());
    return may_go_out(s, after, s.turn_value + used.value());
  }
  return true;
}

// Cleaning: a natural from the hand replaces a wild card of a mixed canasta
// of its rank; the wild card joins another meld of the side at once, or
// starts one with a natural pair from the hand.
bool clean_ok(const State& s, Action a) {
  const Rules& r = s.rules;
  if (s.phase != Phase::kMeld || !r.closed_canastas) return false;
  const int k = a.kind(), q = a.dest();
  if (k < kFirstNatural || k > kLastNatural || q == k || a.jokers() + a.twos() != 1) return false;
  if (q != kTwo && (q < kFirstNatural || q > kLastNatural)) return false;
  const CardSet h = s.hand[s.seat];
  if (!h.contains(a.cards())) return false;
  const TeamMelds& m = s.melds[r.team_of(s.seat)];
  if (m.naturals.count(k) == 0 || meld_cards(m, k) < 7) return false;  // only a canasta
  if ((a.jokers() ? m.jokers.count(k) : m.twos.count(k)) == 0) return false;
  const int pair = a.naturals();
  if (q == kTwo) {
    if (pair != 0 || meld_cards(m, kTwo) == 0 || meld_cards(m, kTwo) + 1 > 7) return false;
  } else if (pair == 0) {
    if (m.naturals.count(q) == 0 ||
        !natural_meld_ok(m.naturals.count(q), m.jokers.count(q) + m.twos.count(q) + 1, r))
      return false;
  } else if (pair != 2 || m.naturals.count(q) != 0) {
    return false;
  }
  if (a.cards().total() == h.total() && !(s.flags & kPilePending)) {
    State after = s;
    apply_unchecked(after, a);
    return may_go_out(s, after.melds[r.team_of(s.seat)], s.turn_value + a.cards().value());
  }
  return true;
}

bool discard_ok(const State& s, Action a) {
  if (s.phase != Phase::kMeld || s.hand[s.seat].count(a.kind()) == 0) return false;
  if (s.flags & kPilePending) return false;
  const int h = s.hand[s.seat].total();
  if (h >= 2) return !(s.flags & (kAnsweredYes | kCommitted)) && !opening_unmet(s);
  return may_go_out(s, s.melds[s.rules.team_of(s.seat)], s.turn_value);
}

struct Search {
  std::unordered_map<uint64_t, bool> memo;
  int64_t nodes = 0;
  bool exhausted = false;  // the node budget ran out: no answer

  static uint64_t key(const State& s) {
    const TeamMelds& m = s.melds[s.rules.team_of(s.seat)];
    uint64_t h = s.hand[s.seat].raw() * 0x9E3779B97F4A7C15ULL;
    h ^= (m.naturals.raw() + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
    h ^= (m.jokers.raw() * 31 + m.twos.raw() + 1) * 0x94D049BB133111EBULL;
    h ^= (static_cast<uint64_t>(s.flags) << 32 | static_cast<uint64_t>(s.turn_value) << 8 |
          static_cast<uint64_t>(s.phase)) *
         0xD6E8FEB86659FD93ULL;
    h ^= static_cast<uint64_t>(s.pile_size) * 0xA0761D6478BD642FULL;
    return h;
  }

  // The turn that `start_turns` began can be finished from `s`. Melds made one
  // after another commute (each rank's meld depends only on its own cards,
  // the wild cards are shared), so the search tries them in rank order:
  // after a meld of rank r only ranks >= r, until the rest of a pile taken
  // for an opening arrives, which changes the hand.
  bool finishes(const State& s, int start_turns, int from_rank = 0) {
    if (s.over() || s.turns != start_turns) return true;
    if (exhausted || ++nodes > kNodeBudget) {
      exhausted = true;
      return false;
    }
    if (s.phase == Phase::kAnswer) {
      State yes = s, no = s;
      apply_unchecked(yes, Action::make(ActionType::kYes));
      apply_unchecked(no, Action::make(ActionType::kNo));
      return finishes(yes, start_turns) && finishes(no, start_turns);
    }
    const uint64_t k = key(s) ^ (static_cast<uint64_t>(from_rank) * 0xE7037ED1A0B428DBULL);
    if (auto it = memo.find(k); it != memo.end()) return it->second;
    bool ok = false;
    for (int kind = 0; kind < kKindNb && !ok; ++kind)
      ok = discard_ok(s, Action::make(ActionType::kDiscard, kind));
    for (Action a : every_writable_action(s)) {
      if (ok) break;
      if (a.type() == ActionType::kDiscard || !locally_ok(s, a)) continue;
      if (a.type() == ActionType::kMeld && a.kind() < from_rank) continue;
      State next = s;
      apply_unchecked(next, a);
      const bool arrived = (s.flags & kPilePending) && !(next.flags & kPilePending);
      const int next_from = a.type() == ActionType::kMeld && !arrived ? a.kind() : 0;
      ok = finishes(next, start_turns, next_from);
    }
    memo[k] = ok;
    return ok;
  }
};

bool ask_ok(const State& s) {
  const Rules& r = s.rules;
  if (s.phase != Phase::kMeld || !r.ask_partner || r.seats_per_team() < 2) return false;
  return !(s.flags & (kAsked | kMeldedExtra));
}

bool locally_ok(const State& s, Action a) {
  switch (a.type()) {
    case ActionType::kDraw:
      return s.phase == Phase::kDraw && s.stock_size() > 0 && a.raw() == 0;
    case ActionType::kTakePile:
      return take_ok(s, a);
    case ActionType::kMeld:
      return meld_ok(s, a);
    case ActionType::kAsk:
      return ask_ok(s);
    case ActionType::kYes:
    case ActionType::kNo:
      return s.phase == Phase::kAnswer;
    case ActionType::kPass:
      return false;  // decided below: it depends on the takes
    case ActionType::kDiscard:
      return discard_ok(s, a);
    case ActionType::kClean:
      return clean_ok(s, a);
    case ActionType::kTypeNb:
      return false;
  }
  return false;
}

}  // namespace

std::optional<std::vector<Action>> reference_legal_actions(const State& s) {
  std::vector<Action> out;
  if (s.over()) return out;
  Search search;
  bool any_take = false, add_take = false;
  for (Action a : every_writable_action(s)) {
    if (!locally_ok(s, a)) continue;
    State next = s;
    apply_unchecked(next, a);
    bool ok;
    if (a.type() == ActionType::kAsk) {
      // Asking is allowed when going out is possible; the answer must never
      // strand the player: the turn must finish after a yes and after a no.
      ok = search.finishes(next, s.turns);
    } else if (a.type() == ActionType::kDraw || a.type() == ActionType::kYes || a.type() == ActionType::kNo) {
      ok = true;
    } else {
      ok = search.finishes(next, s.turns);
    }
    if (!ok) continue;
    out.push_back(a);
    if (a.type() == ActionType::kTakePile) {
      any_take = true;
      add_take |= a.naturals() == 0;
    }
  }
  // With an empty stock: a pile that can be added to a meld must be taken;
  // otherwise a takeable pile may be declined.
  if (s.phase == Phase::kDraw && s.stock_size() == 0 && any_take && !add_take &&
      s.rules.stock_end != StockEnd::kMustTake)
    out.push_back(Action::make(ActionType::kPass));
  if (search.exhausted) return std::nullopt;
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace canasta::test
