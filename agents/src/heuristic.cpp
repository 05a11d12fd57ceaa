// The heuristic agent's decisions (its parameters and the advice behind
// them: canasta/heuristic.h).
#include "canasta/heuristic.h"

#include <algorithm>
#include <bit>

#include "best_first.h"
#include "canasta/engine.h"

namespace canasta {

namespace {

// What a card left in a hidden hand is assumed to cost its side: the mean
// card value of the two-deck pack, 1,180 points over 108 cards.
constexpr int kHiddenCardValue = 11;

// The binomial coefficients C(n, k) for every n up to the largest pack, each
// worked out by the same product (the same bits as working it out each
// time, which the heuristic's decisions depend on), at compile time.
struct Binomials {
  std::array<std::array<double, kMaxCards + 1>, kMaxCards + 1> c{};
  constexpr Binomials() {
    for (int n = 0; n <= kMaxCards; ++n)
      for (int k = 0; k <= n; ++k) {
        double v = 1;
        for (int i = 1; i <= k; ++i) v = v * (n - k + i) / i;
        c[static_cast<size_t>(n)][static_cast<size_t>(k)] = v;
      }
  }
};

constexpr Binomials kBinomials;

double choose(int n, int k) {
  if (k < 0 || k > n) return 0;
  return kBinomials.c[static_cast<size_t>(n)][static_cast<size_t>(k)];
}

// The chance that `draws` cards dealt from `pool` cards, `good` of them of
// the kind wanted, hold at least `need` of that kind (hypergeometric tail).
double at_least(int need, int good, int pool, int draws) {
  if (need <= 0) return 1;
  if (draws <= 0 || good <= 0 || pool <= 0) return 0;
  draws = std::min(draws, pool);
  const double all = choose(pool, draws);
  double below = 0;
  for (int x = 0; x < need; ++x) below += choose(good, x) * choose(pool - good, draws - x) / all;
  return std::clamp(1 - below, 0.0, 1.0);
}

// Which sides may go out (have the canastas they need), worked out once a decision.
struct MayGoOut {
  std::array<bool, kMaxTeams> side{};
  explicit MayGoOut(const View& v) {
    for (int t = 0; t < v.rules().teams; ++t) side[t] = v.melds(t).canastas() >= v.rules().canastas_to_go_out;
  }
};

// An opponent whose side may go out holds at most `cards` cards.
bool opponent_close(const View& v, const MayGoOut& may, int cards) {
  const Rules& r = v.rules();
  const int mine = r.team_of(v.seat());
  for (int s = 0, t = 0; s < r.players; ++s, t = t + 1 < r.teams ? t + 1 : 0)  // t: the side of seat s
    if (t != mine && may.side[t] && v.hand_size(s) <= cards) return true;
  return false;
}

// The melds of `theirs` that the pile, with a discard on top, would make
// canastas, were the next player to take it: those it makes without the
// discard, plus one where the discard is the card missing.
class CanastasFilled {
 public:
  // Worked out a byte a rank, the even ranks in one word and the odd in
  // the other (as TeamMelds::rank_canastas does).
  CanastasFilled(const TeamMelds& theirs, CardSet pile) {
    using namespace detail;
    for (int parity = 0; parity < 2; ++parity) {
      const auto bytes = [parity](CardSet c) { return parity ? odd_bytes(c) : even_bytes(c); };
      const uint64_t size = bytes(theirs.naturals) + bytes(theirs.jokers) + bytes(theirs.twos);
      // The natural melds short of a canasta.
      const uint64_t open = at_least_bytes(bytes(theirs.naturals), 1) & ~at_least_bytes(size, kCanastaSize) &
                            kNaturalTops[parity];
      const uint64_t with_pile = size + bytes(pile);
      const uint64_t filled = at_least_bytes(with_pile, kCanastaSize);
      base_ += byte_tops(open & filled);
      for (uint64_t b = open & at_least_bytes(with_pile, kCanastaSize - 1) & ~filled; b; b &= b - 1)
        last_ |= static_cast<uint16_t>(1U << (2 * (std::countr_zero(b) >> 3) + parity));
    }
  }
  int operator()(int kind) const { return base_ + (last_ >> kind & 1U); }

