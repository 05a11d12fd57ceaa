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

// Reads a position's lines into a State, one "key: value" line at a time,
// then completes it (finish): the cards no line places, the deck order and
// the turn's flags. Every step sets `error` and returns false on bad input.
class PositionReader {
 public:
  PositionReader(State& s, std::string& error) : s_(s), error_(error) {
    s_ = State{};
    s_.out_seat = -1;
    s_.turns = 1;
  }

  // One trimmed line: blank lines and '#' comments are skipped; each key
  // once, the profile first (the other keys depend on its rules).
  bool read_line(std::string_view ln) {
    if (ln.empty() || ln.front() == '#') return true;
    const size_t colon = ln.find(':');
    if (colon == std::string_view::npos) {
      error_ = "position line '" + printable(ln) + "' is not 'key: value'";
      return false;
    }
    const std::string_view key = trim(ln.substr(0, colon));
    const std::string_view value = trim(ln.substr(colon + 1));
    if (std::find(keys_.begin(), keys_.end(), key) != keys_.end()) {
      error_ = "position key '" + printable(key) + "' is given twice";
      return false;
    }
    keys_.push_back(key);
    if (key == "profile") {
      if (!parse_profile(value, s_.rules, error_)) return false;
      have_profile_ = true;
      return true;
    }
    if (!have_profile_) {
      error_ = "a position starts with its 'profile:' line";
      return false;
    }
    return read_entry(key, value);
  }

  // After the last line: the cards not placed by any line, the deck order,
  // what follows from the turn, and the checks of the whole.
  bool finish() {
    if (!have_profile_) {
      error_ = "a position needs a 'profile:' line";
      return false;
    }
    // What is not on the table, in the hands or in the pile is the stock (when
    // "rest") or was dealt earlier (kept at the front of the deck order).
    Deck ordered;
    const int total = ordered_deck(s_.rules, ordered);
    std::array<int, kKindNb> left{};
    for (int i = 0; i < total; ++i) ++left[ordered[i]];
    if (!take_placed(left) || !place_rest(left)) return false;
    order_deck(ordered, total);
    settle_turn();
    return check_whole();
  }

 private:
  // Every key but the profile, by name.
  bool read_entry(std::string_view key, std::string_view value) {
    if (key == "dealer" || key == "seat") return read_seat_key(key, value);
    if (key == "phase") return read_phase(value);
    if (key == "flags") return read_flags(value);
    if (key == "turn_value") return read_turn_value(value);
    if (key == "scores") return read_scores(value);
    if (key.starts_with("hand")) return read_hand(key, value);
    if (key.starts_with("known")) return read_known(key, value);
    if (key == "red3") return read_red3(value);
    if (key.starts_with("melds")) return read_melds(key, value);
    if (key == "start_melds") return read_start_melds(value);
    if (key == "melded_before") return read_melded_before(value);
    if (key == "pile") return read_pile(value);
    if (key == "red3_owed") return read_red3_owed(value);
    if (key == "pile_taken") return read_pile_taken(value);
    if (key == "turns") return read_turns(value);
    if (key == "stock") return read_stock(value);
    error_ = "unknown position key '" + printable(key) + "'";
    return false;
  }

  // The seat number that follows `prefix` in `key` (hand2: seat 2).
  bool seat_of(std::string_view key, std::string_view prefix, int& seat) {
    if (!to_number(trim(key.substr(prefix.size())), seat) || seat < 0 || seat >= s_.rules.players) {
      error_ = "bad seat in '" + printable(key) + "'";
      return false;
    }
    return true;
  }

  // dealer: N, seat: N.
  bool read_seat_key(std::string_view key, std::string_view value) {
    int n = 0;
    if (!to_number(value, n) || n < 0 || n >= s_.rules.players) {
      error_ = "bad " + printable(key) + " '" + printable(value) + "'";
      return false;
    }
    (key == "dealer" ? s_.dealer : s_.seat) = static_cast<uint8_t>(n);
    return true;
  }

  bool read_phase(std::string_view value) {
    bool found = false;
    for (int i = 0; i < 4; ++i)
      if (value == kPhaseNames[i]) s_.phase = static_cast<Phase>(i), found = true;
    if (!found) {
      error_ = "bad phase '" + printable(value) + "' (draw, meld, answer, over)";
      return false;
    }
    return true;
  }

  bool read_flags(std::string_view value) {
    for (auto w : words(value)) {
      bool found = false;
      for (auto [bit, name] : kFlagNames)
        if (w == name) s_.flags |= bit, found = true;
      if (!found) {
        error_ = "unknown flag '" + printable(w) + "'";
        return false;
      }
    }
    return true;
  }

  bool read_turn_value(std::string_view value) {
    int n = 0;
    if (!to_number(value, n) || n < 0 || n > 5000) {
      error_ = "bad turn_value";
      return false;
    }
    s_.turn_value = static_cast<int16_t>(n);
    return true;
  }

