#include "canasta/record.h"

#include <algorithm>

#include "canasta/json.h"
#include "canasta/notation.h"

namespace canasta {

namespace {

constexpr std::string_view kFormat = "canasta-record/1";

std::string_view kind_name(RecordKind k) { return k == RecordKind::kGame ? "game" : "single"; }

std::string int_array(const std::array<int32_t, kMaxTeams>& a, int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) {
    s += i ? "," : "";
    s += std::to_string(a[i]);
  }
  return s + "]";
}

bool read_int(const json::Value& obj, std::string_view key, int64_t lo, int64_t hi, int64_t& out,
              std::string& error) {
  const json::Value* v = obj.get(key);
  if (!v || v->type != json::Value::Type::kNumber) {
    error = "missing or non-numeric field '" + std::string(key) + "'";
    return false;
  }
  if (v->text.find_first_of(".eE") != std::string::npos || v->number < static_cast<double>(lo) ||
      v->number > static_cast<double>(hi)) {
    error = "field '" + std::string(key) + "' out of range";
    return false;
  }
  out = static_cast<int64_t>(v->number);
  return true;
}

bool read_ints(const json::Value& obj, std::string_view key, int n, std::array<int32_t, kMaxTeams>& out,
               std::string& error) {
  const json::Value* v = obj.get(key);
  if (!v || v->type != json::Value::Type::kArray || static_cast<int>(v->items.size()) != n) {
    error = "field '" + std::string(key) + "' must be an array of " + std::to_string(n) + " integers";
    return false;
  }
  out.fill(0);
  for (int i = 0; i < n; ++i) {
    const json::Value& x = v->items[i];
    if (x.type != json::Value::Type::kNumber || x.number < -1e8 || x.number > 1e8) {
      error = "field '" + std::string(key) + "' must hold integers";
      return false;
    }
    out[i] = static_cast<int32_t>(x.number);
  }
  return true;
}

}  // namespace

std::string_view end_name(EndReason e) {
  switch (e) {
    case EndReason::kNone:
      return "none";
    case EndReason::kWentOut:
      return "went_out";
    case EndReason::kStockOut:
      return "stock_out";
    case EndReason::kRedThreeLast:
      return "red_three_last";
  }
  return "?";
}

std::string_view game_end_name(GameEnd e) {
  switch (e) {
    case GameEnd::kPlaying:
      return "playing";
    case GameEnd::kWon:
      return "won";
    case GameEnd::kDrawn:
      return "drawn";
    case GameEnd::kAbandoned:
      return "abandoned";
  }
  return "?";
}

void begin_single_record(DealRecord& rec, const State& s, uint64_t seed, int64_t deal) {
  rec = DealRecord{};
  rec.kind = RecordKind::kSingle;
  rec.profile = profile_spec(s.rules);
  rec.seed = seed;
  rec.deal = deal;
  rec.dealer = s.dealer;
  rec.scores_before = s.score_before;
  rec.deck = s.deck;
  rec.deck_size = s.deck_size;
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
  // The number of sides, from the profile (parsed once per thread and profile).
  thread_local std::string profile;
  thread_local int teams = 2;
  if (r.profile != profile) {
    Rules rules;
    std::string ignored;
    parse_profile(r.profile, rules, ignored);
    profile = r.profile;
    teams = rules.teams;
  }
  auto field = [&](const char* name) {
    s += ",\"";
    s += name;
    s += "\":";
  };
  s += "{\"format\":";
  json::append_quoted(s, kFormat);
  field("kind");
  json::append_quoted(s, kind_name(r.kind));
  field("profile");
  json::append_quoted(s, r.profile);
  field("seed");
  s += std::to_string(r.seed);
  field("deal");
  s += std::to_string(r.deal);
  field("dealer");
  s += std::to_string(r.dealer);
  field("scores_before");
  s += int_array(r.scores_before, teams);
  if (!r.agents.empty()) {
    field("agents");
    for (size_t i = 0; i < r.agents.size(); ++i) {
      s += i ? ',' : '[';
      json::append_quoted(s, r.agents[i]);
    }
    s += ']';
  }
  field("deck");
  json::append_quoted(s, deck_to_string(r.deck, r.deck_size));
  field("actions");
  s += '[';
  for (size_t i = 0; i < r.actions.size(); ++i) {
    s += i ? ",[" : "[";
    s += static_cast<char>('0' + r.actions[i].first);
    s += ',';
    json::append_quoted(s, action_to_string(r.actions[i].second));
    s += ']';
  }
  s += "],\"result\":{\"end\":";
  json::append_quoted(s, end_name(r.end));
  field("out_seat");
  s += std::to_string(r.out_seat);
  field("concealed");
  s += r.concealed ? "true" : "false";
  field("deal_score");
  s += int_array(r.deal_score, teams);
  field("totals");
  s += int_array(r.totals, teams);
  field("game");
  json::append_quoted(s, game_end_name(r.game_end));
  field("winner");
  s += std::to_string(r.winner);
  s += "}}\n";
}

