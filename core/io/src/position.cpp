#include "canasta/position.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "canasta/notation.h"
#include "canasta/params.h"
#include "canasta/profile.h"
#include "canasta/text.h"

namespace canasta {

using text::split;
using text::to_number;
using text::trim;
using text::words;

namespace {

constexpr std::array<std::pair<TurnFlag, std::string_view>, 10> kFlagNames{{
    {kDrewStock, "drew_stock"},
    {kTookPile, "took_pile"},
    {kPilePending, "pile_pending"},
    {kOpening, "opening"},
    {kAsked, "asked"},
    {kAnsweredYes, "yes"},
    {kAnsweredNo, "no"},
    {kMeldedExtra, "melded"},
    {kCommitted, "committed"},
    {kAddedToOld, "added_to_old"},
}};

constexpr std::array<std::string_view, 4> kPhaseNames{"draw", "meld", "answer", "over"};

std::string melds_to_string(const TeamMelds& m) {
  std::string out;
  for (int k = kTwo; k <= kLastNatural; ++k) {
    if (m.size(k) == 0) continue;
    if (!out.empty()) out += "; ";
    const CardSet c = m.cards(k);
    out += std::string(meld_token(k)) + ": " + cards_to_string(c);
  }
  return out;
}

bool parse_melds(std::string_view text, TeamMelds& m, std::string& error) {
  for (auto part : split(text, ';')) {
    part = trim(part);
    if (part.empty()) continue;
    const size_t colon = part.find(':');
    int rank = 0;
    CardSet cards;
    if (colon == std::string_view::npos || !parse_meld_rank(trim(part.substr(0, colon)), rank) ||
        !parse_cards(part.substr(colon + 1), cards, error)) {
      if (error.empty()) error = "bad meld '" + printable(part) + "'";
      return false;
    }
    const int naturals = rank == kTwo ? 0 : cards.count(rank);
    if (naturals + cards.wilds() != cards.total() || m.size(rank) > 0) {
      error = "meld '" + printable(part) + "' holds cards of another rank, or its rank twice";
      return false;
    }
    m.naturals.add(rank, naturals);
    m.jokers.add(rank, cards.count(kJoker));
    m.twos.add(rank, cards.count(kTwo));
  }
  return true;
}

}  // namespace

std::string position_to_string(const State& s) {
  const Rules& r = s.rules;
  std::string out;
  auto line = [&](const std::string& key, const std::string& value) { out += key + ": " + value + "\n"; };
  auto ints = [&](auto begin, int n) {
    std::string v;
    for (int i = 0; i < n; ++i) {
      v += i ? " " : "";
      v += std::to_string(begin[i]);
    }
    return v;
  };
  line("profile", profile_spec(r));
  line("dealer", std::to_string(s.dealer));
  line("seat", std::to_string(s.seat));
  line("phase", std::string(kPhaseNames[static_cast<int>(s.phase)]));
  std::string flags;
  for (auto [bit, name] : kFlagNames)
    if (s.flags & bit) {
      flags += flags.empty() ? "" : " ";
      flags += std::string(name);
    }
  line("flags", flags);
  line("turn_value", std::to_string(s.turn_value));
  line("scores", ints(s.score_before.begin(), r.teams));
  for (int seat = 0; seat < r.players; ++seat)
    line("hand" + std::to_string(seat), cards_to_string(s.hand[seat]));
  for (int seat = 0; seat < r.players; ++seat)
    if (!s.known[seat].empty()) line("known" + std::to_string(seat), cards_to_string(s.known[seat]));
  line("red3", ints(s.red3.begin(), r.players));
  for (int t = 0; t < r.teams; ++t) line("melds" + std::to_string(t), melds_to_string(s.melds[t]));
  std::string start;
  for (int k = kTwo; k <= kLastNatural; ++k)
    if (s.start_ranks >> k & 1U) {
      start += start.empty() ? "" : " ";
      start += std::string(meld_token(k));
    }
  line("start_melds", start);
  std::string before;
  for (int seat = 0; seat < r.players; ++seat)
    if (s.melded_before >> seat & 1U) {
      before += before.empty() ? "" : " ";
      before += std::to_string(seat);
    }
  line("melded_before", before);
  // Seats whose dealt red threes are exposed but not yet replaced (red3=exposed).
  if (r.red3_deal == RedThreeDeal::kExposedNow && s.red3_pending) {
    std::string owed;
    for (int seat = 0; seat < r.players; ++seat)
      if (s.red3_pending >> seat & 1U) owed += (owed.empty() ? "" : " ") + std::to_string(seat);
    line("red3_owed", owed);
  }
  std::string pile;
  for (int i = 0; i < s.pile_size; ++i) {
    pile += i ? " " : "";
    pile += std::string(kind_token(s.pile[i]));
  }
  line("pile", pile);
  // Before the first take (spanish) the pile is frozen without a wild card.
  if (r.frozen_until_taken && !(s.pile_set().wilds() || s.pile_set().count(kRed3)))
    line("pile_taken", s.pile_frozen ? "no" : "yes");
  if (r.premiums) line("turns", std::to_string(s.turns));
  std::string stock;
  for (int i = s.stock_pos; i < s.deck_size; ++i) {
    stock += i > s.stock_pos ? " " : "";
    stock += std::string(kind_token(s.deck[i]));
  }
  line("stock", stock);
  return out;
}

bool parse_position(std::string_view text, State& s, std::string& error) {
  s = State{};
  s.out_seat = -1;
  s.turns = 1;
  bool have_profile = false, have_start = false, stock_rest = false, pile_taken = false;
  int rest_seat = -1;  // the seat whose hand takes every card not placed elsewhere
  std::vector<int> stock;
  std::vector<std::string_view> keys;  // those read so far
  for (auto raw : split(text, '\n')) {
    const std::string_view ln = trim(raw);
    if (ln.empty() || ln.front() == '#') continue;
    const size_t colon = ln.find(':');
    if (colon == std::string_view::npos) {
      error = "position line '" + printable(ln) + "' is not 'key: value'";
      return false;
    }
    const std::string_view key = trim(ln.substr(0, colon));
    const std::string_view value = trim(ln.substr(colon + 1));
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
      error = "position key '" + printable(key) + "' is given twice";
      return false;
    }
    keys.push_back(key);
    const Rules& r = s.rules;
    auto seat_of = [&](std::string_view prefix, int& seat) {
      if (!to_number(trim(key.substr(prefix.size())), seat) || seat < 0 || seat >= r.players) {
        error = "bad seat in '" + printable(key) + "'";
        return false;
      }
      return true;
    };
    int n = 0;
    if (key == "profile") {
      if (!parse_profile(value, s.rules, error)) return false;
      have_profile = true;
    } else if (!have_profile) {
      error = "a position starts with its 'profile:' line";
      return false;
    } else if (key == "dealer" || key == "seat") {
      if (!to_number(value, n) || n < 0 || n >= r.players) {
        error = "bad " + printable(key) + " '" + printable(value) + "'";
        return false;
      }
      (key == "dealer" ? s.dealer : s.seat) = static_cast<uint8_t>(n);
    } else if (key == "phase") {
      bool found = false;
      for (int i = 0; i < 4; ++i)
        if (value == kPhaseNames[i]) s.phase = static_cast<Phase>(i), found = true;
      if (!found) {
        error = "bad phase '" + printable(value) + "' (draw, meld, answer, over)";
        return false;
      }
    } else if (key == "flags") {
      for (auto w : words(value)) {
        bool found = false;
        for (auto [bit, name] : kFlagNames)
          if (w == name) s.flags |= bit, found = true;
        if (!found) {
          error = "unknown flag '" + printable(w) + "'";
          return false;
        }
      }
    } else if (key == "turn_value") {
      if (!to_number(value, n) || n < 0 || n > 5000) {
        error = "bad turn_value";
        return false;
      }
      s.turn_value = static_cast<int16_t>(n);
    } else if (key == "scores") {
      auto w = words(value);
      if (static_cast<int>(w.size()) != r.teams) {
        error = "scores needs one number per side";
        return false;
      }
      for (int t = 0; t < r.teams; ++t)
        if (!to_number(w[t], s.score_before[t])) {
          error = "bad score '" + std::string(w[t]) + "'";
          return false;
        }
    } else if (key.starts_with("hand")) {
      if (!seat_of("hand", n)) return false;
      std::string_view cards = value;
      if (cards.ends_with("rest")) {
        if (rest_seat >= 0 || stock_rest) {
          error = "'rest' may appear once";
          return false;
        }
        rest_seat = n;
        cards.remove_suffix(4);
      }
      if (!parse_cards(cards, s.hand[n], error)) return false;
    } else if (key.starts_with("known")) {
      if (!seat_of("known", n) || !parse_cards(value, s.known[n], error)) return false;
    } else if (key == "red3") {
      auto w = words(value);
      if (static_cast<int>(w.size()) != r.players) {
        error = "red3 needs one count per seat";
        return false;
      }
      for (int i = 0; i < r.players; ++i) {
        if (!to_number(w[i], n) || n < 0 || n > 12) {
          error = "bad red three count";
          return false;
        }
        s.red3[i] = static_cast<uint8_t>(n);
      }
    } else if (key.starts_with("melds")) {
      if (!to_number(trim(key.substr(5)), n) || n < 0 || n >= r.teams) {
        error = "bad side in '" + printable(key) + "'";
        return false;
      }
      if (!parse_melds(value, s.melds[n], error)) return false;
    } else if (key == "start_melds") {
      have_start = true;
      for (auto w : words(value)) {
        if (!parse_meld_rank(w, n)) {
          error = "bad rank '" + printable(w) + "' in start_melds";
          return false;
        }
        s.start_ranks |= static_cast<uint16_t>(1U << n);
      }
    } else if (key == "melded_before") {
      for (auto w : words(value)) {
        if (!to_number(w, n) || n < 0 || n >= r.players) {
          error = "bad seat in melded_before";
          return false;
        }
        s.melded_before |= static_cast<uint8_t>(1U << n);
      }
    } else if (key == "pile") {
      for (auto w : words(value)) {
        if (!parse_kind(w, n)) {
          error = "bad card token '" + printable(w) + "' in pile";
          return false;
        }
        if (s.pile_size == kMaxCards) {
          error = "the pile holds more cards than a deck";
          return false;
        }
        s.pile[s.pile_size++] = static_cast<uint8_t>(n);
        s.pile_frozen |= is_wild(n) || n == kRed3;
      }
    } else if (key == "red3_owed") {
      for (auto w : words(value)) {
        if (!to_number(w, n) || n < 0 || n >= r.players || r.red3_deal != RedThreeDeal::kExposedNow) {
          error = "bad seat in red3_owed (a profile with red3=exposed)";
          return false;
        }
        s.red3_pending |= static_cast<uint8_t>(1U << n);
      }
    } else if (key == "pile_taken") {
      if (value != "yes" && value != "no") {
        error = "bad pile_taken '" + printable(value) + "' (yes or no)";
        return false;
      }
      pile_taken = value == "yes";
    } else if (key == "turns") {
      if (!to_number(value, n) || n < 1 || n > 60000) {
        error = "bad turns '" + printable(value) + "'";
        return false;
      }
      s.turns = static_cast<uint16_t>(n);
    } else if (key == "stock") {
      {
        for (auto w : words(value)) {
          if (w == "rest") {
            if (rest_seat >= 0) {
              error = "'rest' may appear once";
              return false;
            }
            stock_rest = true;
            continue;
          }
          if (!parse_kind(w, n)) {
            error = "bad card token '" + printable(w) + "' in stock";
            return false;
          }
          stock.push_back(n);
        }
      }
    } else {
      error = "unknown position key '" + printable(key) + "'";
      return false;
    }
  }
  if (!have_profile) {
    error = "a position needs a 'profile:' line";
    return false;
  }
  // What is not on the table, in the hands or in the pile is the stock (when
  // "rest") or was dealt earlier (kept at the front of the deck order).
  Deck ordered;
  const int total = ordered_deck(s.rules, ordered);
  std::array<int, kKindNb> left{};
  for (int i = 0; i < total; ++i) ++left[ordered[i]];
  auto take = [&](int k, int count) { left[k] -= count; };
  for (int seat = 0; seat < s.rules.players; ++seat) {
    for (int k = 0; k < kKindNb; ++k) take(k, s.hand[seat].count(k));
    take(kRed3, s.red3[seat]);
  }
  for (int t = 0; t < s.rules.teams; ++t) {
    for (int k = 0; k < kKindNb; ++k) take(k, s.melds[t].naturals.count(k));
    take(kJoker, s.melds[t].jokers.total());
    take(kTwo, s.melds[t].twos.total());
  }
  for (int i = 0; i < s.pile_size; ++i) take(s.pile[i], 1);
  for (int k : stock) take(k, 1);
  for (int k = 0; k < kKindNb; ++k)
    if (left[k] < 0) {
      error = "position holds more '" + std::string(kind_token(k)) + "' cards than the deck";
      return false;
    }
  if (stock_rest)
    for (int k = 0; k < kKindNb; ++k)
      for (; left[k] > 0; --left[k]) stock.push_back(k);
  if (rest_seat >= 0) {
    for (int k = 0; k < kKindNb; ++k) {
      if (k == kRed3) {
        s.red3[rest_seat] = static_cast<uint8_t>(s.red3[rest_seat] + left[k]);
      } else {
        s.hand[rest_seat].add(k, left[k]);
      }
      left[k] = 0;
    }
  }
  int unplaced = 0;
  for (int k = 0; k < kKindNb; ++k) unplaced += left[k];
  if (unplaced > 0) {
    error = std::to_string(unplaced) + " cards of the deck are nowhere (end the stock or a hand with 'rest')";
    return false;
  }
  // The deck order: every card outside the stock first (as dealt earlier), then the stock.
  std::array<int, kKindNb> outside{};
  for (int i = 0; i < total; ++i) ++outside[ordered[i]];
  for (int k : stock) --outside[k];
  int pos = 0;
  for (int k = 0; k < kKindNb; ++k)
    for (int i = 0; i < outside[k]; ++i) s.deck[pos++] = static_cast<uint8_t>(k);
  s.stock_pos = static_cast<uint8_t>(pos);
  for (int k : stock) s.deck[pos++] = static_cast<uint8_t>(k);
  s.deck_size = static_cast<uint8_t>(pos);
  if (s.rules.frozen_until_taken && !pile_taken) s.pile_frozen = true;
  if (!have_start) s.start_ranks = s.melds[s.rules.team_of(s.seat)].ranks();
  // The opening flag follows from the side's melds at the start of the turn.
  const int team = s.rules.team_of(s.seat);
  s.flags &= static_cast<uint16_t>(~kOpening);
  if ((s.phase == Phase::kDraw && !s.melds[team].any()) ||
      (s.phase != Phase::kDraw && s.start_ranks == 0 && s.turn_value < opening_minimum(s, team)))
    s.flags |= kOpening;
  if (s.phase == Phase::kMeld || s.phase == Phase::kAnswer) {
    if (s.hand[s.seat].empty() && !(s.flags & kPilePending)) {
      error = "the player to move has no cards";
      return false;
    }
  }
  if (const char* bad = check_invariants(s)) {
    error = std::string("inconsistent position: ") + bad;
    return false;
  }
  return true;
}

}  // namespace canasta
