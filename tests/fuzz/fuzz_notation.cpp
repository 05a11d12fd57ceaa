// libFuzzer target: the text notation (cards, actions, decks, positions).
// The first byte picks the reader; whatever a reader takes, its writer
// writes back to text the reader takes again, to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "canasta/notation.h"
#include "canasta/position.h"

using namespace canasta;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string error;
  switch (data[0] % 4) {
    case 0: {
      CardSet cards, again;
      if (parse_cards(text, cards, error) &&
          (!parse_cards(cards_to_string(cards), again, error, true) || again != cards))
        std::abort();
      break;
    }
    case 1: {
      Action a, again;
      if (parse_action(text, a, error) &&
          (!parse_action(action_to_string(a), again, error, true) || again != a))
        std::abort();
      break;
    }
    case 2: {
      Deck deck, again;
      int n = 0, m = 0;
      if (parse_deck(text, deck, n, error) && (!parse_deck(deck_to_string(deck, n), again, m, error, true) ||
                                               m != n || deck_to_string(again, m) != deck_to_string(deck, n)))
        std::abort();
      break;
    }
    default: {
      State s, again;
      if (parse_position(text, s, error)) {
        const std::string written = position_to_string(s);
        if (!parse_position(written, again, error) || position_to_string(again) != written) std::abort();
      }
      break;
    }
  }
  return 0;
}
