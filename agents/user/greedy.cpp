// An example of an agent of your own (canasta/user_agent.h): one file in
// agents/user/, ending with its registration line. The build lists it in
// `canasta agents` as `greedy`, and every command takes "greedy:take_min=5".
//
// greedy: takes every pile of at least `take_min` cards, melds as many cards
// as it can on every turn (holding `keep_wilds` wild cards back), goes out as
// soon as it can, and discards the card it can spare best: a single before a
// pair, the costliest first, never a wild card while it has another choice.
#include "canasta/engine.h"
#include "canasta/user_agent.h"

namespace {

using namespace canasta;

// Its parameters, one line each: name, type, default, range, meaning.
#define GREEDY_PARAMS(X)                                                              \
  X(take_min, int, 1, 0, 108, "take the pile when it holds at least this many cards") \
  X(keep_wilds, int, 0, 0, 12, "wild cards held back from melds until the player goes out")

struct GreedyParams {
#define GREEDY_FIELD(name, type, value, lo, hi, help) type name = value;
  GREEDY_PARAMS(GREEDY_FIELD)
#undef GREEDY_FIELD
};

class GreedyAgent final : public Agent {
 public:
  explicit GreedyAgent(const GreedyParams& p) : p_(p) {}

  Action act(const View& view, Rng& /*rng*/) override {
    view.legal_actions(legal_);
    const CardSet hand = view.hand();
    Action best = legal_[0];
    int best_score = -1 << 30;
    for (Action a : legal_) {
      int score = -1 << 30;
      switch (a.type()) {
        case ActionType::kTakePile:
          score = view.pile_size() >= p_.take_min ? 1000 + view.pile_size() : -1;
          break;
        case ActionType::kDraw:
        case ActionType::kPass:
        case ActionType::kYes:
        case ActionType::kNo:
          score = a.type() == ActionType::kYes ? 1 : 0;
          break;
        case ActionType::kMeld: {
          const int used = a.naturals() + a.jokers() + a.twos();
          const bool out = hand.total() - used <= 1;
          const bool wilds_ok = hand.wilds() - a.jokers() - a.twos() >= p_.keep_wilds;
          if (out || wilds_ok) score = 100 * used;
          break;
        }
        case ActionType::kDiscard:
          score = is_wild(a.kind()) ? -(1 << 29) : -100 * hand.count(a.kind()) + card_value(a.kind()) - 500;
          break;
        default:  // asking the partner: never
          break;
      }
      if (score > best_score) best_score = score, best = a;
    }
    return best;
  }

 private:
  GreedyParams p_;
  ActionList legal_;
};

}  // namespace

CANASTA_REGISTER_AGENT(
    greedy, GreedyAgent, GreedyParams, GREEDY_PARAMS,
    "example of an agent of your own: takes every pile, melds all it can, goes out at once");