  // One score a side.
  bool read_scores(std::string_view value) {
    auto w = words(value);
    if (static_cast<int>(w.size()) != s_.rules.teams) {
      error_ = "scores needs one number per side";
      return false;
    }
    for (int t = 0; t < s_.rules.teams; ++t)
      if (!to_number(w[t], s_.score_before[t])) {
        error_ = "bad score '" + std::string(w[t]) + "'";
        return false;
      }
    return true;
  }

  // handN: the seat's cards; ending in "rest", also every card no line places.
  bool read_hand(std::string_view key, std::string_view value) {
    int n = 0;
    if (!seat_of(key, "hand", n)) return false;
    std::string_view cards = value;
    if (cards.ends_with("rest")) {
      if (rest_seat_ >= 0 || stock_rest_) {
        error_ = "'rest' may appear once";
        return false;
      }
      rest_seat_ = n;
      cards.remove_suffix(4);
    }
    return parse_cards(cards, s_.hand[n], error_);
  }

  // knownN: the cards of the seat's hand the other seats have seen.
  bool read_known(std::string_view key, std::string_view value) {
    int n = 0;
    return seat_of(key, "known", n) && parse_cards(value, s_.known[n], error_);
  }

  // One count of red threes a seat.
  bool read_red3(std::string_view value) {
    auto w = words(value);
    if (static_cast<int>(w.size()) != s_.rules.players) {
      error_ = "red3 needs one count per seat";
      return false;
    }
    for (int i = 0; i < s_.rules.players; ++i) {
      int n = 0;
      if (!to_number(w[i], n) || n < 0 || n > 12) {
        error_ = "bad red three count";
        return false;
      }
      s_.red3[i] = static_cast<uint8_t>(n);
    }
    return true;
  }

  // meldsN: the melds of side N.
  bool read_melds(std::string_view key, std::string_view value) {
    int n = 0;
    if (!to_number(trim(key.substr(5)), n) || n < 0 || n >= s_.rules.teams) {
      error_ = "bad side in '" + printable(key) + "'";
      return false;
    }
    return parse_melds(value, s_.melds[n], error_);
  }

  // The ranks the side to move had melded when the turn began.
  bool read_start_melds(std::string_view value) {
    have_start_ = true;
    for (auto w : words(value)) {
      int n = 0;
      if (!parse_meld_rank(w, n)) {
        error_ = "bad rank '" + printable(w) + "' in start_melds";
        return false;
      }
      s_.start_ranks |= static_cast<uint16_t>(1U << n);
    }
    return true;
  }

  bool read_melded_before(std::string_view value) {
    for (auto w : words(value)) {
      int n = 0;
      if (!to_number(w, n) || n < 0 || n >= s_.rules.players) {
        error_ = "bad seat in melded_before";
        return false;
      }
      s_.melded_before |= static_cast<uint8_t>(1U << n);
    }
    return true;
  }

  // The pile from the bottom up; a wild card or red three in it freezes it.
  bool read_pile(std::string_view value) {
    for (auto w : words(value)) {
      int n = 0;
      if (!parse_kind(w, n)) {
        error_ = "bad card token '" + printable(w) + "' in pile";
        return false;
      }
      if (s_.pile_size == kMaxCards) {
        error_ = "the pile holds more cards than a deck";
        return false;
      }
      s_.pile[s_.pile_size++] = static_cast<uint8_t>(n);
      s_.pile_frozen |= is_wild(n) || n == kRed3;
    }
    return true;
  }

  bool read_red3_owed(std::string_view value) {
    for (auto w : words(value)) {
      int n = 0;
      if (!to_number(w, n) || n < 0 || n >= s_.rules.players ||
          s_.rules.red3_deal != RedThreeDeal::kExposedNow) {
        error_ = "bad seat in red3_owed (a profile with red3=exposed)";
        return false;
      }
      s_.red3_pending |= static_cast<uint8_t>(1U << n);
    }
    return true;
  }

  bool read_pile_taken(std::string_view value) {
    if (value != "yes" && value != "no") {
      error_ = "bad pile_taken '" + printable(value) + "' (yes or no)";
      return false;
    }
    pile_taken_ = value == "yes";
    return true;
  }

  bool read_turns(std::string_view value) {
    int n = 0;
    if (!to_number(value, n) || n < 1 || n > 60000) {
      error_ = "bad turns '" + printable(value) + "'";
      return false;
    }
    s_.turns = static_cast<uint16_t>(n);
    return true;
  }

  // The stock from the next card drawn on; "rest" among its cards stands for
  // every card no line places.
  bool read_stock(std::string_view value) {
    for (auto w : words(value)) {
      if (w == "rest") {
        if (rest_seat_ >= 0) {
          error_ = "'rest' may appear once";
          return false;
        }
        stock_rest_ = true;
        continue;
      }
      int n = 0;
      if (!parse_kind(w, n)) {
        error_ = "bad card token '" + printable(w) + "' in stock";
        return false;
      }
      stock_.push_back(n);
    }
    return true;
  }

