// canasta deal: one deal of a game as a position, with the first legal actions.
#include <iostream>

#include "../cli.h"
#include "canasta/game.h"
#include "canasta/notation.h"
#include "canasta/position.h"

namespace canasta::cli {

void add_deal(CLI::App& app, int& exit_code) {
  struct Options {
    Rules rules;
    uint64_t seed = 1;
    int deal = 0;
  };
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("deal", "show a deal: hands, upcard, stock, the first legal actions");
  add_seed_option(*sub, o->seed, "game seed");
  sub->add_option("--deal", o->deal, "deal index in the game")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  add_profile_option(*sub, o->rules);
  sub->callback([o, &exit_code] {
    Game g = new_game(o->rules, o->seed);
    for (int i = 0; i < o->deal; ++i) {
      ++g.deal;
      g.dealer = (g.dealer + 1) % o->rules.players;
    }
    State s;
    start_next_deal(g, s);
    Deck deck;
    const int n = game_deck(o->rules, o->seed, o->deal, deck);
    std::cout << "# seed " << o->seed << ", deal " << o->deal << ", dealer " << int(s.dealer) << "\n";
    std::cout << "# deck: " << deck_to_string(deck, n) << "\n";
    std::cout << position_to_string(s);
    ActionList legal;
    legal_actions(s, legal);
    std::cout << "# seat " << s.actor() << " to move; legal:";
    for (Action a : legal) std::cout << " [" << action_to_string(a) << "]";
    std::cout << "\n";
    exit_code = 0;
  });
}

}  // namespace canasta::cli
