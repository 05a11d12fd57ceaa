// What one seat may know: its own hand and everything public. A View is a
// window on a State whose accessors answer only what the seat may know: other
// hands appear only as sizes, the stock only as a size. Agents decide from a
// View and never see the State. A View is cheap (two words) and must not
// outlive the State it looks at.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "canasta/engine.h"
#include "canasta/rng.h"
#include "canasta/state.h"

namespace canasta {

class View {
 public:
  View(const State& s, int seat) : s_(&s), seat_(seat) {}

  int seat() const { return seat_; }
  const Rules& rules() const { return s_->rules; }
  CardSet hand() const { return s_->hand[seat_]; }
  int hand_size(int seat) const { return s_->hand[seat].total(); }
  int stock_size() const { return s_->stock_size(); }
  const TeamMelds& melds(int team) const { return s_->melds[team]; }
  int red_threes(int seat) const { return s_->red3[seat]; }
  int team_red_threes(int team) const { return canasta::team_red_threes(*s_, team); }
  // What side `team` shows of the deal: its melded cards, canasta bonuses
  // and red threes (hands are hidden).
  int table_score(int team) const {
    return canasta::table_score(rules(), melds(team), team_red_threes(team));
  }
  // The seat's side's table score less the best other side's.
  int table_lead() const {
    const int mine = rules().team_of(seat_);
    int best_other = -1 << 30;
    for (int t = 0; t < rules().teams; ++t)
      if (t != mine) best_other = std::max(best_other, table_score(t));
    return table_score(mine) - best_other;
  }
  // The discard pile: public to a perfect memory (every discard is seen and
  // the pile is only ever taken whole).
  int pile_size() const { return s_->pile_size; }
  int pile_card(int i) const { return i >= 0 && i < s_->pile_size ? s_->pile[i] : -1; }
  int top() const { return s_->pile_size ? s_->top() : -1; }
  CardSet pile() const { return s_->pile_set(); }
  bool pile_frozen() const { return s_->pile_frozen; }
  // Cards `seat` took with the pile and has not played since.
  CardSet known(int seat) const { return s_->known[seat]; }
  // Bit k: `seat` has discarded kind k in this deal.
  uint16_t discarded(int seat) const { return s_->discarded[seat]; }
  int32_t score_before(int team) const { return s_->score_before[team]; }
  int dealer() const { return s_->dealer; }
  int to_move() const { return s_->seat; }
  int actor() const { return s_->actor(); }
  Phase phase() const { return s_->phase; }
  uint16_t turn_flags() const { return s_->flags; }
  int turn_value() const { return s_->turn_value; }
  int turns() const { return s_->turns; }
  int opening_minimum(int team) const { return canasta::opening_minimum(*s_, team); }
  // The legal actions of the seat (when it is the actor): they depend only on
  // the actor's hand and public facts.
  // Empty when the seat is not the actor.
  void legal_actions(ActionList& out) const {
    out.clear();
    if (actor() == seat_) canasta::legal_actions(*s_, out);
  }
  // The same, with the costliest checks left to the caller (engine.h).
  void legal_actions(ActionList& out, DeferredChecks& later) const {
    out.clear();
    later.clear();
    if (actor() == seat_) canasta::legal_actions(*s_, out, &later);
  }
  bool passes_deferred_check(Action a) const { return canasta::passes_deferred_check(*s_, a); }
  // In the seat's meld phase: whether it can still go out this turn, now or
  // after the legal meld `after` (engine.h); false when it is not the actor.
  bool can_go_out(Action after = Action{}) const {
    return actor() == seat_ && canasta::can_go_out(*s_, after);
  }
  // A full state consistent with this view, drawn uniformly from all such
  // states: the cards the seat cannot see (other hands beyond their known
  // cards, the stock) dealt at random from the unseen cards, respecting every
  // hand size and every known card. Only public facts and the seat's own hand
  // are read. For determinizing search.
  //
  // While the seat answers "may I go out?", the asker's hand is hidden but
  // constrained (asking was legal: the asker can go out after a yes and
  // finish the turn after a no). Samples are then drawn again until one
  // meets the constraint, up to `tries` times, after which the sample comes
  // from determinize_exact(): never an inconsistent one.
  static constexpr int kDeterminizeTries = 100000;
  State determinize(Rng& rng, int tries = kDeterminizeTries) const;
  // The same distribution without rejection: every possible hidden part of
  // the asker's hand is enumerated (skipping those with two cards that no
  // meld can take), weighted by the number of deals that give it, and one is
  // drawn; then the other hidden cards are dealt. Slow when the asker holds
  // many hidden cards; determinize() needs it only when rejection fails.
  State determinize_exact(Rng& rng) const;
  // The multiset of cards the seat cannot place: the deck less its own hand,
  // everything on the table, the pile, the red threes shown and the cards
  // known to be in other hands.
  CardSet unseen() const;
  // Two views are equal when every accessor answers the same.
  friend bool operator==(const View& a, const View& b);
  // In the answer phase: the asker's hand in `d` leaves a legal turn after
  // either answer (asking was legal with it).
  static bool answer_consistent(const State& d);

 private:
  // Deals the hidden cards at random; with `fixed_seat` >= 0, that seat's
  // hidden cards are `fixed` (taken from the unseen cards) instead.
  State sample(Rng& rng, int fixed_seat = -1, CardSet fixed = {}) const;

  const State* s_;
  int seat_;
};

}  // namespace canasta