  // Takes from `left` (the deck's cards by kind) every card the lines
  // placed: hands, red threes, melds, pile and stock; no kind may go below 0.
  bool take_placed(std::array<int, kKindNb>& left) {
    auto take = [&](int k, int count) { left[k] -= count; };
    for (int seat = 0; seat < s_.rules.players; ++seat) {
      for (int k = 0; k < kKindNb; ++k) take(k, s_.hand[seat].count(k));
      take(kRed3, s_.red3[seat]);
    }
    for (int t = 0; t < s_.rules.teams; ++t) {
      for (int k = 0; k < kKindNb; ++k) take(k, s_.melds[t].naturals.count(k));
      take(kJoker, s_.melds[t].jokers.total());
      take(kTwo, s_.melds[t].twos.total());
    }
    for (int i = 0; i < s_.pile_size; ++i) take(s_.pile[i], 1);
    for (int k : stock_) take(k, 1);
    for (int k = 0; k < kKindNb; ++k)
      if (left[k] < 0) {
        error_ = "position holds more '" + std::string(kind_token(k)) + "' cards than the deck";
        return false;
      }
    return true;
  }

  // The cards left go to the stock or the hand that ends in "rest"; with
  // neither, none may be left.
  bool place_rest(std::array<int, kKindNb>& left) {
    if (stock_rest_)
      for (int k = 0; k < kKindNb; ++k)
        for (; left[k] > 0; --left[k]) stock_.push_back(k);
    if (rest_seat_ >= 0) {
      for (int k = 0; k < kKindNb; ++k) {
        if (k == kRed3) {
          s_.red3[rest_seat_] = static_cast<uint8_t>(s_.red3[rest_seat_] + left[k]);
        } else {
          s_.hand[rest_seat_].add(k, left[k]);
        }
        left[k] = 0;
      }
    }
    int unplaced = 0;
    for (int k = 0; k < kKindNb; ++k) unplaced += left[k];
    if (unplaced > 0) {
      error_ =
          std::to_string(unplaced) + " cards of the deck are nowhere (end the stock or a hand with 'rest')";
      return false;
    }
    return true;
  }

  // The deck order: every card outside the stock first (as dealt earlier), then the stock.
  void order_deck(const Deck& ordered, int total) {
    std::array<int, kKindNb> outside{};
    for (int i = 0; i < total; ++i) ++outside[ordered[i]];
    for (int k : stock_) --outside[k];
    int pos = 0;
    for (int k = 0; k < kKindNb; ++k)
      for (int i = 0; i < outside[k]; ++i) s_.deck[pos++] = static_cast<uint8_t>(k);
    s_.stock_pos = static_cast<uint8_t>(pos);
    for (int k : stock_) s_.deck[pos++] = static_cast<uint8_t>(k);
    s_.deck_size = static_cast<uint8_t>(pos);
  }

  // What the lines leave out follows from the rest: a pile not yet taken
  // (spanish), the ranks melded at the start of the turn, the opening flag.
  void settle_turn() {
    if (s_.rules.frozen_until_taken && !pile_taken_) s_.pile_frozen = true;
    if (!have_start_) s_.start_ranks = s_.melds[s_.rules.team_of(s_.seat)].ranks();
    // The opening flag follows from the side's melds at the start of the turn.
    const int team = s_.rules.team_of(s_.seat);
    s_.flags &= static_cast<uint16_t>(~kOpening);
    if ((s_.phase == Phase::kDraw && !s_.melds[team].any()) ||
        (s_.phase != Phase::kDraw && s_.start_ranks == 0 && s_.turn_value < opening_minimum(s_, team)))
      s_.flags |= kOpening;
  }

  // The player to move holds cards, and the state keeps the engine's invariants.
  bool check_whole() {
    if (s_.phase == Phase::kMeld || s_.phase == Phase::kAnswer) {
      if (s_.hand[s_.seat].empty() && !(s_.flags & kPilePending)) {
        error_ = "the player to move has no cards";
        return false;
      }
    }
    if (const char* bad = check_invariants(s_)) {
      error_ = std::string("inconsistent position: ") + bad;
      return false;
    }
    return true;
  }

  State& s_;
  std::string& error_;
  bool have_profile_ = false, have_start_ = false, stock_rest_ = false, pile_taken_ = false;
  int rest_seat_ = -1;  // the seat whose hand takes every card not placed elsewhere
  std::vector<int> stock_;
  std::vector<std::string_view> keys_;  // those read so far
};

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
  PositionReader reader(s, error);
  for (auto raw : split(text, '\n'))
    if (!reader.read_line(trim(raw))) return false;
  return reader.finish();
}

}  // namespace canasta
