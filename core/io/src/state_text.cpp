#include "canasta/state_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <iterator>
#include <sstream>

#include "canasta/engine.h"
#include "canasta/notation.h"
#include "canasta/params.h"
#include "canasta/profile.h"

namespace canasta {

namespace {

constexpr std::string_view kVersion = "canasta-state/3";
constexpr std::string_view kOldVersion = "canasta-state/2";

// A reading stopped: the error, as parse_state_text returns it.
struct Refused {
  std::string error;
};
[[noreturn]] void refuse(const std::string& what) { throw Refused{"a serialized state " + what}; }

// The words of one line, read in turn, each a number checked against its range.
class Words {
 public:
  Words(std::string_view line, std::string_view key) : key_(key) {
    std::istringstream in{std::string(line)};
    for (std::string w; in >> w;) words_.push_back(w);
  }
  bool done() const { return next_ == words_.size(); }
  const std::string& word(const char* what) {
    if (done()) refuse(fmt::format("ends too soon: its {} line has no {}", key_, what));
    return words_[next_++];
  }
  template <class T>
  T number(const char* what, T lo, T hi) {
    const std::string& w = word(what);
    T v{};
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || end != w.data() + w.size() || v < lo || v > hi)
      refuse(fmt::format("holds a bad {} on its {} line: '{}' (wants {} to {})", what, key_, printable(w), lo,
                         hi));
    return v;
  }
  void finish() {
    if (!done())
      refuse(fmt::format("has more on its {} line than it should: '{}'", key_, printable(word(""))));
  }

 private:
  std::string key_;
  std::vector<std::string> words_;
  size_t next_ = 0;
};

// The scores before a deal that a game can reach: sums of at most
// max_deals - 1 deal scores, and (a game still playing) no side alone at
// or above the target, no tie there under TieRule::kDraw. Kept where a deal's
// score added to them cannot overflow.
std::array<int32_t, kMaxTeams> read_scores(Words& w, const Rules& r) {
  const DealBounds b = deal_bounds(r);
  const int64_t deals = r.max_deals - 1;
  const int64_t high = std::min<int64_t>(deals * b.high, INT32_MAX - b.high);
  const int64_t low = std::max<int64_t>(-deals * b.low, INT32_MIN + b.low);
  std::array<int32_t, kMaxTeams> scores{};
  for (int t = 0; t < r.teams; ++t)
    scores[static_cast<size_t>(t)] =
        static_cast<int32_t>(w.number<int64_t>("score before the deal", low, high));
  const int32_t best = *std::max_element(scores.begin(), scores.begin() + r.teams);
  const auto at_best = std::count(scores.begin(), scores.begin() + r.teams, best);
  if (best >= r.target && (at_best == 1 || r.tie == TieRule::kDraw))
    refuse(
        fmt::format("holds scores before the deal of a game already over ({} at target {})", best, r.target));
  return scores;
}

Deck read_deck(Words& w, const Rules& r) {
  const std::string& text = w.word("deck");
  Deck deck{};
  CardSet pack;
  if (static_cast<int>(text.size()) != r.deck_cards())
    refuse(fmt::format("holds a deck of {} cards, not {}", text.size(), r.deck_cards()));
  for (size_t i = 0; i < text.size(); ++i) {
    int k = kKindNb;
    const auto [end, ec] = std::from_chars(text.data() + i, text.data() + i + 1, k, 16);
    if (ec != std::errc() || k >= kKindNb || pack.count(k) >= full_pack(r).count(k))
      refuse(fmt::format("holds a deck that is not the profile's pack (card {}: '{}')", i,
                         printable(text.substr(i, 1))));
    deck[i] = static_cast<uint8_t>(k);
    pack.add(k);
  }
  return deck;
}

// The deal line: a deal of a seed, or a deck alone.
void read_start(std::string_view line, const Rules& r, DealHistory& h) {
  h.of_seed = line.rfind("deal ", 0) == 0;
  if (!h.of_seed && line.rfind("world ", 0) != 0) refuse("has no deal line (deal or world expected)");
  Words w(line.substr(h.of_seed ? 5 : 6), h.of_seed ? "deal" : "world");
  if (h.of_seed) {
    h.seed = w.number<uint64_t>("seed", 0, UINT64_MAX);
    h.deal = w.number<int64_t>("deal index", 0, INT64_MAX);
  }
  const int dealer = w.number<int>("dealer", 0, r.players - 1);
  const auto scores = read_scores(w, r);
  const Deck deck = read_deck(w, r);
  w.finish();
  start_deal(h.start, r, deck, r.deck_cards(), dealer, scores);
}

// The actions line: each action checked as it is replayed.
void read_actions(Words& w, const ActionIds& ids, DealHistory& h) {
  State s = h.start;
  ActionList legal;
  while (!w.done()) {
    const auto id = w.number<int64_t>("action id", 0, ids.size() - 1);
    if (s.over()) throw Refused{"the deal is over"};
    const Action a = ids.action(static_cast<int>(id));
    legal_actions(s, legal);
    if (!legal.contains(a)) throw Refused{fmt::format("illegal action {} ({})", action_to_string(a), id)};
    apply(s, a);
    h.actions.push_back(a);
  }
}

void read_text(std::string_view text, const Rules& rules, const ActionIds& ids, DealHistory& h) {
  std::istringstream in{std::string(text)};
  std::string line;
  const auto next_line = [&](std::string_view key) {
    if (!std::getline(in, line) || line.rfind(key, 0) != 0) refuse(fmt::format("has no {} line", key));
    return std::string_view(line).substr(std::min(line.size(), key.size()));
  };
  if (!std::getline(in, line) || (line != kVersion && line != kOldVersion))
    throw Refused{fmt::format("not a state serialized by this version ({} expected)", kVersion)};
  Rules r;
  std::string error;
  if (!parse_profile(std::string(next_line("profile ")), r, error)) throw Refused{error};
  if (!(r == rules)) throw Refused{"the state is of another profile: " + profile_spec(r)};
  if (!std::getline(in, line)) refuse("ends too soon: no deal line");
  read_start(line, rules, h);
  Words actions(next_line("actions"), "actions");
  read_actions(actions, ids, h);
  if (std::getline(in, line)) refuse(fmt::format("has more lines than it should: '{}'", printable(line)));
}

}  // namespace

std::string state_text(const DealHistory& h, const ActionIds& ids) {
  const State& start = h.start;
  std::string out = fmt::format("{}\nprofile {}\n", kVersion, profile_spec(start.rules));
  if (h.of_seed)
    fmt::format_to(std::back_inserter(out), "deal {} {} {}", h.seed, h.deal, static_cast<int>(start.dealer));
  else
    fmt::format_to(std::back_inserter(out), "world {}", static_cast<int>(start.dealer));
  for (int t = 0; t < start.rules.teams; ++t)
    fmt::format_to(std::back_inserter(out), " {}", start.score_before[t]);
  out += ' ';
  for (int i = 0; i < start.deck_size; ++i) out += "0123456789abcdef"[start.deck[i]];
  out += "\nactions";
  for (const Action a : h.actions) fmt::format_to(std::back_inserter(out), " {}", ids.id(a));
  return out;
}

bool parse_state_text(std::string_view text, const Rules& rules, const ActionIds& ids, DealHistory& out,
                      std::string& error) {
  out = DealHistory{};
  try {
    read_text(text, rules, ids, out);
    return true;
  } catch (const Refused& r) {
    error = r.error;
    return false;
  }
}

}  // namespace canasta
