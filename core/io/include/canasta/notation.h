// Text notation for cards, actions and decks (core/doc/notation.md).
#pragma once

#include <string>
#include <string_view>

#include "canasta/engine.h"
#include "canasta/types.h"

namespace canasta {

// Card kinds: JK 2 3r 3b 4 5 6 7 8 9 10 J Q K A. The readers take tokens as
// written here or all in lower case (jk, q); with `exact` (records, which
// the program writes), only as written here.
std::string_view kind_token(int kind);
bool parse_kind(std::string_view token, int& kind, bool exact = false);

// A multiset of cards as space-separated tokens in kind order ("4 4 K JK" is
// written "JK 4 4 K").
std::string cards_to_string(CardSet cards);
bool parse_cards(std::string_view text, CardSet& out, std::string& error, bool exact = false);

// The rank of a meld: a kind token, or "wild" for the meld of wild cards
// only (kTwo).
std::string_view meld_token(int rank);
bool parse_meld_rank(std::string_view token, int& rank, bool exact = false);

// Actions: "draw", "take Q: Q Q", "take Q:" (top added to the side's meld),
// "meld K: K K K JK", "meld 3b: 3b 3b 3b", "meld wild: JK 2 2", "ask", "yes",
// "no", "pass", "discard 7", "clean K: 2 > Q" (a king from the hand replaces
// a two of the kings' canasta; the two joins the queens), "clean K: JK > 9 9"
// (the joker starts a meld with two nines from the hand), "clean K: 2 > wild".
std::string action_to_string(Action a);
bool parse_action(std::string_view text, Action& out, std::string& error, bool exact = false);

// A deck order: space-separated card tokens, first dealt first.
std::string deck_to_string(const Deck& deck, int size);
bool parse_deck(std::string_view text, Deck& deck, int& size, std::string& error, bool exact = false);

}  // namespace canasta
