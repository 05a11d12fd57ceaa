// The game in OpenSpiel's shape: a registry (load_game), the game and its
// type, states with their history, rewards, tensors, serialisation,
// resampling and undo, observers, views and agents (sim/doc/python.md).
#include "canasta/game.h"

#include <fmt/format.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <charconv>
#include <sstream>

#include "bindings.h"
#include "canasta/action_ids.h"
#include "canasta/engine.h"
#include "canasta/notation.h"
#include "canasta/position.h"
#include "canasta/profile.h"
#include "canasta/record.h"
#include "canasta/runner.h"
#include "canasta/text.h"
#include "observation.h"

namespace canasta::python {

namespace {

constexpr int kTerminalPlayer = -4;  // OpenSpiel's kTerminalPlayerId
constexpr std::string_view kName = "canasta";
constexpr std::string_view kStateVersion = "canasta-state/2";

// The id space of a profile, made once (under the GIL, like every call here).
const ActionIds& ids_for(const Rules& r) {
  static std::vector<std::pair<Rules, std::unique_ptr<ActionIds>>> made;
  for (const auto& [rules, ids] : made)
    if (rules == r) return *ids;
  made.emplace_back(r, std::make_unique<ActionIds>(r));
  return *made.back().second;
}

// A game: a profile, and the seed of the deals new_initial_state() deals in turn.
struct PyGame {
  Rules rules;
  uint64_t seed = 1;
  int64_t next_deal = 0;
  const ActionIds* ids = nullptr;

