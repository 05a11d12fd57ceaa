// The heuristic agent: a rule-based player built on what good players do,
// and on the advice that closes the Spanish club rule book ("17.
// Recomendaciones"), each piece a named parameter:
//   - it plays the score: it goes out when the deal's estimated margin pays
//     (table, going-out bonus, and the cards caught in the other hands), and
//     stays in to build while the opponents cannot go out and the stock is
//     long ("alargar el juego"), and while it stays in keeps cards in the
//     hand to build with and to take the pile with; when it would go out
//     and can this turn, it makes every meld that takes it there, wild
//     cards and pairs included;
//   - it counts cards: every card melded, in the pile, shown with the pile
//     or in its own hand is placed; the rest are shared among the hidden
//     hands and the stock, from which it estimates the chance that the next
//     opponent can take a discard;
//   - it discards safely by that chance and the pile's worth (more when the
//     pile would complete a canasta of theirs), and dead cards (no copies
//     left to pair them) first;
//   - it manages wild cards: keeps one back, spends them on a canasta,
//     jokers before twos ("antes los jokers que los doses"), and holds none
//     back while its side opens;
//   - it takes the pile by its size and by its points ("no tomar un pozo de
//     pocas cartas");
//   - it opens with just enough, keeping pairs to take the pile;
//   - it freezes the pile ("premiar el pozo") when the side is behind and the
//     next opponent holds few cards, never while its own side has melded and
//     the opponents have not opened;
//   - it melds everything it can when an opponent who may go out holds few
//     cards ("exponer todas las combinaciones").
// The defaults of the numeric parameters were tuned by SPSA in self-play,
// in two stages: all of them, then again with a wider perturbation of
// `safety` (results/players.md); `freeze_cost` by a sweep (results/freeze.md); `fill_risk` and `plan_out`
// came later (results/players.md). The first rule-based player is kept as `basic` (basic.h).
#pragma once

#include <array>
#include <cstdint>

#include "canasta/agent_base.h"

