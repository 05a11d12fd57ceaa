#include "canasta/game.h"

namespace canasta {

Game new_game(const Rules& rules, uint64_t seed) {
  Game g;
  g.rules = rules;
  g.seed = seed;
  Rng lot(derive_seed(seed, Stream::kFirstDealer));
  g.dealer = static_cast<int>(lot.below(rules.players));
  return g;
}

int game_deck(const Rules& rules, uint64_t seed, int deal, Deck& deck) {
  Rng rng(derive_seed(seed, Stream::kGameDeck, static_cast<uint64_t>(deal)));
  return shuffled_deck(rules, rng, deck);
}

void start_next_deal(const Game& g, State& s) {
  Deck deck;
  const int n = game_deck(g.rules, g.seed, g.deal, deck);
  start_deal(s, g.rules, deck, n, g.dealer, g.totals);
}

int single_deal_deck(const Rules& rules, uint64_t seed, int64_t k, Deck& deck) {
  Rng rng(derive_seed(seed, Stream::kSingleDeck, static_cast<uint64_t>(k)));
  return shuffled_deck(rules, rng, deck);
}

void start_single_deal(State& s, const Rules& rules, uint64_t seed, int64_t k) {
  Deck deck;
  const int n = single_deal_deck(rules, seed, k, deck);
  start_deal(s, rules, deck, n, static_cast<int>(k % rules.players), {});
}

void finish_deal(Game& g, const State& s) {
  const auto score = deal_score(s);
  const Rules& r = g.rules;
  for (int t = 0; t < r.teams; ++t) g.totals[t] += score[t].total();
  ++g.deal;
  g.dealer = r.next_seat(g.dealer);
  int best = 0;
  for (int t = 1; t < r.teams; ++t)
    if (g.totals[t] > g.totals[best]) best = t;
  int at_best = 0;
  for (int t = 0; t < r.teams; ++t) at_best += g.totals[t] == g.totals[best] ? 1 : 0;
  if (g.totals[best] >= r.target) {
    if (at_best == 1) {
      g.end = GameEnd::kWon;
      g.winner = best;
      return;
    }
    if (r.tie == TieRule::kDraw) {
      g.end = GameEnd::kDrawn;
      return;
    }
  }
  if (g.deal >= r.max_deals) g.end = GameEnd::kAbandoned;
}

}  // namespace canasta