  std::string profile() const { return profile_spec(rules); }
  std::string name() const { return fmt::format("{}(profile={},seed={})", kName, profile(), seed); }
  int max_length() const { return max_game_length(rules); }
  // A side's deal score lies within [-low, high]: every card of the pack
  // melded (or left in hand), every canasta and premium, every red three.
  double margin_bound() const {
    const CardSet pack = full_pack(rules);
    const int cards = pack.value();
    const int canastas = rules.deck_cards() / kCanastaSize;
    const int bonus = rules.wild_melds ? kWildCanastaBonus : kNaturalCanastaBonus;
    const int reds = red_three_score(pack.count(kRed3), true);
    const int premiums = rules.premiums ? kCanastronBonus + kCanastaDeCanastas + kFourBlackThrees : 0;
    const int out = rules.premiums ? kConcealedPremium[0][0] : kConcealedBonus;
    const int high = cards + canastas * bonus + reds + premiums + out;
    const int low = cards + reds + (rules.premiums ? kFourBlackThreesHeld : 0);
    return static_cast<double>(high + low);
  }
};
using GamePtr = std::shared_ptr<PyGame>;

GamePtr make_game(const std::string& spec, uint64_t seed) {
  auto g = std::make_shared<PyGame>();
  g->rules = rules_or_raise(spec);
  g->seed = seed;
  g->ids = &ids_for(g->rules);
  return g;
}

std::string text_of(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  return py::str(value).cast<std::string>();
}

// load_game("canasta"), load_game("canasta(profile=two-player,target=3000)"),
// load_game("canasta", {"profile": "spanish", "seed": 5}): `profile` and
// `seed` are the game's parameters; any other is a rule of the profile.
GamePtr load_game(const std::string& text, const py::dict& params) {
  std::string name = text;
  std::vector<std::pair<std::string, std::string>> given;
  if (const size_t open = text.find('('); open != std::string::npos) {
    if (text.back() != ')')
      throw py::value_error("a game string is name(key=value,...): '" + printable(text) + "'");
    name = text.substr(0, open);
    const std::string inside = text.substr(open + 1, text.size() - open - 2);
    std::stringstream in(inside);
    for (std::string item; std::getline(in, item, ',');) {
      const size_t eq = item.find('=');
      if (eq == std::string::npos)
        throw py::value_error("a game parameter is key=value: '" + printable(item) + "'");
      given.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
  }
  if (name != kName) throw py::value_error("unknown game '" + printable(name) + "' (registered: canasta)");
  for (const auto& [key, value] : params) given.emplace_back(text_of(key), text_of(value));
  std::string profile = "classic", overrides;
  uint64_t seed = 1;
  for (const auto& [key, value] : given) {
    if (key == "profile") {
      profile = value;
    } else if (key == "seed") {
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
      if (ec != std::errc() || end != value.data() + value.size())
        throw py::value_error("parameter 'seed' wants a whole number, not '" + printable(value) + "'");
    } else {
      overrides += "," + key + "=" + value;
    }
  }
  return make_game(profile + overrides, seed);
}

// The OpenSpiel game type: enums with OpenSpiel's names.
enum class Dynamics { kSequential, kSimultaneous, kMeanField };
enum class ChanceMode { kDeterministic, kExplicitStochastic, kSampledStochastic };
enum class Information { kOneShot, kPerfectInformation, kImperfectInformation };
enum class Utility { kZeroSum, kConstantSum, kGeneralSum, kIdentical };
enum class RewardModel { kRewards, kTerminal };
struct GameType {
  std::string short_name{kName}, long_name = "Canasta";
  Dynamics dynamics = Dynamics::kSequential;
  ChanceMode chance_mode = ChanceMode::kSampledStochastic;
  Information information = Information::kImperfectInformation;
  Utility utility = Utility::kZeroSum;
  RewardModel reward_model = RewardModel::kTerminal;
  int max_num_players = kMaxSeats, min_num_players = 2;
  bool provides_information_state_string = true, provides_information_state_tensor = true,
       provides_observation_string = true, provides_observation_tensor = true,
       provides_factored_observation_string = false, default_loadable = true;
};

struct IIGObservationType {
  bool perfect_recall = false;
  bool public_info = true;
};

struct PlayerAction {
  int player;
  int action;
};

int check_seat(const Rules& r, int seat) {
  if (seat < 0 || seat >= r.players)
    throw py::value_error("no seat " + std::to_string(seat) + " in a game of " + std::to_string(r.players));
  return seat;
}

// A deal in play: its start, and every step since. A state made by
// resample_from_infostate starts from the sampled position, after the steps
// it inherited (`base` of them: history, not replayed).
struct PyState {
  GamePtr game;
  State s, start;
  uint64_t seed = 0;  // the single deal the start came from (records)
  int64_t deal = 0;
  DealStart dealt;
  bool from_deal = true;  // false once resampled
  mutable std::vector<int> legal;
  mutable bool legal_known = false;
  size_t base = 0;
  std::vector<Step> steps;

  static PyState initial(const GamePtr& g, uint64_t seed, int64_t deal) {
    PyState p;
    p.game = g;
    p.seed = seed;
    p.deal = deal;
    start_single_deal(p.s, g->rules, seed, deal);
    p.steps.reserve(256);
    p.began();
    return p;
  }
  void began() {
    start = s;
    for (int seat = 0; seat < s.rules.players; ++seat) {
      dealt.hand[static_cast<size_t>(seat)] = s.hand[seat];
      dealt.red3[static_cast<size_t>(seat)] = s.red3[seat];
    }
  }
  const ActionIds& ids() const { return *game->ids; }
  int current_player() const { return s.over() ? kTerminalPlayer : s.actor(); }
  int seat_or_current(const py::object& player) const {
    if (player.is_none()) {
      if (s.over()) throw py::value_error("the deal is over: name the player");
      return s.actor();
    }
    return check_seat(s.rules, player.cast<int>());
  }
  // Whether legal_actions(player) lists the actor's ids: for no player or the
  // one to act; another seat has none (as in OpenSpiel), a player that is no
  // seat raises as observation_tensor does (current_player() itself, TERMINAL
  // at the end, gives none).
  bool lists_for(const py::object& player) const {
    if (player.is_none()) return true;
    const int p = player.cast<int>();
    if (p == current_player()) return true;
    check_seat(s.rules, p);
    return false;
  }
  Action action_of(int64_t id) const {
    if (id < 0 || id >= ids().size())
      throw py::value_error(fmt::format("no action id {} (ids are 0..{})", id, ids().size() - 1));
    return ids().action(static_cast<int>(id));
  }
  int id_of_text(const std::string& text) const {
    Action a;
    std::string error;
    if (!parse_action(text, a, error)) throw py::value_error(error);
    return id_of(a);
  }
  int id_of(Action a) const {
    const int id = ids().id(a);
    if (id < 0) throw py::value_error("action '" + action_to_string(a) + "' has no id in " + game->profile());
    return id;
  }

  // The actor's legal ids, kept until the next action so that applying one
  // of them needs no second generation of the list.
  const std::vector<int>& legal_actions() const {
    if (!legal_known) {
      legal.clear();
      if (!s.over()) {
        ActionList list;
        canasta::legal_actions(s, list);
        const ActionIds& map = ids();
        for (Action a : list) legal.push_back(map.id(a));
      }
      legal_known = true;
    }
    return legal;
  }
  void play(Action a) {
    const int seat = s.actor();
    apply(s, a);
    legal_known = false;
    steps.push_back({a, static_cast<int8_t>(seat), s.red3[seat], s.hand[seat]});
  }
  void apply_action(int64_t id) {
    if (s.over()) throw py::value_error("the deal is over");
    const Action a = action_of(id);
    const std::vector<int>& ok = legal_actions();
    if (!std::binary_search(ok.begin(), ok.end(), static_cast<int>(id)))
      throw py::value_error(fmt::format("illegal action {} ({})", action_to_string(a), id));
    play(a);
  }
  void undo_action(int player, int64_t id) {
    if (steps.size() <= base) throw py::value_error("no action of this state to undo");
    const Step& last = steps.back();
    if (last.seat != player || ids().id(last.action) != id)
      throw py::value_error(
          fmt::format("the last action was {} by seat {}", ids().id(last.action), last.seat));
    steps.pop_back();
    s = start;
    for (size_t i = base; i < steps.size(); ++i) apply(s, steps[i].action);
    legal_known = false;
  }

  // Each seat's return: its side's deal score less the mean of the other
  // sides', once the deal is over (zero before): zero-sum at every table.
  std::vector<double> returns() const {
    std::vector<double> out(static_cast<size_t>(s.rules.players), 0.0);
    if (!s.over()) return out;
    const auto margin = deal_margins(s);
    for (int seat = 0; seat < s.rules.players; ++seat)
      out[static_cast<size_t>(seat)] = margin[s.rules.team_of(seat)];
    return out;
  }
  std::vector<int> scores() const {
    const auto score = deal_score(s);
    std::vector<int> out;
    for (int t = 0; t < s.rules.teams; ++t) out.push_back(score[t].total());
    return out;
  }

  py::array_t<float> observation_tensor(const py::object& player) const {
    py::array_t<float> out(kObservationSize);
    canasta::observation_tensor(View(s, seat_or_current(player)), out.mutable_data());
    return out;
  }
  py::array_t<float> information_state_tensor(const py::object& player) const {
    py::array_t<float> out(information_state_size(s.rules));
    canasta::information_state_tensor(View(s, seat_or_current(player)), dealt, steps, out.mutable_data());
    return out;
  }
  std::string information_state_string(const py::object& player) const {
    return canasta::information_state_string(View(s, seat_or_current(player)), dealt, steps);
  }

  std::string record_line() const {
    if (!s.over()) throw py::value_error("the deal is not over");
    if (!from_deal) throw py::value_error("a resampled state has no record: its deal is not one of a seed");
    DealRecord rec;
    begin_single_record(rec, start, seed, deal);
    for (const Step& step : steps) rec.actions.emplace_back(step.seat, step.action);
    end_record(rec, s);
    return to_json_line(rec);
  }

  std::string serialize() const;
};

// Serialisation: text lines of numbers, never raw memory. A state from a
// deal is its deal (profile, seed, deal, dealer, scores, deck) and its action
// ids, replayed when read; a resampled one writes its start field by field,
// the hands dealt and the steps it inherited.
void put_cards(std::string& out, CardSet c) { fmt::format_to(std::back_inserter(out), " {:x}", c.raw()); }

std::string dump_state(const State& s) {
  const Rules& r = s.rules;
  std::string out = "state";
  const auto put = [&](int64_t v) { fmt::format_to(std::back_inserter(out), " {}", v); };
  for (int p = 0; p < r.players; ++p) put_cards(out, s.hand[p]);
  for (int p = 0; p < r.players; ++p) put_cards(out, s.known[p]);
  for (int t = 0; t < r.teams; ++t) {
    put_cards(out, s.melds[t].naturals);
    put_cards(out, s.melds[t].jokers);
    put_cards(out, s.melds[t].twos);
    put(s.score_before[t]);
  }
  put(s.deck_size);
  for (int i = 0; i < s.deck_size; ++i) put(s.deck[i]);
  put(s.pile_size);
  for (int i = 0; i < s.pile_size; ++i) put(s.pile[i]);
  for (int p = 0; p < r.players; ++p) {
    put(s.red3[p]);
    put(s.discarded[p]);
  }
  for (int64_t v :
       {int64_t{s.stock_pos}, int64_t{s.dealer}, int64_t{s.seat}, int64_t{static_cast<int>(s.phase)},
        int64_t{static_cast<int>(s.end)}, int64_t{s.out_seat}, int64_t{s.concealed}, int64_t{s.pile_frozen},
        int64_t{s.red3_pending}, int64_t{s.melded_before}, int64_t{s.flags}, int64_t{s.turn_value},
        int64_t{s.start_ranks}, int64_t{s.turns}})
    put(v);
  return out;
}

// Reads whitespace-separated numbers (hexadecimal where `hex`), each checked against its range.
struct Numbers {
  std::istringstream in;
  explicit Numbers(const std::string& text) : in(text) {}
  int64_t next(int64_t lo, int64_t hi, bool hex = false) {
    std::string word;
    if (!(in >> word)) throw py::value_error("a serialized state ends too soon");
    int64_t v = 0;
    uint64_t u = 0;
    const char* end = word.data() + word.size();
    const auto r = hex ? std::from_chars(word.data(), end, u, 16) : std::from_chars(word.data(), end, v);
    if (hex) v = static_cast<int64_t>(u & 0x7fffffffffffffffULL);
    if (r.ec != std::errc() || r.ptr != end || v < lo || v > hi)
      throw py::value_error("a serialized state holds a bad number: '" + printable(word) + "'");
    return v;
  }
  CardSet cards() {
    std::string word;
    if (!(in >> word)) throw py::value_error("a serialized state ends too soon");
    uint64_t u = 0;
    const auto r = std::from_chars(word.data(), word.data() + word.size(), u, 16);
    if (r.ec != std::errc() || r.ptr != word.data() + word.size())
      throw py::value_error("a serialized state holds bad cards: '" + printable(word) + "'");
    return CardSet(u);
  }
};

State load_state(const std::string& text, const Rules& r) {
  Numbers n(text);
  State s{};
  s.rules = r;
  for (int p = 0; p < r.players; ++p) s.hand[p] = n.cards();
  for (int p = 0; p < r.players; ++p) s.known[p] = n.cards();
  for (int t = 0; t < r.teams; ++t) {
    s.melds[t].naturals = n.cards();
    s.melds[t].jokers = n.cards();
    s.melds[t].twos = n.cards();
    s.score_before[t] = static_cast<int32_t>(n.next(INT32_MIN, INT32_MAX));
  }
  s.deck_size = static_cast<uint8_t>(n.next(0, kMaxCards));
  for (int i = 0; i < s.deck_size; ++i) s.deck[i] = static_cast<uint8_t>(n.next(0, kKindNb - 1));
  s.pile_size = static_cast<uint8_t>(n.next(0, kMaxCards));
  for (int i = 0; i < s.pile_size; ++i) s.pile[i] = static_cast<uint8_t>(n.next(0, kKindNb - 1));
  for (int p = 0; p < r.players; ++p) {
    s.red3[p] = static_cast<uint8_t>(n.next(0, kMaxCards));
    s.discarded[p] = static_cast<uint16_t>(n.next(0, 0xffff));
  }
  s.stock_pos = static_cast<uint8_t>(n.next(0, s.deck_size));
  s.dealer = static_cast<uint8_t>(n.next(0, r.players - 1));
  s.seat = static_cast<uint8_t>(n.next(0, r.players - 1));
  s.phase = static_cast<Phase>(n.next(0, static_cast<int>(Phase::kOver)));
  s.end = static_cast<EndReason>(n.next(0, static_cast<int>(EndReason::kRedThreeLast)));
  s.out_seat = static_cast<int8_t>(n.next(-1, r.players - 1));
  s.concealed = static_cast<uint8_t>(n.next(0, 255));
  s.pile_frozen = n.next(0, 1) != 0;
  s.red3_pending = static_cast<uint8_t>(n.next(0, 255));
  s.melded_before = static_cast<uint8_t>(n.next(0, 255));
  s.flags = static_cast<uint16_t>(n.next(0, 0xffff));
  s.turn_value = static_cast<int16_t>(n.next(INT16_MIN, INT16_MAX));
  s.start_ranks = static_cast<uint16_t>(n.next(0, 0xffff));
  s.turns = static_cast<uint16_t>(n.next(0, 0xffff));
  if (const char* bad = check_invariants(s)) throw py::value_error(std::string("inconsistent state: ") + bad);
  return s;
}

std::string PyState::serialize() const {
  std::string out = fmt::format("{}\nprofile {}\n", kStateVersion, game->profile());
  const Rules& r = s.rules;
  if (from_deal) {
    fmt::format_to(std::back_inserter(out), "deal {} {} {}", seed, deal, static_cast<int>(start.dealer));
    for (int t = 0; t < r.teams; ++t) fmt::format_to(std::back_inserter(out), " {}", start.score_before[t]);
    out += ' ';
    for (int i = 0; i < start.deck_size; ++i) out += "0123456789abcdef"[start.deck[i]];
    out += '\n';
  } else {
    out += dump_state(start) + "\ndealt";
    for (int p = 0; p < r.players; ++p) {
      put_cards(out, dealt.hand[static_cast<size_t>(p)]);
      fmt::format_to(std::back_inserter(out), " {}", dealt.red3[static_cast<size_t>(p)]);
    }
    out += "\nprior";
    for (size_t i = 0; i < base; ++i) {
      const Step& step = steps[i];
      fmt::format_to(std::back_inserter(out), " {} {} {}", step.seat, ids().id(step.action), step.red3_after);
      put_cards(out, step.hand_after);
    }
    out += '\n';
  }
  out += "actions";
  for (size_t i = base; i < steps.size(); ++i)
    fmt::format_to(std::back_inserter(out), " {}", ids().id(steps[i].action));
  return out;
}

PyState deserialize_state(const GamePtr& g, const std::string& text) {
  std::istringstream in(text);
  std::string line;
  const auto next_line = [&](std::string_view key) {
    if (!std::getline(in, line) || line.rfind(key, 0) != 0)
      throw py::value_error(fmt::format("not a state serialized by this version ({} expected)", key));
    return line.substr(std::min(line.size(), key.size() + 1));
  };
  next_line(kStateVersion);
  Rules r;
  std::string error;
  if (!parse_profile(next_line("profile"), r, error)) throw py::value_error(error);
  if (!(r == g->rules)) throw py::value_error("the state is of another profile: " + profile_spec(r));
  PyState p;
  p.game = g;
  if (!std::getline(in, line)) throw py::value_error("a serialized state ends too soon");
  if (line.rfind("deal ", 0) == 0) {
    std::istringstream words(line.substr(5));
    std::array<int32_t, kMaxTeams> scores{};
    int dealer = -1;
    std::string deck_text;
    words >> p.seed >> p.deal >> dealer;
    for (int t = 0; t < r.teams; ++t) words >> scores[static_cast<size_t>(t)];
    words >> deck_text;
    Deck deck{};
    CardSet pack;
    for (size_t i = 0; i < deck_text.size() && i < deck.size(); ++i) {
      const int k = deck_text[i] >= 'a' ? deck_text[i] - 'a' + 10 : deck_text[i] - '0';
      if (k < 0 || k >= kKindNb) break;
      deck[i] = static_cast<uint8_t>(k);
      pack.add(k);
    }
    if (!words || dealer < 0 || dealer >= r.players || p.deal < 0 ||
        static_cast<int>(deck_text.size()) != r.deck_cards() || !(pack == full_pack(r)))
      throw py::value_error("a serialized state holds a bad deal line");
    start_deal(p.s, r, deck, r.deck_cards(), dealer, scores);
    p.began();
  } else if (line.rfind("state ", 0) == 0) {
    p.s = load_state(line.substr(6), r);
    p.start = p.s;
    p.from_deal = false;
    Numbers dealt(next_line("dealt"));
    for (int seat = 0; seat < r.players; ++seat) {
      p.dealt.hand[static_cast<size_t>(seat)] = dealt.cards();
      p.dealt.red3[static_cast<size_t>(seat)] = static_cast<uint8_t>(dealt.next(0, kMaxCards));
    }
    Numbers prior(next_line("prior") + " end");
    for (std::string word; prior.in >> std::ws, prior.in.peek() != 'e';) {
      Step step{};
      step.seat = static_cast<int8_t>(prior.next(0, r.players - 1));
      step.action = p.action_of(prior.next(0, g->ids->size() - 1));
      step.red3_after = static_cast<uint8_t>(prior.next(0, kMaxCards));
      step.hand_after = prior.cards();
      p.steps.push_back(step);
    }
    p.base = p.steps.size();
  } else {
    throw py::value_error("not a state serialized by this version (deal or state expected)");
  }
  Numbers actions(next_line("actions") + " end");
  while (actions.in >> std::ws, actions.in.peek() != 'e') p.apply_action(actions.next(0, g->ids->size() - 1));
  return p;
}

// Resampling: a state that `player` cannot tell from this one, its hidden
// cards (the other hands and the stock) drawn again at random.
PyState resample(const PyState& from, int player, const py::object& sampler) {
  check_seat(from.s.rules, player);
  uint64_t seed = 0;
  if (py::isinstance<py::int_>(sampler)) {
    seed = sampler.cast<uint64_t>();
  } else {  // OpenSpiel's form: a callable giving numbers in [0, 1)
    for (int i = 0; i < 2; ++i)
      seed = seed << 32 | static_cast<uint64_t>(sampler().cast<double>() * 4294967296.0);
  }
  PyState out = from;
  if (from.s.over()) return out;
  Rng rng(seed);
  out.s = View(from.s, player).determinize(rng);
  out.start = out.s;
  out.legal_known = false;
  out.from_deal = false;
  out.base = out.steps.size();
  return out;
}

// An observer (OpenSpiel's make_py_observer): a tensor, named views into it
// and the matching string, set from a state for a player.
struct PyObserver {
  GamePtr game;
  bool perfect_recall = false;
  py::array_t<float> tensor;
  py::dict dict;

  PyObserver(GamePtr g, bool recall) : game(std::move(g)), perfect_recall(recall) {
    const std::vector<TensorPiece> pieces =
        recall ? information_state_pieces(game->rules) : observation_pieces();
    tensor = py::array_t<float>(recall ? information_state_size(game->rules) : kObservationSize);
    std::fill(tensor.mutable_data(), tensor.mutable_data() + tensor.size(), 0.0F);
    for (const TensorPiece& piece : pieces) {
      int n = 1;
      for (int d : piece.shape) n *= d;
      py::object part = tensor[py::slice(piece.offset, piece.offset + n, 1)];
      dict[py::str(std::string(piece.name))] = part.attr("reshape")(py::tuple(py::cast(piece.shape)));
    }
  }
  void set_from(const PyState& state, int player) {
    check_seat(state.s.rules, player);
    const View v(state.s, player);
    if (perfect_recall)
      information_state_tensor(v, state.dealt, state.steps, tensor.mutable_data());
    else
      observation_tensor(v, tensor.mutable_data());
  }
  std::string string_from(const PyState& state, int player) const {
    check_seat(state.s.rules, player);
    const View v(state.s, player);
    return perfect_recall ? information_state_string(v, state.dealt, state.steps) : observation_string(v);
  }
};

// What one seat sees of a deal, taken when the view is made (a Python agent
// may keep it; it holds nothing the seat could not see).
struct PyView {
  int seat = 0;
  const ActionIds* ids;
  std::vector<int> legal;
  std::vector<float> obs;
  std::string text, hand;

  explicit PyView(const View& v)
      : seat(v.seat()), ids(&ids_for(v.rules())), obs(kObservationSize), text(observation_string(v)) {
    ActionList list;
    v.legal_actions(list);
    for (Action a : list) legal.push_back(ids->id(a));
    canasta::observation_tensor(v, obs.data());
    hand = cards_to_string(v.hand());
  }
};

class PyAgent final : public Agent {
 public:
  explicit PyAgent(py::function fn) : fn_(std::move(fn)) {}
  Action act(const View& v, Rng&) override {
    py::gil_scoped_acquire gil;
    PyView view(v);
    const auto id = fn_(view).cast<int64_t>();
    if (std::find(view.legal.begin(), view.legal.end(), id) == view.legal.end())
      throw py::value_error(fmt::format("a Python agent chose an illegal action: {}", id));
    return ids_for(v.rules()).action(static_cast<int>(id));
  }

 private:
  py::function fn_;
};

}  // namespace

Rules rules_or_raise(const std::string& spec) {
  Rules r;
  std::string error;
  if (!parse_profile(spec, r, error)) throw py::value_error(error);
  return r;
}

AgentSpec agent_or_raise(const std::string& spec) {
  AgentSpec a;
  std::string error;
  if (!parse_agent_spec(spec, a, error)) throw py::value_error(error);
  return a;
}

std::unique_ptr<Agent> python_agent(py::function fn) { return std::make_unique<PyAgent>(std::move(fn)); }

void bind_game(py::module_& m) {
  m.attr("OBSERVATION_SIZE") = kObservationSize;
  m.attr("TERMINAL") = kTerminalPlayer;
  m.def(
      "load_game", [](const std::string& text, const py::dict& params) { return load_game(text, params); },
      py::arg("name"), py::arg("params") = py::dict(),
      "the game: load_game(\"canasta\"), load_game(\"canasta(profile=two-player)\"), "
      "load_game(\"canasta\", {\"profile\": \"spanish\", \"seed\": 5})");
  m.def("registered_names", [] { return std::vector<std::string>{std::string(kName)}; });
  m.def(
      "profiles",
      [] {
        std::vector<std::string> out;
        for (const Profile& p : canasta::profiles()) out.emplace_back(p.name);
        return out;
      },
      "the names of the built-in rules profiles");

  py::class_<GameType> type(m, "GameType", "what kind of game it is, with OpenSpiel's fields");
  py::enum_<Dynamics>(type, "Dynamics")
      .value("SEQUENTIAL", Dynamics::kSequential)
      .value("SIMULTANEOUS", Dynamics::kSimultaneous)
      .value("MEAN_FIELD", Dynamics::kMeanField);
  py::enum_<ChanceMode>(type, "ChanceMode")
      .value("DETERMINISTIC", ChanceMode::kDeterministic)
      .value("EXPLICIT_STOCHASTIC", ChanceMode::kExplicitStochastic)
      .value("SAMPLED_STOCHASTIC", ChanceMode::kSampledStochastic);
  py::enum_<Information>(type, "Information")
      .value("ONE_SHOT", Information::kOneShot)
      .value("PERFECT_INFORMATION", Information::kPerfectInformation)
      .value("IMPERFECT_INFORMATION", Information::kImperfectInformation);
  py::enum_<Utility>(type, "Utility")
      .value("ZERO_SUM", Utility::kZeroSum)
      .value("CONSTANT_SUM", Utility::kConstantSum)
      .value("GENERAL_SUM", Utility::kGeneralSum)
      .value("IDENTICAL", Utility::kIdentical);
  py::enum_<RewardModel>(type, "RewardModel")
      .value("REWARDS", RewardModel::kRewards)
      .value("TERMINAL", RewardModel::kTerminal);
  type.def_readonly("short_name", &GameType::short_name)
      .def_readonly("long_name", &GameType::long_name)
      .def_readonly("dynamics", &GameType::dynamics)
      .def_readonly("chance_mode", &GameType::chance_mode)
      .def_readonly("information", &GameType::information)
      .def_readonly("utility", &GameType::utility)
      .def_readonly("reward_model", &GameType::reward_model)
      .def_readonly("max_num_players", &GameType::max_num_players)
      .def_readonly("min_num_players", &GameType::min_num_players)
      .def_readonly("provides_information_state_string", &GameType::provides_information_state_string)
      .def_readonly("provides_information_state_tensor", &GameType::provides_information_state_tensor)
      .def_readonly("provides_observation_string", &GameType::provides_observation_string)
      .def_readonly("provides_observation_tensor", &GameType::provides_observation_tensor)
      .def_readonly("provides_factored_observation_string", &GameType::provides_factored_observation_string)
      .def_readonly("default_loadable", &GameType::default_loadable)
      .def_property_readonly("parameter_specification", [](const GameType&) {
        py::dict d;
        d["profile"] = "classic";
        d["seed"] = 1;
        return d;
      });

  py::class_<PlayerAction>(m, "PlayerAction", "a step of the history: (player, action)")
      .def_readonly("player", &PlayerAction::player)
      .def_readonly("action", &PlayerAction::action)
      .def("__eq__", [](const PlayerAction& a,
                        const PlayerAction& b) { return a.player == b.player && a.action == b.action; })
      .def("__repr__",
           [](const PlayerAction& a) { return fmt::format("PlayerAction({}, {})", a.player, a.action); });

  py::class_<PyView>(m, "View", "what one seat sees of a deal, taken when it was made")
      .def_readonly("seat", &PyView::seat)
      .def("legal_actions", [](const PyView& v) { return v.legal; })
      .def("observation_tensor",
           [](const PyView& v) { return py::array_t<float>(v.obs.size(), v.obs.data()); })
      .def("observation_string", [](const PyView& v) { return v.text; })
      .def("hand", [](const PyView& v) { return v.hand; })
      .def("action_to_string", [](const PyView& v, int64_t id) {
        if (id < 0 || id >= v.ids->size()) throw py::value_error(fmt::format("no action id {}", id));
        return action_to_string(v.ids->action(static_cast<int>(id)));
      });

  py::class_<PyObserver>(m, "Observer", "a tensor and its named parts, set from a state for a player")
      .def_readonly("tensor", &PyObserver::tensor)
      .def_readonly("dict", &PyObserver::dict)
      .def("set_from", &PyObserver::set_from, py::arg("state"), py::arg("player"))
      .def("string_from", &PyObserver::string_from, py::arg("state"), py::arg("player"));

  py::class_<PyGame, GamePtr> game(m, "Game", "a rules profile: canasta.Game(\"two-player,target=3000\")");
  game.def(py::init(&make_game), py::arg("profile") = "classic", py::arg("seed") = 1)
      .def_property_readonly("profile", &PyGame::profile)
      .def("get_type", [](const PyGame&) { return GameType{}; })
      .def("get_parameters",
           [](const PyGame& g) {
             py::dict d;
             d["profile"] = g.profile();
             d["seed"] = g.seed;
             return d;
           })
      .def("num_players", [](const PyGame& g) { return static_cast<int>(g.rules.players); })
      .def("num_distinct_actions", [](const PyGame& g) { return g.ids->size(); })
      .def("max_chance_outcomes", [](const PyGame&) { return 0; })
      .def("max_game_length", &PyGame::max_length)
      .def("min_utility", [](const PyGame& g) { return -g.margin_bound(); })
      .def("max_utility", [](const PyGame& g) { return g.margin_bound(); })
      .def("utility_sum", [](const PyGame&) { return 0.0; })
      .def("observation_tensor_shape", [](const PyGame&) { return std::vector<int>{kObservationSize}; })
      .def("observation_tensor_size", [](const PyGame&) { return kObservationSize; })
      .def("information_state_tensor_shape",
           [](const PyGame& g) { return std::vector<int>{information_state_size(g.rules)}; })
      .def("information_state_tensor_size", [](const PyGame& g) { return information_state_size(g.rules); })
      .def(
          "new_initial_state",
          [](const GamePtr& g, std::optional<uint64_t> seed, std::optional<int64_t> deal) {
            if (deal && *deal < 0) throw py::value_error("a deal index is 0 or more");
            if (!seed && !deal) return PyState::initial(g, g->seed, g->next_deal++);
            return PyState::initial(g, seed.value_or(g->seed), deal.value_or(0));
          },
          py::arg("seed") = py::none(), py::arg("deal") = py::none(),
          "a single deal: the next deal of the game's seed, or deal `deal` (default 0) of `seed` "
          "(dealer: deal mod players)")
      .def("deserialize_state", &deserialize_state, py::arg("text"))
      .def(
          "make_py_observer",
          [](const GamePtr& g, const py::object& iig_obs_type, const py::object& params) {
            if (!params.is_none() && py::len(params) > 0)
              throw py::value_error("the observer takes no parameters");
            const bool recall = !iig_obs_type.is_none() &&
                                py::bool_(py::getattr(iig_obs_type, "perfect_recall", py::bool_(false)));
            return PyObserver(g, recall);
          },
          py::arg("iig_obs_type") = py::none(), py::arg("params") = py::none())
      .def("__str__", &PyGame::name)
      .def("__repr__", &PyGame::name)
      .def(py::pickle(
          [](const PyGame& g) { return py::make_tuple(g.profile(), g.seed); },
          [](const py::tuple& t) { return make_game(t[0].cast<std::string>(), t[1].cast<uint64_t>()); }));

  py::class_<PyState>(m, "State", "a deal in play")
      .def("current_player", &PyState::current_player)
      .def(
          "legal_actions",
          [](const PyState& s, const py::object& player) {
            if (!s.lists_for(player)) return py::list();
            const std::vector<int>& ids = s.legal_actions();
            py::list out(ids.size());
            for (size_t i = 0; i < ids.size(); ++i) PyList_SET_ITEM(out.ptr(), i, PyLong_FromLong(ids[i]));
            return out;
          },
          py::arg("player") = py::none(),
          "the actor's legal action ids, ascending (none for another seat; ValueError for no seat)")
      .def(
          "legal_actions_mask",
          [](const PyState& s, const py::object& player) {
            std::vector<int> mask(static_cast<size_t>(s.ids().size()), 0);
            if (s.lists_for(player))
              for (int id : s.legal_actions()) mask[static_cast<size_t>(id)] = 1;
            return mask;
          },
          py::arg("player") = py::none())
      .def("apply_action", &PyState::apply_action, py::arg("action"))
      .def("undo_action", &PyState::undo_action, py::arg("player"), py::arg("action"))
      .def("child",
           [](const PyState& s, int64_t id) {
             PyState c = s;
             c.apply_action(id);
             return c;
           })
      .def("is_terminal", [](const PyState& s) { return s.s.over(); })
      .def("is_chance_node", [](const PyState&) { return false; })
      .def("is_simultaneous_node", [](const PyState&) { return false; })
      .def("is_player_node", [](const PyState& s) { return !s.s.over(); })
      .def("is_initial_state", [](const PyState& s) { return s.steps.empty(); })
      .def("chance_outcomes", [](const PyState&) { return std::vector<std::pair<int, double>>{}; })
      .def("returns", &PyState::returns,
           "each seat's side's deal score less the other sides' mean, at the end")
      .def("rewards", &PyState::returns, "the returns, received on the deal's last action")
      .def("player_return",
           [](const PyState& s, int p) { return s.returns()[static_cast<size_t>(check_seat(s.s.rules, p))]; })
      .def("player_reward",
           [](const PyState& s, int p) { return s.returns()[static_cast<size_t>(check_seat(s.s.rules, p))]; })
      .def("scores", &PyState::scores, "each side's deal score, as the deal stands")
      .def("num_players", [](const PyState& s) { return static_cast<int>(s.s.rules.players); })
      .def("num_distinct_actions", [](const PyState& s) { return s.ids().size(); })
      .def("get_game", [](const PyState& s) { return s.game; })
      .def("move_number", [](const PyState& s) { return s.steps.size(); })
      .def("history",
           [](const PyState& s) {
             std::vector<int> out;
             for (const Step& step : s.steps) out.push_back(s.ids().id(step.action));
             return out;
           })
      .def("history_str",
           [](const PyState& s) {
             std::string out;
             for (const Step& step : s.steps)
               out += (out.empty() ? "" : " ") + std::to_string(s.ids().id(step.action));
             return out;
           })
      .def("full_history",
           [](const PyState& s) {
             std::vector<PlayerAction> out;
             for (const Step& step : s.steps) out.push_back({step.seat, s.ids().id(step.action)});
             return out;
           })
      .def("clone", [](const PyState& s) { return s; })
      .def("__copy__", [](const PyState& s) { return s; })
      .def("__deepcopy__", [](const PyState& s, const py::object&) { return s; })
      .def("observation_tensor", &PyState::observation_tensor, py::arg("player") = py::none())
      .def("information_state_tensor", &PyState::information_state_tensor, py::arg("player") = py::none())
      .def(
          "observation_string",
          [](const PyState& s, const py::object& player) {
            return observation_string(View(s.s, s.seat_or_current(player)));
          },
          py::arg("player") = py::none())
      .def("information_state_string", &PyState::information_state_string, py::arg("player") = py::none())
      .def("view", [](const PyState& s, int seat) { return PyView(View(s.s, check_seat(s.s.rules, seat))); })
      .def("action_to_string", [](const PyState& s, int64_t id) { return action_to_string(s.action_of(id)); })
      .def("action_to_string",
           [](const PyState& s, int, int64_t id) { return action_to_string(s.action_of(id)); })
      .def("string_to_action", &PyState::id_of_text)
      .def("string_to_action",
           [](const PyState& s, int, const std::string& text) { return s.id_of_text(text); })
      .def("resample_from_infostate", &resample, py::arg("player"), py::arg("sampler"),
           "a state `player` cannot tell from this one, the hidden cards drawn again; `sampler` is "
           "OpenSpiel's callable giving numbers in [0, 1), or a seed")
      .def("record_line", &PyState::record_line, "the finished deal's record, a line for canasta replay")
      .def("serialize", &PyState::serialize)
      .def("__eq__",
           [](const PyState& a, const PyState& b) {
             return a.s.rules == b.s.rules && a.serialize() == b.serialize();
           })
      .def("__hash__", [](const PyState& s) { return py::hash(py::str(s.serialize())); })
      .def("__str__", [](const PyState& s) { return position_to_string(s.s); })
      .def(py::pickle(
          [](const PyState& s) { return py::make_tuple(s.game->profile(), s.game->seed, s.serialize()); },
          [](const py::tuple& t) {
            return deserialize_state(make_game(t[0].cast<std::string>(), t[1].cast<uint64_t>()),
                                     t[2].cast<std::string>());
          }));

  py::class_<IIGObservationType>(m, "IIGObservationType",
                                 "what an observer shows: with perfect_recall, the information state")
      .def(py::init([](bool perfect_recall, bool public_info) {
             return IIGObservationType{perfect_recall, public_info};
           }),
           py::arg("perfect_recall") = false, py::arg("public_info") = true)
      .def_readonly("perfect_recall", &IIGObservationType::perfect_recall)
      .def_readonly("public_info", &IIGObservationType::public_info);

  py::class_<Agent>(m, "Agent", "an agent of the project, from its spec")
      .def(py::init([](const std::string& spec) { return make_agent(agent_or_raise(spec)); }),
           py::arg("spec"))
      .def(
          "act",
          [](Agent& a, const PyState& s, uint64_t seed) {
            if (s.s.over()) throw py::value_error("the deal is over");
            Rng rng(seed);
            return s.id_of(a.act(View(s.s, s.s.actor()), rng));
          },
          py::arg("state"), py::arg("seed") = 0, "the action id the agent plays for the actor of `state`");

  m.def(
      "play_deal",
      [](const PyState& start, const py::list& agents, uint64_t seed) {
        if (static_cast<int>(agents.size()) != start.s.rules.players)
          throw py::value_error("play_deal wants one agent per seat");
        std::vector<std::unique_ptr<Agent>> owned;
        for (const auto& o : agents) {
          if (py::isinstance<py::str>(o))
            owned.push_back(make_agent(agent_or_raise(o.cast<std::string>())));
          else if (PyCallable_Check(o.ptr()))
            owned.push_back(python_agent(py::reinterpret_borrow<py::function>(o)));
          else
            throw py::type_error(
                "an agent is a spec string (\"heuristic:freeze=6\") or a callable taking a View");
        }
        PyState s = start;
        struct Keep : PlayObserver {
          PyState& s;
          Step step{};
          explicit Keep(PyState& state) : s(state) {}
          void before(const State&, int seat, Action a) {
            step.seat = static_cast<int8_t>(seat);
            step.action = a;
          }
          void after(const State& now) {
            step.red3_after = now.red3[step.seat];
            step.hand_after = now.hand[step.seat];
            s.steps.push_back(step);
          }
        };
        Rng rng(seed);
        play_deal(
            s.s, [&](int seat) -> Agent& { return *owned[static_cast<size_t>(seat)]; }, rng, Keep(s));
        s.legal_known = false;
        return s;
      },
      py::arg("state"), py::arg("agents"), py::arg("seed") = 0,
      "plays the deal to its end with one agent per seat (a spec, or a callable taking a View)");
}

}  // namespace canasta::python
