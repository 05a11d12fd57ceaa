#include "canasta/notation.h"

#include <array>
#include <charconv>
#include <string>
#include <vector>

#include "canasta/params.h"
#include "canasta/text.h"

namespace canasta {

using text::trim;
using text::words;

namespace {

constexpr std::array<std::string_view, kKindNb> kTokens{"JK", "2", "3r", "3b", "4", "5", "6", "7",
                                                        "8",  "9", "10", "J",  "Q", "K", "A"};

}  // namespace

std::string_view kind_token(int kind) { return kTokens[kind]; }

std::string_view meld_token(int rank) { return rank == kTwo ? "wild" : kTokens[rank]; }

bool parse_meld_rank(std::string_view token, int& rank, bool exact) {
  if (token == "wild") {
    rank = kTwo;
    return true;
  }
  return parse_kind(token, rank, exact) && (rank == kBlack3 || is_natural(rank));
}

bool parse_kind(std::string_view token, int& kind, bool exact) {
  for (int k = 0; k < kKindNb; ++k) {
    const std::string_view t = kTokens[k];
    if (t.size() != token.size()) continue;
    bool as_written = true, lower = !exact;
    for (size_t i = 0; i < t.size(); ++i) {
      as_written &= token[i] == t[i];
      lower &= token[i] == static_cast<char>(t[i] >= 'A' && t[i] <= 'Z' ? t[i] - 'A' + 'a' : t[i]);
    }
    if (as_written || lower) {
      kind = k;
      return true;
    }
  }
  return false;
}

std::string cards_to_string(CardSet cards) {
  std::string out;
  for (int k = 0; k < kKindNb; ++k)
    for (int i = 0; i < cards.count(k); ++i) {
      if (!out.empty()) out += ' ';
      out += kTokens[k];
    }
  return out;
}

bool parse_cards(std::string_view text, CardSet& out, std::string& error, bool exact) {
  out = CardSet();
  for (auto w : words(text)) {
    int k = 0;
    if (!parse_kind(w, k, exact)) {
      error = "bad card token '" + printable(w) + "' (cards: JK 2 3r 3b 4 .. 10 J Q K A)";
      return false;
    }
    if (out.count(k) == 15) {
      error = "too many cards of one kind";
      return false;
    }
    out.add(k);
  }
  return true;
}

std::string action_to_string(Action a) {
  auto with_cards = [&](const char* verb) {
    std::string s = std::string(verb) + " " + std::string(meld_token(a.kind())) + ":";
    const std::string cards = cards_to_string(a.cards());
    if (!cards.empty()) s += " " + cards;
    return s;
  };
  switch (a.type()) {
    case ActionType::kDraw:
      return "draw";
    case ActionType::kTakePile:
      return with_cards("take");
    case ActionType::kMeld:
      return with_cards("meld");
    case ActionType::kAsk:
      return "ask";
    case ActionType::kYes:
      return "yes";
    case ActionType::kNo:
      return "no";
    case ActionType::kPass:
      return "pass";
    case ActionType::kDiscard:
      return "discard " + std::string(kTokens[a.kind()]);
    case ActionType::kClean: {
      std::string s = "clean " + std::string(kTokens[a.kind()]) + ": " + (a.jokers() ? "JK" : "2") + " > " +
                      std::string(meld_token(a.dest()));
      if (a.naturals()) s += " " + std::string(kTokens[a.dest()]);  // a new meld with a pair: "> Q Q"
      return s;
    }
    case ActionType::kTypeNb:
      break;
  }
  return "?";
}

bool parse_action(std::string_view text, Action& out, std::string& error, bool exact) {
  text = trim(text);
  const size_t sp = text.find(' ');
  const std::string_view verb = text.substr(0, sp);
  const std::string_view rest = sp == std::string_view::npos ? std::string_view{} : trim(text.substr(sp + 1));
  auto simple = [&](ActionType t) {
    if (!rest.empty()) {
      error = "action '" + printable(text) + "' takes no cards";
      return false;
    }
    out = Action::make(t);
    return true;
  };
  if (verb == "draw") return simple(ActionType::kDraw);
  if (verb == "ask") return simple(ActionType::kAsk);
  if (verb == "yes") return simple(ActionType::kYes);
  if (verb == "no") return simple(ActionType::kNo);
  if (verb == "pass") return simple(ActionType::kPass);
  if (verb == "discard") {
    int k = 0;
    if (!parse_kind(rest, k, exact) || k == kRed3) {
      error = "bad card to discard in '" + printable(text) + "'";
      return false;
    }
    out = Action::make(ActionType::kDiscard, k);
    return true;
  }
  if (verb == "clean") {
    // clean K: 2 > Q   |   clean K: JK > 9 9   |   clean K: 2 > wild
    const size_t colon = rest.find(':'), arrow = rest.find('>');
    int rank = 0, wild = 0, dest = 0;
    std::vector<std::string_view> to;
    if (colon != std::string_view::npos && arrow != std::string_view::npos && colon < arrow)
      to = words(rest.substr(arrow + 1));
    if (to.empty() || !parse_kind(trim(rest.substr(0, colon)), rank, exact) || !is_natural(rank) ||
        !parse_kind(trim(rest.substr(colon + 1, arrow - colon - 1)), wild, exact) || !is_wild(wild) ||
        !parse_meld_rank(to[0], dest, exact) || dest == kBlack3 || dest == rank ||
        !(to.size() == 1 || (to.size() == 2 && dest != kTwo && to[1] == to[0]))) {
      error = "bad cleaning '" + printable(text) + "' (write e.g. 'clean K: 2 > Q' or 'clean K: JK > 9 9')";
      return false;
    }
    out = Action::clean(rank, wild == kJoker, dest, to.size() == 2);
    return true;
  }
  if (verb == "take" || verb == "meld") {
    const size_t colon = rest.find(':');
    int rank = 0;
    if (colon == std::string_view::npos || !parse_meld_rank(trim(rest.substr(0, colon)), rank, exact) ||
        (rank == kBlack3 && verb != "meld") || (rank == kTwo && verb != "meld")) {
      error = "bad rank in '" + printable(text) + "' (write e.g. 'meld K: K K K JK')";
      return false;
    }
    CardSet cards;
    if (!parse_cards(rest.substr(colon + 1), cards, error, exact)) return false;
    const int naturals = rank == kTwo ? 0 : cards.count(rank);
    if (naturals + cards.wilds() != cards.total() || (rank == kTwo && cards.total() == 0)) {
      error = "'" + printable(text) + "' uses cards of another rank";
      return false;
    }
    if (naturals > 12 || cards.count(kJoker) > 7 || cards.count(kTwo) > 7) {
      error = "too many cards in '" + printable(text) + "'";
      return false;
    }
    out = Action::make(verb == "take" ? ActionType::kTakePile : ActionType::kMeld, rank, naturals,
                       cards.count(kJoker), cards.count(kTwo));
    return true;
  }
  error = "unknown action '" + printable(text) + "'";
  return false;
}

std::string deck_to_string(const Deck& deck, int size) {
  std::string out;
  for (int i = 0; i < size; ++i) {
    if (i) out += ' ';
    out += kTokens[deck[i]];
  }
  return out;
}

bool parse_deck(std::string_view text, Deck& deck, int& size, std::string& error, bool exact) {
  size = 0;
  for (auto w : words(text)) {
    int k = 0;
    if (!parse_kind(w, k, exact)) {
      error = "bad card token '" + printable(w) + "' in deck";
      return false;
    }
    if (size == kMaxCards) {
      error = "deck has too many cards";
      return false;
    }
    deck[size++] = static_cast<uint8_t>(k);
  }
  return true;
}

}  // namespace canasta
