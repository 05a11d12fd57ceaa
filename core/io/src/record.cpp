#include "canasta/record.h"

#include <fmt/format.h>

#include <array>

#include "canasta/json.h"
#include "canasta/notation.h"
#include "canasta/params.h"
#include "canasta/profile.h"

namespace canasta {

namespace {

constexpr std::string_view kFormat = "canasta-record/1";
// By value of EndReason and GameEnd.
constexpr std::array<std::string_view, 4> kEndNames{"none", "went_out", "stock_out", "red_three_last"};
constexpr std::array<std::string_view, 4> kGameEndNames{"playing", "won", "drawn", "abandoned"};

// The enum value whose name is `text`; false when none is.
template <class E, size_t N>
bool value_named(const std::array<std::string_view, N>& names, const std::string* text, E& out) {
  for (size_t i = 0; text && i < N; ++i)
    if (names[i] == *text) {
      out = static_cast<E>(i);
      return true;
    }
  return false;
}

std::string_view kind_name(RecordKind k) { return k == RecordKind::kGame ? "game" : "single"; }

void int_array(JsonWriter& w, std::string_view key, const std::array<int32_t, kMaxTeams>& a, int n) {
  w.key(key).begin_array();
  for (int i = 0; i < n; ++i) w.value(a[i]);
  w.end_array();
}

// An integer in [lo, hi] (hi >= 0).
bool int_in(const Json& x, int64_t lo, int64_t hi, int64_t& out) {
  if (!x.is_number_integer()) return false;
  if (x.is_number_unsigned()) {
    if (x.get<uint64_t>() > static_cast<uint64_t>(hi)) return false;
    out = static_cast<int64_t>(x.get<uint64_t>());
  } else {
    out = x.get<int64_t>();
  }
  return out >= lo && out <= hi;
}

// Readers of one field: false with `error` naming the field when it is
// missing or not what it should be.
bool read_int(const Json& obj, std::string_view key, int64_t lo, int64_t hi, int64_t& out,
              std::string& error) {
  const auto it = obj.find(key);
  if (it == obj.end() || !int_in(*it, lo, hi, out)) {
    error = fmt::format("missing or bad field '{}' (an integer {}..{})", key, lo, hi);
    return false;
  }
  return true;
}

bool read_ints(const Json& obj, std::string_view key, int n, std::array<int32_t, kMaxTeams>& out,
               std::string& error) {
  const auto it = obj.find(key);
  bool ok = it != obj.end() && it->is_array() && static_cast<int>(it->size()) == n;
  out.fill(0);
  for (int i = 0; ok && i < n; ++i) {
    int64_t x = 0;
    ok = int_in((*it)[static_cast<size_t>(i)], -100000000, 100000000, x);
    out[i] = static_cast<int32_t>(x);
  }
  if (!ok) error = fmt::format("field '{}' must be an array of {} integers", key, n);
  return ok;
}

// An agent as the program writes it into a record: a canonical agent spec
// (a name, then optionally ':' and comma-separated key=value items) or
// "human". Names and keys are lower-case words ([a-z][a-z0-9_]*, names may
// hold '-'), values are numbers, words or file names ([A-Za-z0-9_.+/-]).
// Nothing else: no space, no quote, no markup, no control character.
bool agent_text_ok(std::string_view a, std::string& why) {
  const auto lower = [](char c) { return (c >= 'a' && c <= 'z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  const auto word = [&](std::string_view w, bool dash) {
    if (w.empty() || !lower(w[0])) return false;
    for (const char c : w)
      if (!lower(c) && !digit(c) && c != '_' && !(dash && c == '-')) return false;
    return true;
  };
  const auto value = [](std::string_view v) { return spec_value_ok(v); };
  if (a.size() > kMaxAgentText) {
    why = fmt::format("longer than {} characters", kMaxAgentText);
    return false;
  }
  const size_t colon = a.find(':');
  bool ok = word(a.substr(0, colon), true);
  if (ok && colon != std::string_view::npos) {
    std::string_view rest = a.substr(colon + 1);
    while (ok) {
      const size_t comma = rest.find(',');
      const std::string_view item = rest.substr(0, comma);
      const size_t eq = item.find('=');
      ok = eq != std::string_view::npos && word(item.substr(0, eq), false) && value(item.substr(eq + 1));
      if (comma == std::string_view::npos) break;
      rest = rest.substr(comma + 1);
    }
  }
  if (!ok) why = "not an agent spec (name[:key=value,...]) nor human";
  return ok;
}

const std::string* read_string(const Json& obj, std::string_view key) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get_ptr<const std::string*>() : nullptr;
}

}  // namespace

std::string_view end_name(EndReason e) { return kEndNames[static_cast<size_t>(e)]; }
std::string_view game_end_name(GameEnd e) { return kGameEndNames[static_cast<size_t>(e)]; }

void begin_single_record(DealRecord& rec, const State& s, uint64_t seed, int64_t deal) {
  rec.kind = RecordKind::kSingle;
  rec.rules = s.rules;
  rec.seed = seed;
  rec.deal = deal;
  rec.dealer = s.dealer;
  rec.agents.clear();
  rec.scores_before = s.score_before;
  rec.deck = s.deck;
  rec.deck_size = s.deck_size;
  rec.actions.clear();
  rec.end = EndReason::kNone;
  rec.out_seat = -1;
  rec.concealed = false;
  rec.deal_score = {};
  rec.totals = {};
  rec.game_end = GameEnd::kPlaying;
  rec.winner = -1;
}

void begin_record(DealRecord& rec, const Game& g, const State& s) {
  begin_single_record(rec, s, g.seed, g.deal);
  rec.kind = RecordKind::kGame;
}

void end_record(DealRecord& rec, const State& s) {
  rec.end = s.end;
  rec.out_seat = s.out_seat;
  rec.concealed = s.concealed;
  const auto score = deal_score(s);
  for (int t = 0; t < kMaxTeams; ++t) {
    rec.deal_score[t] = score[t].total();
    rec.totals[t] = rec.scores_before[t] + rec.deal_score[t];
  }
  rec.game_end = GameEnd::kPlaying;
  rec.winner = -1;
}

void end_record(DealRecord& rec, const State& s, const Game& g) {
  end_record(rec, s);
  rec.totals = g.totals;
  rec.game_end = g.end;
  rec.winner = g.winner;
}

void append_json_line(std::string& s, const DealRecord& r) {
  const int teams = r.rules.teams;
  JsonWriter w(s);
  w.begin_object();
  w.field("format", kFormat);
  w.field("kind", kind_name(r.kind));
  w.field("profile", profile_spec(r.rules));
  w.field("seed", r.seed);
  w.field("deal", r.deal);
  w.field("dealer", r.dealer);
  int_array(w, "scores_before", r.scores_before, teams);
  if (!r.agents.empty()) {
    w.key("agents").begin_array();
    for (const std::string& a : r.agents) w.value(a);
    w.end_array();
  }
  w.field("deck", deck_to_string(r.deck, r.deck_size));
  w.key("actions").begin_array();
  for (const auto& [seat, action] : r.actions)
    w.begin_array().value(seat).value(action_to_string(action)).end_array();
  w.end_array();
  w.key("result").begin_object();
  w.field("end", end_name(r.end));
  w.field("out_seat", r.out_seat);
  w.field("concealed", r.concealed);
  int_array(w, "deal_score", r.deal_score, teams);
  int_array(w, "totals", r.totals, teams);
  w.field("game", game_end_name(r.game_end));
  w.field("winner", r.winner);
  w.end_object();
  w.end_object();
  s += '\n';
}

std::string to_json_line(const DealRecord& r) {
  std::string s;
  append_json_line(s, r);
  s.pop_back();
  return s;
}

namespace {

// The parts of a record, read in turn by parse_record into `r`: false with
// a one-line `error` at the first field that is missing or wrong.

// The format, kind, profile, seed, deal index, dealer and scores before the deal.
bool read_deal(const Json& v, DealRecord& r, std::string& error) {
  const std::string* format = read_string(v, "format");
  if (!format || *format != kFormat) {
    error = fmt::format("unknown record format (expected \"{}\")", kFormat);
    return false;
  }
  if (v.contains("kind")) {
    const std::string* kind = read_string(v, "kind");
    if (kind && *kind == kind_name(RecordKind::kGame)) {
      r.kind = RecordKind::kGame;
    } else if (kind && *kind == kind_name(RecordKind::kSingle)) {
      r.kind = RecordKind::kSingle;
    } else {
      error = "bad field 'kind' (game or single)";
      return false;
    }
  }
  const std::string* profile = read_string(v, "profile");
  if (!profile) {
    error = "missing field 'profile'";
    return false;
  }
  if (!parse_profile(*profile, r.rules, error)) return false;
  const auto seed = v.find("seed");
  if (seed == v.end() || !seed->is_number_unsigned()) {
    error = "missing or bad field 'seed' (an integer 0..18446744073709551615)";
    return false;
  }
  r.seed = seed->get<uint64_t>();
  int64_t x = 0;
  if (!read_int(v, "deal", 0, int64_t{1} << 50, x, error)) return false;
  r.deal = x;
  if (!read_int(v, "dealer", 0, r.rules.players - 1, x, error)) return false;
  r.dealer = static_cast<int>(x);
  return read_ints(v, "scores_before", r.rules.teams, r.scores_before, error);
}

// The agents at the seats, where the record names them.
bool read_agents(const Json& v, DealRecord& r, std::string& error) {
  if (!v.contains("agents")) return true;
  const int players = r.rules.players;
  const Json& agents = v["agents"];
  bool ok = agents.is_array() && static_cast<int>(agents.size()) == players;
  for (size_t i = 0; ok && i < agents.size(); ++i) {
    ok = agents[i].is_string();
    if (ok) r.agents.push_back(agents[i].get<std::string>());
  }
  if (!ok) {
    error = fmt::format("field 'agents' must be an array of {} agent specs", players);
    return false;
  }
  std::string why;
  for (size_t i = 0; i < r.agents.size(); ++i)
    if (!agent_text_ok(r.agents[i], why)) {
      error = fmt::format("field 'agents', seat {}: '{}' is {}", i, printable(r.agents[i], 40), why);
      return false;
    }
  return true;
}

// The deck, every card of the profile's pack once.
bool read_deck(const Json& v, DealRecord& r, std::string& error) {
  const std::string* deck = read_string(v, "deck");
  if (!deck) {
    error = "missing field 'deck'";
    return false;
  }
  if (!parse_deck(*deck, r.deck, r.deck_size, error, true)) return false;
  Deck ordered;
  std::array<int, kKindNb> want{}, have{};
  const int n = ordered_deck(r.rules, ordered);
  for (int i = 0; i < n; ++i) ++want[ordered[i]];
  for (int i = 0; i < r.deck_size; ++i) ++have[r.deck[i]];
  if (want != have) {
    error = fmt::format("deck is not a full {}-card deck of the profile", n);
    return false;
  }
  return true;
}

// The actions, each [seat, "action"].
bool read_actions(const Json& v, DealRecord& r, std::string& error) {
  const auto actions = v.find("actions");
  if (actions == v.end() || !actions->is_array()) {
    error = "missing field 'actions'";
    return false;
  }
  r.actions.reserve(actions->size());
  for (size_t i = 0; i < actions->size(); ++i) {
    const Json& a = (*actions)[i];
    int64_t seat = -1;
    if (!a.is_array() || a.size() != 2 || !int_in(a[0], 0, r.rules.players - 1, seat) || !a[1].is_string()) {
      error = fmt::format("action {} is not [seat, \"action\"]", i);
      return false;
    }
    Action act;
    if (!parse_action(a[1].get_ref<const std::string&>(), act, error, true)) {
      error = fmt::format("action {}: {}", i, error);
      return false;
    }
    r.actions.emplace_back(static_cast<int>(seat), act);
  }
  return true;
}

// The result: how the deal ended, its scores, and the game after it.
bool read_result(const Json& v, DealRecord& r, std::string& error) {
  const Rules& rules = r.rules;
  const auto result = v.find("result");
  if (result == v.end() || !result->is_object()) {
    error = "missing field 'result'";
    return false;
  }
  if (!value_named(kEndNames, read_string(*result, "end"), r.end)) {
    error = "bad result field 'end'";
    return false;
  }
  int64_t x = 0;
  if (!read_int(*result, "out_seat", -1, rules.players - 1, x, error)) return false;
  r.out_seat = static_cast<int>(x);
  const auto concealed = result->find("concealed");
  if (concealed == result->end() || !concealed->is_boolean()) {
    error = "bad result field 'concealed'";
    return false;
  }
  r.concealed = concealed->get<bool>();
  if (!read_ints(*result, "deal_score", rules.teams, r.deal_score, error)) return false;
  if (!read_ints(*result, "totals", rules.teams, r.totals, error)) return false;
  if (!value_named(kGameEndNames, read_string(*result, "game"), r.game_end)) {
    error = "bad result field 'game'";
    return false;
  }
  if (!read_int(*result, "winner", -1, rules.teams - 1, x, error)) return false;
  r.winner = static_cast<int>(x);
  return true;
}

}  // namespace

bool parse_record(std::string_view line, DealRecord& r, std::string& error) {
  r = DealRecord{};
  Json v;
  if (!parse_json(line, v, error)) {
    error = "not JSON: " + error;
    return false;
  }
  if (!v.is_object()) {
    error = "a record is a JSON object";
    return false;
  }
  return read_deal(v, r, error) && read_agents(v, r, error) && read_deck(v, r, error) &&
         read_actions(v, r, error) && read_result(v, r, error);
}

}  // namespace canasta