 private:
  int base_ = 0;
  uint16_t last_ = 0;  // bit r: the discard of rank r completes that canasta
};

}  // namespace

namespace {

// out_estimate with the table lead already computed (the heuristic needs it
// apart too).
int out_estimate(const View& view, int table_lead) {
  const Rules& rules = view.rules();
  const int my_team = rules.team_of(view.seat());
  int estimate = table_lead + kGoingOutBonus;
  for (int s = 0, t = 0; s < rules.players;
       ++s, t = t + 1 < rules.teams ? t + 1 : 0) {  // t: the side of seat s
    if (s == view.to_move()) continue;
    if (t != my_team)
      estimate += rules.teams == 2 ? kHiddenCardValue * view.hand_size(s)
                                   : kHiddenCardValue * view.hand_size(s) / (rules.teams - 1);
    else
      estimate -= s == view.seat() ? view.hand().value() : kHiddenCardValue * view.hand_size(s);
  }
  return estimate;
}

}  // namespace

int out_estimate(const View& view) { return out_estimate(view, view.table_lead()); }

bool out_in_reach(CardSet hand, const TeamMelds& own) {
  return detail::stuck_card(hand, own) != detail::kTwoStuck;
}

TakeOdds::TakeOdds(const View& view) : unseen_(view.unseen()) {
  const Rules& rules = view.rules();
  const int next = rules.next_seat(view.seat());
  theirs_ = view.melds(rules.team_of(next));
  frozen_ = view.pile_frozen() || !theirs_.any();
  known_ = view.known(next);
  pool_ = unseen_.total();
  hidden_ = view.hand_size(next) - known_.total();
  for (auto& row : tails_) row.fill(-1);
}

double TakeOdds::tail(int need, int good) const {
  if (need <= 0) return 1;
  double& t = tails_[static_cast<size_t>(need - 1)][static_cast<size_t>(good)];
  if (t < 0) t = at_least(need, good, pool_, hidden_);
  return t;
}

double TakeOdds::operator()(int kind) const {
  if (!frozen_ && theirs_.has(kind)) return 1;
  const int kn = known_.count(kind);
  const double two = tail(2 - kn, unseen_.count(kind));
  if (frozen_) return two;
  const double one = tail(1 - kn, unseen_.count(kind));
  if (has_wild_ < 0) has_wild_ = known_.wilds() > 0 ? 1.0 : at_least(1, unseen_.wilds(), pool_, hidden_);
  return two + (one - two) * has_wild_;
}

namespace {

// No meld chosen: below every score a meld can get.
constexpr int kNoScore = -1 << 30;

// Whether the heuristic would go out (or answer yes), playing the score:
// the deal's margin if the player to move went out now, unless it stays in
// to build while the opponents cannot go out; and whatever the margin when
// an opponent who may go out is close.
bool wants_out(const View& view, const HeuristicParams& p, const MayGoOut& may, int table_lead) {
  const Rules& rules = view.rules();
  const int my_team = rules.team_of(view.seat());
  const int estimate = out_estimate(view, table_lead);
  bool they_may_go_out = false;
  for (int t = 0; t < rules.teams; ++t) they_may_go_out = they_may_go_out || (t != my_team && may.side[t]);
  const bool extend = p.extend > 0 && !they_may_go_out && view.stock_size() >= p.extend;
  return (estimate >= p.out_lead && !extend) || (p.out_danger > 0 && opponent_close(view, may, p.out_danger));
}

// The table lead and whether the heuristic would go out, each worked out
// when first asked: most decisions of the meld phase need neither.
class Outlook {
 public:
  Outlook(const View& view, const HeuristicParams& p, const MayGoOut& may) : view_(view), p_(p), may_(may) {}
  int table_lead() const {
    if (!lead_known_) lead_ = view_.table_lead(), lead_known_ = true;
    return lead_;
  }
  bool want_out() const {
    if (want_ < 0) want_ = wants_out(view_, p_, may_, table_lead()) ? 1 : 0;
    return want_ == 1;
  }

 private:
  const View& view_;
  const HeuristicParams& p_;
  const MayGoOut& may_;
  mutable int lead_ = 0;
  mutable bool lead_known_ = false;
  mutable int want_ = -1;
};

// Take the pile when it is big or rich enough, or when taking it is the
// only legal action; otherwise draw (or, when the stock is empty, pass
// and let the deal end). Of the ways to take it, two naturals first,
// then the preferred wild card.
Action take_or_draw(const View& view, const HeuristicParams& p, const ActionList& legal) {
  Action take{}, other{};
  int take_rank = 1 << 30;
  bool have_other = false;
  for (Action a : legal) {
    if (a.type() != ActionType::kTakePile) {
      if (!have_other) other = a, have_other = true;
      continue;
    }
    const int rank = (a.jokers() + a.twos() == 0) ? 0 : (a.jokers() > 0) == p.jokers_first ? 1 : 2;
    if (rank < take_rank) take_rank = rank, take = a;
  }
  const bool worth = (view.pile_size() >= p.take_min || view.pile().value() >= p.take_value) &&
                     (take_rank == 0 || view.pile_size() >= p.take_wild);
  if (take_rank < (1 << 30) && (worth || !have_other)) return take;
  return other;
}

// What the meld phase weighs each meld by: the hand, the side's melds, and
// what the turn is about (opening the side, waiting on the pile, going out,
// dumping the hand).
struct MeldPlan {
  MeldPlan(const View& view, const HeuristicParams& p, const Outlook& outlook, bool dumping)
      : hand(view.hand()),
        own(view.melds(view.rules().team_of(view.seat()))),
        wilds(hand.wilds()),
        opening(view.turn_flags() & kOpening),
        pile_pending(view.turn_flags() & kPilePending),
        open_need(opening ? view.opening_minimum(view.rules().team_of(view.seat())) - view.turn_value() : 0),
        dump(dumping),
        view_(view),
        p_(p),
        outlook_(outlook) {}

