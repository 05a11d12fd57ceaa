// A deal in play as text (py_game.h): lines of numbers, never raw memory.
//
//   canasta-state/3
//   profile two-player,target=3000
//   deal SEED INDEX DEALER SCORE... DECK    (a deal of a seed)
//   world DEALER SCORE... DECK              (a redrawn deal: its deck alone)
//   actions ID...
//
// SCORE: each side's score before the deal; DECK: the deck in dealt order,
// one hexadecimal digit a card (its kind). Reading replays the actions, each
// checked, and refuses every number out of the game's range with a one-line
// ValueError. Texts of canasta-state/2 with a deal line read the same.
#include <fmt/format.h>

#include <charconv>
#include <sstream>

#include "canasta/profile.h"
#include "canasta/text.h"
#include "py_game.h"

namespace canasta::python {

namespace {

constexpr std::string_view kVersion = "canasta-state/3";
constexpr std::string_view kOldVersion = "canasta-state/2";

[[noreturn]] void refuse(const std::string& what) { throw py::value_error("a serialized state " + what); }

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

PyState read_start(const GamePtr& g, std::string_view line) {
  const Rules& r = g->rules;
  const bool of_deal = line.rfind("deal ", 0) == 0;
  if (!of_deal && line.rfind("world ", 0) != 0) refuse("has no deal line (deal or world expected)");
  Words w(line.substr(of_deal ? 5 : 6), of_deal ? "deal" : "world");
  uint64_t seed = 0;
  int64_t index = 0;
  if (of_deal) {
    seed = w.number<uint64_t>("seed", 0, UINT64_MAX);
    index = w.number<int64_t>("deal index", 0, INT64_MAX);
  }
  const int dealer = w.number<int>("dealer", 0, r.players - 1);
  const auto scores = read_scores(w, r);
  const Deck deck = read_deck(w, r);
  w.finish();
  PyState p = PyState::of_deck(g, deck, dealer, scores);
  p.from_deal = of_deal;
  p.seed = seed;
  p.deal = index;
  return p;
}

}  // namespace

std::string serialize_state(const PyState& p) {
  std::string out = fmt::format("{}\nprofile {}\n", kVersion, p.game->profile());
  const State& start = p.start;
  if (p.from_deal)
    fmt::format_to(std::back_inserter(out), "deal {} {} {}", p.seed, p.deal, static_cast<int>(start.dealer));
  else
    fmt::format_to(std::back_inserter(out), "world {}", static_cast<int>(start.dealer));
  for (int t = 0; t < start.rules.teams; ++t)
    fmt::format_to(std::back_inserter(out), " {}", start.score_before[t]);
  out += ' ';
  for (int i = 0; i < start.deck_size; ++i) out += "0123456789abcdef"[start.deck[i]];
  out += "\nactions";
  for (const Step& step : p.steps) fmt::format_to(std::back_inserter(out), " {}", p.ids().id(step.action));
  return out;
}

PyState deserialize_state(const GamePtr& g, const std::string& text) {
  std::istringstream in(text);
  std::string line;
  const auto next_line = [&](std::string_view key) {
    if (!std::getline(in, line) || line.rfind(key, 0) != 0) refuse(fmt::format("has no {} line", key));
    return std::string_view(line).substr(std::min(line.size(), key.size()));
  };
  if (!std::getline(in, line) || (line != kVersion && line != kOldVersion))
    throw py::value_error(fmt::format("not a state serialized by this version ({} expected)", kVersion));
  Rules r;
  std::string error;
  if (!parse_profile(std::string(next_line("profile ")), r, error)) throw py::value_error(error);
  if (!(r == g->rules)) throw py::value_error("the state is of another profile: " + profile_spec(r));
  if (!std::getline(in, line)) refuse("ends too soon: no deal line");
  PyState p = read_start(g, line);
  Words actions(next_line("actions"), "actions");
  while (!actions.done()) p.apply_action(actions.number<int64_t>("action id", 0, g->ids->size() - 1));
  if (std::getline(in, line)) refuse(fmt::format("has more lines than it should: '{}'", printable(line)));
  return p;
}

}  // namespace canasta::python
