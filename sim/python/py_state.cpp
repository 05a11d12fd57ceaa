// The game and a deal in play (py_game.h): ids, legal actions, steps,
// returns, observations, records, resampling and the state as text.
#include <fmt/format.h>

#include <algorithm>

#include "bindings.h"
#include "canasta/game.h"
#include "canasta/notation.h"
#include "canasta/profile.h"
#include "canasta/record.h"
#include "canasta/state_text.h"
#include "canasta/text.h"
#include "py_game.h"
#include "redraw.h"

namespace canasta::python {

namespace {

constexpr std::string_view kName = "canasta";

// The seed of a resampling: an integer, or two draws of OpenSpiel's sampler.
uint64_t sampler_seed(const py::object& sampler) {
  if (py::isinstance<py::int_>(sampler)) return sampler.cast<uint64_t>();
  uint64_t seed = 0;
  for (int i = 0; i < 2; ++i) {
    const double u = sampler().cast<double>();
    if (!(u >= 0.0 && u < 1.0))
      throw py::value_error(fmt::format("the sampler gave {}, not a number in [0, 1)", u));
    seed = seed << 32 | static_cast<uint64_t>(u * 4294967296.0);
  }
  return seed;
}

}  // namespace

// The id space of a profile, made once (under the GIL, like every call here).
const ActionIds& ids_for(const Rules& r) {
  static std::vector<std::pair<Rules, std::unique_ptr<ActionIds>>> made;
  for (const auto& [rules, ids] : made)
    if (rules == r) return *ids;
  made.emplace_back(r, std::make_unique<ActionIds>(r));
  return *made.back().second;
}

Rules rules_or_raise(const std::string& spec) {
  Rules r;
  std::string error;
  if (!parse_profile(spec, r, error)) throw py::value_error(error);
  return r;
}

std::string PyGame::profile() const { return profile_spec(rules); }
std::string PyGame::name() const { return fmt::format("{}(profile={},seed={})", kName, profile(), seed); }
double PyGame::margin_bound() const {
  const DealBounds b = deal_bounds(rules);
  return static_cast<double>(b.high + b.low);
}

GamePtr make_game(const std::string& spec, uint64_t seed) {
  auto g = std::make_shared<PyGame>();
  g->rules = rules_or_raise(spec);
  g->seed = seed;
  g->ids = &ids_for(g->rules);
  return g;
}

int check_seat(const Rules& r, int seat) {
  if (seat < 0 || seat >= r.players)
    throw py::value_error("no seat " + std::to_string(seat) + " in a game of " + std::to_string(r.players));
  return seat;
}

PyState PyState::of_deal(const GamePtr& g, uint64_t seed, int64_t deal) {
  PyState p;
  p.game = g;
  p.seed = seed;
  p.deal = deal;
  start_single_deal(p.s, g->rules, seed, deal);
  p.began();
  return p;
}

PyState PyState::of_deck(const GamePtr& g, const Deck& deck, int dealer,
                         const std::array<int32_t, kMaxTeams>& scores) {
  PyState p;
  p.game = g;
  p.from_deal = false;
  start_deal(p.s, g->rules, deck, g->rules.deck_cards(), dealer, scores);
  p.began();
  return p;
}

void PyState::began() {
  start = s;
  steps.reserve(256);
  for (int seat = 0; seat < s.rules.players; ++seat) {
    dealt.hand[static_cast<size_t>(seat)] = s.hand[seat];
    dealt.red3[static_cast<size_t>(seat)] = s.red3[seat];
  }
}

int PyState::seat_or_current(const py::object& player) const {
  if (player.is_none()) {
    if (s.over()) throw py::value_error("the deal is over: name the player");
    return s.actor();
  }
  return check_seat(s.rules, player.cast<int>());
}

// For no player or the one to act; another seat has none (as in OpenSpiel),
// a player that is no seat raises as observation_tensor does
// (current_player() itself, TERMINAL at the end, gives none).
bool PyState::lists_for(const py::object& player) const {
  if (player.is_none()) return true;
  const int p = player.cast<int>();
  if (p == current_player()) return true;
  check_seat(s.rules, p);
  return false;
}

Action PyState::action_of(int64_t id) const {
  if (id < 0 || id >= ids().size())
    throw py::value_error(fmt::format("no action id {} (ids are 0..{})", id, ids().size() - 1));
  return ids().action(static_cast<int>(id));
}

int PyState::id_of(Action a) const {
  const int id = ids().id(a);
  if (id < 0) throw py::value_error("action '" + action_to_string(a) + "' has no id in " + game->profile());
  return id;
}

int PyState::id_of_text(const std::string& text) const {
  Action a;
  std::string error;
  if (!parse_action(text, a, error)) throw py::value_error(error);
  return id_of(a);
}

// The actor's legal ids, kept until the next action so that applying one
// of them needs no second generation of the list.
const std::vector<int>& PyState::legal_actions() const {
  if (!legal_known) {
    legal.clear();
    if (!s.over()) {
      ActionList list;
      canasta::legal_actions(s, list);
      for (Action a : list) legal.push_back(ids().id(a));
    }
    legal_known = true;
  }
  return legal;
}

void PyState::play(Action a) {
  const int seat = s.actor();
  apply(s, a);
  legal_known = false;
  steps.push_back({a, static_cast<int8_t>(seat), s.red3[seat], s.hand[seat]});
}

void PyState::apply_action(int64_t id) {
  if (s.over()) throw py::value_error("the deal is over");
  const Action a = action_of(id);
  const std::vector<int>& ok = legal_actions();
  if (!std::binary_search(ok.begin(), ok.end(), static_cast<int>(id)))
    throw py::value_error(fmt::format("illegal action {} ({})", action_to_string(a), id));
  play(a);
}

// Replays the deal from its start, less the last step.
void PyState::undo_action(int player, int64_t id) {
  if (steps.empty()) throw py::value_error("no action of this state to undo");
  const Step& last = steps.back();
  if (last.seat != player || ids().id(last.action) != id)
    throw py::value_error(fmt::format("the last action was {} by seat {}", ids().id(last.action), last.seat));
  steps.pop_back();
  s = start;
  for (const Step& step : steps) apply(s, step.action);
  legal_known = false;
}

// Each seat's return: its side's deal score less the mean of the other
// sides', once the deal is over (zero before): zero-sum at every table.
std::vector<double> PyState::returns() const {
  std::vector<double> out(static_cast<size_t>(s.rules.players), 0.0);
  if (!s.over()) return out;
  const auto margin = deal_margins(s);
  for (int seat = 0; seat < s.rules.players; ++seat)
    out[static_cast<size_t>(seat)] = margin[s.rules.team_of(seat)];
  return out;
}

std::vector<int> PyState::scores() const {
  const auto score = deal_score(s);
  std::vector<int> out;
  for (int t = 0; t < s.rules.teams; ++t) out.push_back(score[t].total());
  return out;
}

py::array_t<float> PyState::tensor(const py::object& player, ObsType type) const {
  py::array_t<float> out(observer_size(s.rules, type));
  observer_tensor(seen(), seat_or_current(player), type, out.mutable_data());
  return out;
}

std::string PyState::text(const py::object& player, ObsType type) const {
  return observer_string(seen(), seat_or_current(player), type);
}

std::string PyState::record_line() const {
  if (!s.over()) throw py::value_error("the deal is not over");
  if (!from_deal) throw py::value_error("a resampled state has no record: its deal is not one of a seed");
  DealRecord rec;
  begin_single_record(rec, start, seed, deal);
  for (const Step& step : steps) rec.actions.emplace_back(step.seat, step.action);
  end_record(rec, s);
  return to_json_line(rec);
}

PyState PyState::resample(int player, const py::object& sampler) const {
  check_seat(s.rules, player);
  Rng rng(sampler_seed(sampler));
  if (s.over()) return *this;
  Deck deck;
  std::string error;
  if (!redraw_deal(start, steps, player, rng, deck, error)) throw std::runtime_error(error);
  PyState out = of_deck(game, deck, start.dealer, start.score_before);
  for (const Step& step : steps) out.apply_action(ids().id(step.action));
  return out;
}

std::string serialize_state(const PyState& p) {
  DealHistory h;
  h.start = p.start;
  h.of_seed = p.from_deal;
  h.seed = p.seed;
  h.deal = p.deal;
  for (const Step& step : p.steps) h.actions.push_back(step.action);
  return state_text(h, p.ids());
}

PyState deserialize_state(const GamePtr& g, const std::string& text) {
  DealHistory h;
  std::string error;
  if (!parse_state_text(text, g->rules, *g->ids, h, error)) throw py::value_error(error);
  PyState p = PyState::of_deck(g, h.start.deck, h.start.dealer, h.start.score_before);
  p.from_deal = h.of_seed;
  p.seed = h.seed;
  p.deal = h.deal;
  for (const Action a : h.actions) p.apply_action(p.ids().id(a));
  return p;
}

}  // namespace canasta::python