namespace canasta {

// Its parameters, one line each: name, type, default, range, meaning. The
// line declares the field below, and `canasta agents`, spec reading and
// writing follow from it.
#define CANASTA_HEURISTIC_PARAMS(X)                                                                         \
  X(take_min, int, 3, 0, 100, "take the pile (when not compelled) when it holds at least this many cards")  \
  X(take_value, int, 19, 0, 2000, "... or when its cards are worth at least this many points")              \
  X(take_wild, int, 4, 0, 100,                                                                              \
    "... and, when taking it needs a wild card from the hand, at least this many cards")                    \
  X(meld_min, int, 2, 2, 8,                                                                                 \
    "naturals of a rank held before starting a new meld of it (higher keeps pairs and triples for the "     \
    "pile)")                                                                                                \
  X(open_lean, bool, true, 0, 1,                                                                            \
    "open with just enough: while opening, the meld that meets the minimum with the fewest cards")          \
  X(keep_wilds, int, 2, 0, 12,                                                                              \
    "wild cards held back from melds (unless they complete a canasta or dump), once the side has opened")   \
  X(open_wilds, int, 0, -1, 12,                                                                             \
    "... and while it opens (0: every wild card may help the side open; -1: keep_wilds, as before "         \
    "2026-12-03)")                                                                                          \
  X(canasta_wilds, bool, true, 0, 1, "spend held-back wild cards when they complete a canasta")             \
  X(jokers_first, bool, true, 0, 1, "1: meld jokers before twos; 0: twos before jokers")                    \
  X(dump_hand, int, 1, 0, 30,                                                                               \
    "meld all it can when an opponent whose side may go out holds at most this many cards (0: never)")      \
  X(out_lead, int, -467, -10000, 10000,                                                                     \
    "go out (or answer yes) when the deal's estimated margin after going out is at least this")             \
  X(out_danger, int, 6, 0, 30,                                                                              \
    "go out whatever the margin when an opponent whose side may go out holds at most this many cards")      \
  X(reserve, int, 2, 2, 30,                                                                                 \
    "while it would not go out, meld only what leaves at least this many cards in the hand (a canasta "     \
    "completed, an opening and the pile's cards excepted; 2: only the last card kept, as going out needs)") \
  X(extend, int, 0, 0, 162,                                                                                 \
    "stay in while the opponents have no canasta and the stock holds at least this many cards (0: never)")  \
  X(safety, int, 1019, 0, 5000, "weight of the chance that the next opponent can take a discard")           \
  X(fill_risk, int, 6, 0, 100,                                                                              \
    "... the pile counted this many cards more for each meld of theirs it would make a canasta")            \
  X(freeze, int, 0, 0, 100, "discard a wild card to freeze a pile of at least this many cards (0: never)")  \
  X(freeze_value, int, 0, 0, 2000, "... or a pile worth at least this many points (0: never)")              \
  X(freeze_behind, int, 10000, -10000, 10000,                                                               \
    "freeze when the side trails on the table by at least this much and the next opponent is close")        \
  X(freeze_hand, int, 4, 0, 30, "... close: holds at most this many cards")                                 \
  X(freeze_guard, bool, true, 0, 1,                                                                         \
    "never freeze while the own side has melded and the next opponent's side has not opened")               \
  X(freeze_cost, int, 800, 0, 100000,                                                                       \
    "freeze rather than give the pile: a wild card's discard costs this (0: never), the others their risk") \
  X(plan_out, bool, true, 0, 1,                                                                             \
    "when it would go out and can this turn with several melds, make them (wild cards and pairs included)") \
  X(ask, bool, false, 0, 1, "1: ask the partner before going out (when the rules allow)")                   \
  X(wild_meld, int, 5, 0, 18,                                                                               \
    "spanish: start a meld of wild cards only (toward the wild canasta, 2000) with at least this many "     \
    "wild cards in hand, and grow it (0: never)")                                                           \
  X(clean, bool, true, 0, 1, "spanish: clean mixed canastas (a natural replaces a wild card)")

struct HeuristicParams {
#define CANASTA_FIELD(name, type, value, lo, hi, help) type name = value;
  CANASTA_HEURISTIC_PARAMS(CANASTA_FIELD)
#undef CANASTA_FIELD
  friend bool operator==(const HeuristicParams&, const HeuristicParams&) = default;
};

// The heuristic's estimate of the deal's margin for the seat's side were
// the player to move (the seat, or the partner who asked) to go out now:
// the table lead and the going-out bonus; the hand of the player going out
// counts nothing (it is melded), the seat's own hand, when the partner goes
// out, its value; every other hidden card the mean card value, against its
// side (an opponent's shared among the other sides at a table of three).
int out_estimate(const View& view);

// A quick necessary condition for going out this turn with `hand` onto the
// side's melds `own` (the pile's cards aside): a single natural of a rank the
// side has not melded, or one or two black threes, can leave the hand only as
// the discard, and a turn has one. The heuristic asks View::can_go_out only
// when it holds.
bool out_in_reach(CardSet hand, const TeamMelds& own);

// The heuristic's card count at its discard: the chance that the next player
// can take the pile when the seat to move discards a natural of `kind`. The
// next player takes it with two naturals of the kind (a frozen pile: only
// so), or one and a wild card, or onto a meld of its side; its hidden cards
// are taken as drawn at random from the cards the seat cannot place
// (View::unseen), less the cards it is known to hold.
class TakeOdds {
 public:
  explicit TakeOdds(const View& view);
  double operator()(int kind) const;
  const CardSet& unseen() const { return unseen_; }

 private:
  // The chance that the next player's hidden cards hold at least `need`
  // (1 or 2) of `good` unseen cards, worked out once per (need, good).
  double tail(int need, int good) const;

  CardSet unseen_, known_;
  TeamMelds theirs_;
  bool frozen_ = false;
  int pool_ = 0, hidden_ = 0;
  mutable double has_wild_ = -1;                         // < 0: not worked out yet
  mutable std::array<std::array<double, 16>, 2> tails_;  // < 0: not worked out yet
};

class HeuristicAgent final : public Agent {
 public:
  explicit HeuristicAgent(const HeuristicParams& p = {}) : p_(p) {}
  Action act(const View& view, Rng& rng) override;

 private:
  HeuristicParams p_;
  ActionList legal_;
  // When going out, the melds to check, as keys: score, then first in order.
  std::array<uint64_t, ActionList::kCapacity> going_;
};

}  // namespace canasta