std::string to_json_line(const DealRecord& r) {
  std::string s;
  append_json_line(s, r);
  s.pop_back();
  return s;
}

bool parse_record(std::string_view line, DealRecord& r, std::string& error) {
  r = DealRecord{};
  json::Value v;
  if (!json::parse(line, v, error)) {
    error = "not JSON: " + error;
    return false;
  }
  if (v.type != json::Value::Type::kObject) {
    error = "a record is a JSON object";
    return false;
  }
  const json::Value* format = v.get("format");
  if (!format || format->text != kFormat) {
    error = "unknown record format (expected \"" + std::string(kFormat) + "\")";
    return false;
  }
  if (const json::Value* kind = v.get("kind")) {
    if (kind->text == kind_name(RecordKind::kGame) && kind->type == json::Value::Type::kString) {
      r.kind = RecordKind::kGame;
    } else if (kind->text == kind_name(RecordKind::kSingle) && kind->type == json::Value::Type::kString) {
      r.kind = RecordKind::kSingle;
    } else {
      error = "bad field 'kind' (game or single)";
      return false;
    }
  }
  const json::Value* profile = v.get("profile");
  if (!profile || profile->type != json::Value::Type::kString) {
    error = "missing field 'profile'";
    return false;
  }
  r.profile = profile->text;
  Rules rules;
  if (!parse_profile(r.profile, rules, error)) return false;
  int64_t x = 0;
  const json::Value* seed = v.get("seed");
  if (!seed || seed->type != json::Value::Type::kNumber ||
      seed->text.find_first_of("-.eE") != std::string::npos) {
    error = "missing or bad field 'seed'";
    return false;
  }
  r.seed = std::stoull(seed->text);
  if (!read_int(v, "deal", 0, int64_t{1} << 50, x, error)) return false;
  r.deal = x;
  if (!read_int(v, "dealer", 0, rules.players - 1, x, error)) return false;
  r.dealer = static_cast<int>(x);
  if (!read_ints(v, "scores_before", rules.teams, r.scores_before, error)) return false;
  if (const json::Value* agents = v.get("agents")) {
    bool ok =
        agents->type == json::Value::Type::kArray && static_cast<int>(agents->items.size()) == rules.players;
    for (size_t i = 0; ok && i < agents->items.size(); ++i) {
      ok = agents->items[i].type == json::Value::Type::kString;
      if (ok) r.agents.push_back(agents->items[i].text);
    }
    if (!ok) {
      error = "field 'agents' must be an array of " + std::to_string(rules.players) + " agent specs";
      return false;
    }
  }
  const json::Value* deck = v.get("deck");
  if (!deck || deck->type != json::Value::Type::kString) {
    error = "missing field 'deck'";
    return false;
  }
  if (!parse_deck(deck->text, r.deck, r.deck_size, error)) return false;
  Deck ordered;
  std::array<int, kKindNb> want{}, have{};
  const int n = ordered_deck(rules, ordered);
  for (int i = 0; i < n; ++i) ++want[ordered[i]];
  for (int i = 0; i < r.deck_size; ++i) ++have[r.deck[i]];
  if (want != have) {
    error = "deck is not a full " + std::to_string(n) + "-card deck of the profile";
    return false;
  }
  const json::Value* actions = v.get("actions");
  if (!actions || actions->type != json::Value::Type::kArray) {
    error = "missing field 'actions'";
    return false;
  }
  for (size_t i = 0; i < actions->items.size(); ++i) {
    const json::Value& a = actions->items[i];
    if (a.type != json::Value::Type::kArray || a.items.size() != 2 ||
        a.items[0].type != json::Value::Type::kNumber || a.items[1].type != json::Value::Type::kString ||
        a.items[0].number < 0 || a.items[0].number >= rules.players) {
      error = "action " + std::to_string(i) + " is not [seat, \"action\"]";
      return false;
    }
    Action act;
    if (!parse_action(a.items[1].text, act, error)) {
      error = "action " + std::to_string(i) + ": " + error;
      return false;
    }
    r.actions.emplace_back(static_cast<int>(a.items[0].number), act);
  }
  const json::Value* result = v.get("result");
  if (!result || result->type != json::Value::Type::kObject) {
    error = "missing field 'result'";
    return false;
  }
  const json::Value* end = result->get("end");
  bool found = false;
  for (EndReason e : {EndReason::kNone, EndReason::kWentOut, EndReason::kStockOut, EndReason::kRedThreeLast})
    if (end && end->text == end_name(e)) r.end = e, found = true;
  if (!found) {
    error = "bad result field 'end'";
    return false;
  }
  if (!read_int(*result, "out_seat", -1, rules.players - 1, x, error)) return false;
  r.out_seat = static_cast<int>(x);
  const json::Value* concealed = result->get("concealed");
  if (!concealed || concealed->type != json::Value::Type::kBool) {
    error = "bad result field 'concealed'";
    return false;
  }
  r.concealed = concealed->boolean;
  if (!read_ints(*result, "deal_score", rules.teams, r.deal_score, error)) return false;
  if (!read_ints(*result, "totals", rules.teams, r.totals, error)) return false;
  const json::Value* game = result->get("game");
  found = false;
  for (GameEnd e : {GameEnd::kPlaying, GameEnd::kWon, GameEnd::kDrawn, GameEnd::kAbandoned})
    if (game && game->text == game_end_name(e)) r.game_end = e, found = true;
  if (!found) {
    error = "bad result field 'game'";
    return false;
  }
  if (!read_int(*result, "winner", -1, rules.teams - 1, x, error)) return false;
  r.winner = static_cast<int>(x);
  return true;
}

