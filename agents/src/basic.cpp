// The basic agent's decisions (its parameters: canasta/basic.h).
#include "canasta/basic.h"

#include <algorithm>

#include "best_first.h"
#include "canasta/engine.h"

namespace canasta {

namespace {

// 1. Take the pile when it is big enough (or when drawing is impossible and
// declining would end the deal); otherwise draw.
Action draw_or_take(const ActionList& legal, int pile_size, const BasicParams& p) {
  Action take{}, other{};
  bool have_take = false, have_other = false;
  for (Action a : legal) {
    if (a.type() == ActionType::kTakePile && !have_take) take = a, have_take = true;
    if (a.type() != ActionType::kTakePile && !have_other) other = a, have_other = true;
  }
  if (have_take && pile_size >= p.take_min) return take;
  return have_other ? other : take;
}

// Where melding is compulsory (an opening under way, or going out after a
// yes): the position of the legal meld with the most cards, or -1. Melds
// still to check (`later`) pass `passes` first; `keys` holds theirs.
template <class Passes>
int most_cards_meld(const ActionList& legal, const DeferredChecks& later, uint64_t* keys,
                    const Passes& passes) {
  uint64_t best = 0;
  int waiting = 0;
  for (int i = 0, j = 0; i < legal.size(); ++i) {
    const Action a = legal[i];
    const bool waits = j < later.size() && later[j] == i;
    j += waits;
    if (a.type() != ActionType::kMeld) continue;
    const uint64_t k = best_first_key(100 * (a.naturals() + a.jokers() + a.twos()), i);
    if (waits)
      keys[waiting++] = k;
    else
      best = std::max(best, k);
  }
  if (const int at = best_passing(keys, waiting, best, passes); at >= 0) return at;
  return best > 0 ? key_position(best) : -1;
}

// 3. The safest discard, from what the table shows.
Action safest_discard(const View& view, const ActionList& legal, const BasicParams& p) {
  const Rules& rules = view.rules();
  const CardSet hand = view.hand();
  const int next = rules.next_seat(view.seat());
  const TeamMelds& theirs = view.melds(rules.team_of(next));
  const TeamMelds& ours = view.melds(rules.team_of(view.seat()));
  uint16_t they_discarded = 0;
  for (int s = 0; s < rules.players; ++s)
    if (rules.team_of(s) != rules.team_of(view.seat())) they_discarded |= view.discarded(s);
  const bool next_close = p.freeze_hand > 0 && view.hand_size(next) <= p.freeze_hand;
  const bool next_opened = view.melds(rules.team_of(next)).any();
  const bool freeze_now = ((p.freeze > 0 && view.pile_size() >= p.freeze) || next_close) &&
                          !view.pile_frozen() && (p.freeze_unopened || next_opened);
  Action pick{};
  int pick_danger = 1 << 30;
  for (Action a : legal) {
    if (a.type() != ActionType::kDiscard) continue;
    const int k = a.kind();
    int danger = 0;
    if (is_wild(k)) {
      danger += freeze_now ? -2000 : 1000;
    } else if (k == kBlack3) {
      danger -= 500;  // blocks the next player
    } else {
      if (theirs.has(k)) danger += 300;
      danger += 200 * std::min(view.known(next).count(k), 2);
      if (they_discarded >> k & 1U) danger -= 100;
      if (ours.has(k)) danger += 150;
      danger += 60 * (hand.count(k) - 1);
      danger -= card_value(k);
    }
    if (danger < pick_danger) pick_danger = danger, pick = a;
  }
  return pick;
}

}  // namespace

int BasicAgent::first_legal(const View& view) const {
  for (int i = 0, j = 0; i < legal_.size(); ++i) {
    if (j == later_.size() || later_[j] != i) return i;
    ++j;
    if (view.passes_deferred_check(legal_[i])) return i;
  }
  return 0;  // not reached: a turn always has a legal action
}

// The actions come with the costly legality checks of the meld phase left
// undone (engine.h: DeferredChecks): a meld still to check is checked only
// when it would be the one chosen, and the choice is the one the whole legal
// list gives.
Action BasicAgent::act(const View& view, Rng& /*rng*/) {
  view.legal_actions(legal_, later_);
  if (legal_.size() == 1) return legal_[0];  // a turn always has a legal action
  if (view.phase() == Phase::kDraw) return draw_or_take(legal_, view.pile_size(), p_);
  const CardSet hand = view.hand();
  const Rules& rules = view.rules();

  // Whether to go out, worked out when first needed (most meld decisions
  // never need it).
  int want = -1;
  auto want_out = [&] {
    if (want < 0) {
      int their_cards = 0;
      for (int seat = 0; seat < rules.players; ++seat)
        if (rules.team_of(seat) != rules.team_of(view.seat())) their_cards += view.hand_size(seat);
      want = p_.go_out && their_cards >= p_.out_cards && view.table_lead() >= p_.out_margin;
    }
    return want == 1;
  };
  if (view.phase() == Phase::kAnswer) return Action::make(want_out() ? ActionType::kYes : ActionType::kNo);

  // Meld phase. 2. The meld that puts down the most cards, holding back
  // `keep_wilds` wild cards unless the meld takes the hand down to going out.
  const int wilds = hand.wilds();
  const TeamMelds& own = view.melds(rules.team_of(view.seat()));
  // The best key among the checked melds; the unchecked ones wait.
  uint64_t best = 0;
  bool can_discard = false;
  int waiting = 0;
  auto passes = [&](int at) { return view.passes_deferred_check(legal_[at]); };
  for (int i = 0, j = 0; i < legal_.size(); ++i) {
    const Action a = legal_[i];
    const bool waits = j < later_.size() && later_[j] == i;
    j += waits;
    if (a.type() == ActionType::kDiscard) can_discard = true;
    if (a.type() == ActionType::kAsk && p_.ask && want_out()) return a;
    if (a.type() != ActionType::kMeld) continue;
    const int used = a.naturals() + a.jokers() + a.twos();
    const int w = a.jokers() + a.twos();
    const bool toward_out = hand.total() - used <= 1;
    if (toward_out && !want_out()) continue;
    if (w > 0 && wilds - w < p_.keep_wilds && !toward_out) continue;
    if (!own.has(a.kind()) && hand.count(a.kind()) < p_.meld_min && !toward_out) continue;
    const uint64_t k = best_first_key(100 * used - 10 * w + a.value() / 10, i);
    if (waits)
      waiting_[static_cast<size_t>(waiting++)] = k;
    else
      best = std::max(best, k);
  }
  if (const int at = best_passing(waiting_.data(), waiting, best, passes); at >= 0) return legal_[at];
  if (best > 0) return legal_[key_position(best)];
  if (!can_discard) {
    const int at = most_cards_meld(legal_, later_, waiting_.data(), passes);
    return legal_[at >= 0 ? at : first_legal(view)];
  }
  return safest_discard(view, legal_, p_);
}

}  // namespace canasta
