// The rules engine: deal, legal actions, apply, score.
#pragma once

#include <array>
#include <cstdint>

#include "canasta/rng.h"
#include "canasta/rules.h"
#include "canasta/state.h"
#include "canasta/types.h"

namespace canasta {

using Deck = std::array<uint8_t, kMaxCards>;

// Every card of a profile's pack, counted by kind.
CardSet full_pack(const Rules& rules);
// The unshuffled deck of a profile, in kind order; returns the number of cards.
int ordered_deck(const Rules& rules, Deck& deck);
// A shuffled deck (Fisher-Yates over the ordered deck); returns the number of cards.
int shuffled_deck(const Rules& rules, Rng& rng, Deck& deck);

// Starts a deal from a deck order (deck[0] is dealt first): deals the hands
// round-robin from the dealer's left, turns the upcard (covering wild cards and
// red threes), and exposes and replaces the dealt red threes in turn order when
// the profile says so. `scores` are the sides' cumulative scores before the deal.
void start_deal(State& s, const Rules& rules, const Deck& deck, int deck_size, int dealer,
                const std::array<int32_t, kMaxTeams>& scores);

// All legal actions of the actor, in a fixed order (draw, takes, pass; ask;
// yes, no; melds by rank, then naturals, jokers, twos; discards by kind). Every sequence
// of legal actions finishes the turn legally (no dead ends).
void legal_actions(const State& s, ActionList& out);
bool is_legal(const State& s, Action a);

// Positions in an ActionList whose actions still wait for a check, ascending.
class DeferredChecks {
 public:
  DeferredChecks() {}  // elements stay uninitialised; only [0, size) is ever read
  void clear() { size_ = 0; }
  void push(int at) { at_[size_++] = static_cast<uint16_t>(at); }
  int size() const { return size_; }
  int operator[](int i) const { return at_[i]; }

 private:
  std::array<uint16_t, ActionList::kCapacity> at_;
  uint16_t size_ = 0;
};
// The legal actions with the costliest check left to the caller: in the meld
// phase, a meld or cleaning that may leave the turn no legal way to end is
// listed without the search that decides it, and its position in `out` goes
// to `later`; it is legal exactly when passes_deferred_check(s, action). The
// other actions are legal, and legal_actions lists the same actions, less
// those that fail the check, in the same order. For players that look at a
// few actions only: a rollout policy checks the one it picks.
void legal_actions(const State& s, ActionList& out, DeferredChecks* later);
bool passes_deferred_check(const State& s, Action a);
// In the meld phase: whether the player to move can still go out this turn,
// now or, when `after` is given (a legal meld or cleaning of the turn), once
// it is made. It reads only what the player knows: its hand, its side's
// melds, the turn's flags and the opening minimum still to meet, and the
// pile's cards while they wait for that minimum. False in other phases.
bool can_go_out(const State& s, Action after = Action{});

// Applies a legal action (precondition, checked in debug builds, as are all
// invariants after the action).
void apply(State& s, Action a);
// Applies an action that follows the card-by-card rules but need not be legal
// (it may lead to a dead end). For exhaustive searches such as the reference
// generator of the tests; no check.
void apply_unchecked(State& s, Action a);

// The deal's score per side; meaningful once the deal is over (and, as a
// running count, before).
std::array<DealScore, kMaxTeams> deal_score(const State& s);
// Each side's deal score less the mean of the other sides' (zero-sum over the sides).
std::array<double, kMaxTeams> deal_margins(const State& s);
// What a side can score in one deal: within [-low, high] (every card of the
// pack melded or left in hand, every canasta and premium, every red three).
struct DealBounds {
  int high = 0, low = 0;
};
DealBounds deal_bounds(const Rules& r);

// The canasta bonuses of a side's melds.
int canasta_bonus(const TeamMelds& m);
// What `reds` red threes score for a side: plus when `plus` (it has melded,
// or with Rules::red3_need_canasta it has a canasta), else minus.
int red_three_score(int reds, bool plus);
// Whether a side's red threes count plus (core/doc/rules.md sections 7 and 13,
// spanish option), given its number of canastas.
inline bool red_threes_plus(const Rules& r, const TeamMelds& m, int canastas) {
  return r.red3_need_canasta ? canastas > 0 : m.any();
}
inline bool red_threes_plus(const Rules& r, const TeamMelds& m) {
  return red_threes_plus(r, m, m.canastas());
}
// What a side shows of the deal with `reds` red threes: its melded cards,
// canasta bonuses and red threes (the canastas counted once).
int table_score(const Rules& r, const TeamMelds& m, int reds);
// The red threes exposed by the seats of `team`.
int team_red_threes(const State& s, int team);

// The opening minimum of the side in the current deal.
inline int opening_minimum(const State& s, int team) { return s.rules.opening_minimum(s.score_before[team]); }

// The number of action sequences of length `depth` from `s`, a deal that
// ends sooner counting once. Pins move generation down, as perft does for
// chess engines: tests hold golden numbers from fixed deals.
uint64_t perft(const State& s, int depth);

// Checks every invariant of the state (cards conserved, counters in range,
// every meld legal). Returns nullptr when all hold, else what failed.
const char* check_invariants(const State& s);

}  // namespace canasta