  const CardSet hand;
  const TeamMelds& own;
  const int wilds;
  const bool opening;
  // While the pile taken to open waits for the minimum, it is not in the hand yet.
  const bool pile_pending;
  const int open_need;  // the points still missing for the opening
  const bool dump;
  bool want_out() const { return outlook_.want_out(); }
  // Going out this turn, when it wants to and can with several melds: every
  // meld that keeps the way out open, wild cards and pairs included (worked
  // out when first asked).
  bool going_out() const {
    if (going_ < 0)
      going_ =
          p_.plan_out && !pile_pending && out_in_reach(hand, own) && want_out() && view_.can_go_out() ? 1 : 0;
    return going_ == 1;
  }

 private:
  const View& view_;
  const HeuristicParams& p_;
  const Outlook& outlook_;
  mutable int going_ = -1;
};

// The worth of melding (or, spanish, cleaning) with `a` this turn, or
// kNoScore when the heuristic holds it back (and for every other action).
// When going out, a meld must also keep the way out open: the caller checks
// that (view.can_go_out(a)) only for a meld that would be chosen.
int meld_score(Action a, const MeldPlan& m, const HeuristicParams& p) {
  // A cleaning (spanish) grows the meld `dest` by the freed wild card and
  // any pair; a meld of kind kTwo is the meld of wild cards only.
  const bool clean = a.type() == ActionType::kClean;
  if ((a.type() != ActionType::kMeld && !clean) || (clean && !p.clean)) return kNoScore;
  const int k = clean ? a.dest() : a.kind();
  const bool wild_meld = !clean && k == kTwo;
  const int w = clean ? 0 : a.jokers() + a.twos();
  // The cards from the hand, and their value.
  const int used = clean ? a.cards().total() : a.naturals() + w;
  const int value = a.value();
  const bool toward_out = !m.pile_pending && m.hand.total() - used <= 1;
  if (toward_out && !m.want_out()) return kNoScore;
  const bool completes = k != kBlack3 && !m.own.is_canasta(k) && m.own.size(k) + used >= kCanastaSize;
  // Cards kept to build with, and to take the pile with, while staying in.
  if (!m.pile_pending && !m.opening && !completes && m.hand.total() - used < p.reserve && !m.want_out())
    return kNoScore;
  const bool free = toward_out || m.dump || m.going_out();
  const bool wild_ok = p.wild_meld > 0 && (m.own.wild_meld() > 0 || m.wilds >= p.wild_meld);
  if (wild_meld ? !wild_ok && !free
                : w > 0 && m.wilds - w < (m.opening && p.open_wilds >= 0 ? p.open_wilds : p.keep_wilds) &&
                      !free && !(completes && p.canasta_wilds))
    return kNoScore;
  if (!clean && !wild_meld && !m.own.has(k) && m.hand.count(k) < p.meld_min && !free) return kNoScore;
  int score = 100 * used - 25 * w + value / 10 + 5 * (p.jokers_first ? a.jokers() : a.twos());
  if (completes) score += wild_meld ? 2500 : (!clean && w + m.own.wilds(k) == 0) ? 900 : 600;
  if (wild_meld) score += 25 * w;  // wild cards are not spent there: they build the wild canasta
  if (clean) score += m.own.wilds(a.kind()) == 1 ? 900 : 300;  // the last wild card out: a natural canasta
  if (m.opening && p.open_lean) {
    // Just enough to open: a meld that meets the minimum alone, with the
    // fewest cards and wild cards; else the most points a card, sparing
    // wild cards, so that the melds still needed stay few.
    score = value >= m.open_need ? 1000000 - 1000 * used - 100 * w : 1000 * value / used - 300 * w;
  }
  return score;
}

// Melding is compulsory here (an opening under way, or going out after a
// yes): the legal meld with the most cards.
Action compulsory_meld(const ActionList& legal) {
  Action best{};
  int best_score = kNoScore;
  for (Action a : legal) {
    if (a.type() != ActionType::kMeld) continue;
    const int score = 100 * (a.naturals() + a.jokers() + a.twos());
    if (score > best_score) best_score = score, best = a;
  }
  return best_score > kNoScore ? best : legal[0];
}

// The discard, weighed by the chance that the next opponent can take the
// pile with it (TakeOdds).
Action safest_discard(const View& view, const HeuristicParams& p, const ActionList& legal,
                      const Outlook& outlook) {
  const CardSet hand = view.hand();
  const Rules& rules = view.rules();
  const TeamMelds& own = view.melds(rules.team_of(view.seat()));
  const int next = rules.next_seat(view.seat());
  const TeamMelds& theirs = view.melds(rules.team_of(next));
  const TakeOdds odds(view);
  const int pile_after = view.pile_size() + 1;
  const CanastasFilled canastas_filled(theirs, view.pile());

  const bool next_close = view.hand_size(next) <= p.freeze_hand;
  const bool guarded = p.freeze_guard && own.any() && !theirs.any();
  const bool freeze_now = !view.pile_frozen() && !guarded &&
                          ((p.freeze > 0 && view.pile_size() >= p.freeze) ||
                           (p.freeze_value > 0 && view.pile().value() >= p.freeze_value) ||
                           (next_close && -outlook.table_lead() >= p.freeze_behind));
  Action pick{};
  double pick_cost = 1e300;
  for (Action a : legal) {
    if (a.type() != ActionType::kDiscard) continue;
    const int k = a.kind();
    double cost = 0;
    if (is_wild(k)) {
      // The two before the joker. Freezing rather than giving the pile: its
      // price against the other discards' risk (the guard holds here too).
      const bool weighed = p.freeze_cost > 0 && !view.pile_frozen() && !guarded;
      cost = freeze_now ? -1e6 + card_value(k) : (weighed ? p.freeze_cost : 1e6) + card_value(k);
    } else if (k == kBlack3) {
      cost = -50.0 - 5.0 * pile_after;  // blocks the next player, and can hardly be melded
    } else {
      // The risk below is never negative (safety and fill_risk are not):
      // with the other terms alone at the best cost so far, this discard
      // cannot be picked, and its risk need not be worked out.
      const int kept = 60 * (hand.count(k) - 1);  // a pair or more: kept for the pile
      const int joins = own.has(k) ? 40 : 0;      // it would join the side's meld
      const int dead = odds.unseen().count(k) == 0 && hand.count(k) == 1 ? 30 : 0;  // nothing left to pair it
      const int shed = card_value(k);                                               // shed points
      if (kept + joins - dead - shed >= pick_cost && p.safety >= 0 && p.fill_risk >= 0) continue;
      const double chance = odds(k);
      const int filled = chance > 0 && p.fill_risk > 0 ? canastas_filled(k) : 0;  // weighed by chance
      cost += chance * p.safety * (pile_after + 2 + p.fill_risk * filled) / 10.0;
      // Added one at a time after the risk: the sums round as the tuning saw them.
      cost += kept;
      cost += joins;
      cost -= dead;
      cost -= shed;
    }
    if (cost < pick_cost) pick_cost = cost, pick = a;
  }
  return pick;
}

}  // namespace

Action HeuristicAgent::act(const View& view, Rng& /*rng*/) {
  view.legal_actions(legal_);
  if (legal_.size() == 1) return legal_[0];
  if (view.phase() == Phase::kDraw) return take_or_draw(view, p_, legal_);
  const MayGoOut may(view);
  const Outlook outlook(view, p_, may);
  if (view.phase() == Phase::kAnswer)
    return Action::make(outlook.want_out() ? ActionType::kYes : ActionType::kNo);
  const bool dump = p_.dump_hand > 0 && opponent_close(view, may, p_.dump_hand);

  // Meld phase: the meld worth most, holding back wild cards and sets.
  const MeldPlan plan(view, p_, outlook, dump);
  // The meld with the highest score, the first in order among equals; when
  // going out, the highest that keeps the way out open, checked best first.
  Action best{};
  int best_score = kNoScore, n_going = 0;
  bool can_discard = false;
  for (int i = 0; i < legal_.size(); ++i) {
    const Action a = legal_[i];
    if (a.type() == ActionType::kDiscard) can_discard = true;
    if (a.type() == ActionType::kAsk && p_.ask && plan.want_out()) return a;
    const int score = meld_score(a, plan, p_);
    if (score == kNoScore) continue;
    if (plan.going_out())
      going_[static_cast<size_t>(n_going++)] = best_first_key(score, i);
    else if (score > best_score)
      best_score = score, best = a;
  }
  if (const int at = best_passing(going_.data(), n_going, 0,
                                  [&](int position) { return view.can_go_out(legal_[position]); });
      at >= 0)
    return legal_[at];
  if (best_score > kNoScore) return best;
  if (!can_discard) return compulsory_meld(legal_);
  return safest_discard(view, p_, legal_, outlook);
}

}  // namespace canasta