bool replay_record(const DealRecord& r, std::string& error, State* end) {
  Rules rules;
  if (!parse_profile(r.profile, rules, error)) return false;
  State local;
  State& s = end ? *end : local;
  start_deal(s, rules, r.deck, r.deck_size, r.dealer, r.scores_before);
  ActionList legal;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const auto [seat, a] = r.actions[i];
    auto where = [&, seat = seat, a = a] {
      return "action " + std::to_string(i) + " (" + std::to_string(seat) + " " + action_to_string(a) + ")";
    };
    if (s.over()) {
      error = where() + ": the deal is already over";
      return false;
    }
    if (seat != s.actor()) {
      error = where() + ": it is seat " + std::to_string(s.actor()) + "'s move";
      return false;
    }
    legal_actions(s, legal);
    if (!legal.contains(a)) {
      error = where() + ": illegal here";
      return false;
    }
    apply(s, a);
    if (const char* bad = check_invariants(s)) {
      error = where() + ": engine invariant broken: " + bad;
      return false;
    }
  }
  if (!s.over()) {
    error = "the actions end before the deal does";
    return false;
  }
  if (s.end != r.end || s.out_seat != r.out_seat || s.concealed != r.concealed) {
    error = "result differs: engine says " + std::string(end_name(s.end)) + ", out_seat " +
            std::to_string(s.out_seat) + (s.concealed ? ", concealed" : "");
    return false;
  }
  const auto score = deal_score(s);
  for (int t = 0; t < rules.teams; ++t) {
    if (score[t].total() != r.deal_score[t]) {
      error = "deal score of side " + std::to_string(t) + " differs: engine " +
              std::to_string(score[t].total()) + ", record " + std::to_string(r.deal_score[t]);
      return false;
    }
    if (r.scores_before[t] + r.deal_score[t] != r.totals[t]) {
      error = "total of side " + std::to_string(t) + " is not scores_before + deal_score";
      return false;
    }
  }
  return true;
}

bool RecordChecker::check(const DealRecord& rec, std::string& error) {
  Rules rules;
  if (!parse_profile(rec.profile, rules, error)) return false;
  Deck deck;
  int n = 0;
  if (rec.kind == RecordKind::kSingle) {
    n = single_deal_deck(rules, rec.seed, rec.deal, deck);
    if (rec.dealer != rec.deal % rules.players || rec.scores_before != std::array<int32_t, kMaxTeams>{}) {
      error =
          "single deal " + std::to_string(rec.deal) + ": the dealer must be deal mod players, the scores 0";
      return false;
    }
    if (rec.game_end != GameEnd::kPlaying || rec.winner != -1) {
      error = "a single deal has no game result";
      return false;
    }
  } else {
    if (rec.deal == 0) {
      game_ = new_game(rules, rec.seed);
      in_game_ = true;
      ++games;
    }
    if (!in_game_ || rec.seed != game_.seed || rec.deal != game_.deal) {
      error = "deal " + std::to_string(rec.deal) + " of seed " + std::to_string(rec.seed) +
              " does not follow the previous record";
      return false;
    }
    if (game_.end != GameEnd::kPlaying) {
      error = "deal " + std::to_string(rec.deal) + " follows the end of its game";
      return false;
    }
    if (rec.dealer != game_.dealer || rec.scores_before != game_.totals) {
      error = "dealer or scores_before differ from the game's own";
      return false;
    }
    n = game_deck(rules, rec.seed, static_cast<int>(rec.deal), deck);
  }
  if (n != rec.deck_size || !std::equal(deck.begin(), deck.begin() + n, rec.deck.begin())) {
    error = "the deck is not the one seed " + std::to_string(rec.seed) + " gives deal " +
            std::to_string(rec.deal);
    return false;
  }
  State s;
  if (!replay_record(rec, error, &s)) return false;
  if (rec.kind == RecordKind::kGame) {
    finish_deal(game_, s);
    if (game_.end != rec.game_end || game_.winner != rec.winner) {
      error = "game result differs: engine says " + std::string(game_end_name(game_.end));
      return false;
    }
    ++game_deals;
  } else {
    ++single_deals;
  }
  actions += static_cast<int64_t>(rec.actions.size());
  return true;
}

}  // namespace canasta
