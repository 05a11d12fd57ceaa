#include "canasta/agent.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace canasta {

namespace {

std::vector<AgentKind> make_registry() {
  const HeuristicParams d;
  return {
      {"random", "uniform over the legal actions", {}},
      {"heuristic",
       "rule-based: melds what it can, takes big piles, discards safely, freezes big piles",
       {
           {"take_min", static_cast<double>(d.take_min), 0, 100, true,
            "take the pile (when not compelled) only if it holds at least this many cards"},
           {"freeze", static_cast<double>(d.freeze), 0, 100, true,
            "discard a wild card to freeze a pile of at least this many cards (0: never)"},
           {"keep_wilds", static_cast<double>(d.keep_wilds), 0, 12, true,
            "wild cards held back from melds until the player goes out"},
           {"go_out", d.go_out ? 1.0 : 0.0, 0, 1, true,
            "1: go out as soon as the rules allow (and answer yes); 0: stay in while possible"},
           {"meld_min", static_cast<double>(d.meld_min), 2, 8, true,
            "naturals of a rank held before starting a new meld of it (higher keeps pairs and triples "
            "to take the pile)"},
           {"freeze_hand", static_cast<double>(d.freeze_hand), 0, 30, true,
            "also freeze the pile when the next opponent holds at most this many cards (0: never)"},
           {"freeze_unopened", d.freeze_unopened ? 1.0 : 0.0, 0, 1, true,
            "0: never freeze while the next opponent's side has not opened (the pile is frozen for them)"},
           {"out_margin", static_cast<double>(d.out_margin), -10000, 10000, true,
            "go out, or answer yes, only when the side leads the table score of the deal by this much"},
           {"ask", d.ask ? 1.0 : 0.0, 0, 1, true,
            "1: ask the partner before going out (when the rules allow)"},
           {"out_cards", static_cast<double>(d.out_cards), 0, 100, true,
            "go out only when the opponents hold at least this many cards together (caught with them)"},
       }},
      {"ismcts",
       "single-observer Information Set MCTS over determinizations of the seat's view",
       {
           {"iters", 1000, 1, 10000000, true, "iterations per decision"},
           {"time_ms", 0, 0, 3600000, true,
            "when above 0, search this many milliseconds per decision instead of `iters` (not reproducible)"},
           {"c", 0.7, 0, 10, false, "UCB exploration constant"},
           {"rollout", 1, 0, 1, true, "rollout policy after the tree", {"random", "heuristic"}},
           {"cutoff", 40, 0, 100000, true,
            "rollout actions before the deal is scored as it stands (0: to its end)"},
           {"reward",
            0,
            0,
            1,
            true,
            "margin: the score margin squashed to [0,1]; win: 1, 0.5 or 0 for the deal",
            {"margin", "win"}},
           {"threads", 1, 1, 256, true, "root-parallel trees on the TBB pool, merged at the end"},
       }},
  };
}

bool parse_number(std::string_view text, double& out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && p == text.data() + text.size() && !text.empty();
}

std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

const std::vector<AgentKind>& agent_kinds() {
  static const std::vector<AgentKind> registry = make_registry();
  return registry;
}

std::unique_ptr<Agent> make_agent(std::string_view spec, std::string& error) {
  const size_t colon = spec.find(':');
  const std::string_view name = spec.substr(0, colon);
  const AgentKind* kind = nullptr;
  for (const auto& k : agent_kinds())
    if (k.name == name) kind = &k;
  if (!kind) {
    std::string names;
    for (const auto& k : agent_kinds()) names += (names.empty() ? "" : ", ") + k.name;
    error = "unknown agent '" + std::string(name) + "' (available: " + names + ")";
    return nullptr;
  }
  std::vector<AgentParam> params = kind->params;
  std::string_view rest = colon == std::string_view::npos ? std::string_view{} : spec.substr(colon + 1);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const size_t eq = item.find('=');
    const std::string_view key = item.substr(0, eq);
    AgentParam* param = nullptr;
    for (auto& p : params)
      if (p.name == key) param = &p;
    if (!param) {
      error = "agent '" + kind->name + "' has no parameter '" + std::string(key) + "' (see canasta agents)";
      return nullptr;
    }
    double v = 0;
    if (!param->choices.empty() && eq != std::string_view::npos) {
      const std::string_view text = item.substr(eq + 1);
      bool found = false;
      for (size_t i = 0; i < param->choices.size(); ++i)
        if (param->choices[i] == text) v = static_cast<double>(i), found = true;
      if (!found) {
        std::string names;
        for (const auto& c : param->choices) names += (names.empty() ? "" : ", ") + c;
        error = "parameter '" + std::string(key) + "' of agent '" + kind->name + "' is one of: " + names;
        return nullptr;
      }
      param->value = v;
      continue;
    }
    if (eq == std::string_view::npos || !parse_number(item.substr(eq + 1), v)) {
      error = "parameter '" + std::string(key) + "' of agent '" + kind->name + "' needs a number";
      return nullptr;
    }
    if (v < param->lo || v > param->hi || (param->integer && v != std::floor(v))) {
      error = "parameter '" + std::string(key) + "' of agent '" + kind->name +
              "': " + std::string(item.substr(eq + 1)) + " is out of range (" +
              (param->integer ? "an integer " : "") + format_number(param->lo) + ".." +
              format_number(param->hi) + ")";
      return nullptr;
    }
    param->value = v;
  }
  auto get = [&](const char* n) {
    for (const auto& p : params)
      if (p.name == n) return p.value;
    return 0.0;
  };
  if (kind->name == "random") return std::make_unique<RandomAgent>();
  if (kind->name == "ismcts") {
    IsmctsParams m;
    m.iterations = static_cast<int>(get("iters"));
    m.time_ms = static_cast<int>(get("time_ms"));
    m.c = get("c");
    m.heuristic_rollout = get("rollout") != 0;
    m.cutoff = static_cast<int>(get("cutoff"));
    m.win_reward = get("reward") != 0;
    m.threads = static_cast<int>(get("threads"));
    return std::make_unique<IsmctsAgent>(m);
  }
  HeuristicParams h;
  h.take_min = static_cast<int>(get("take_min"));
  h.freeze = static_cast<int>(get("freeze"));
  h.keep_wilds = static_cast<int>(get("keep_wilds"));
  h.go_out = get("go_out") != 0;
  h.meld_min = static_cast<int>(get("meld_min"));
  h.freeze_hand = static_cast<int>(get("freeze_hand"));
  h.freeze_unopened = get("freeze_unopened") != 0;
  h.out_margin = static_cast<int>(get("out_margin"));
  h.ask = get("ask") != 0;
  h.out_cards = static_cast<int>(get("out_cards"));
  return std::make_unique<HeuristicAgent>(h);
}

std::string agents_help() {
  std::string out;
  for (const auto& k : agent_kinds()) {
    out += k.name + ": " + k.summary + "\n";
    for (const auto& p : k.params) {
      if (!p.choices.empty()) {
        std::string names;
        for (const auto& c : p.choices) names += (names.empty() ? "" : "|") + c;
        out += "  " + p.name + "=" + p.choices[static_cast<size_t>(p.value)] + "  (" + names + ") " + p.help +
               "\n";
        continue;
      }
      out += "  " + p.name + "=" + format_number(p.value) + "  (" + (p.integer ? "integer " : "") +
             format_number(p.lo) + ".." + format_number(p.hi) + ") " + p.help + "\n";
    }
  }
  out += "spec: name[:param=value,...], e.g. heuristic:freeze=6,take_min=4\n";
  return out;
}

Action RandomAgent::act(const View& view, Rng& rng) {
  view.legal_actions(legal_);
  return legal_[static_cast<int>(rng.below(static_cast<uint32_t>(legal_.size())))];
}

std::string HeuristicAgent::spec() const {
  return "heuristic:take_min=" + std::to_string(p_.take_min) + ",freeze=" + std::to_string(p_.freeze) +
         ",keep_wilds=" + std::to_string(p_.keep_wilds) + ",go_out=" + (p_.go_out ? "1" : "0") +
         ",meld_min=" + std::to_string(p_.meld_min) + ",freeze_hand=" + std::to_string(p_.freeze_hand) +
         ",freeze_unopened=" + (p_.freeze_unopened ? "1" : "0") +
         ",out_margin=" + std::to_string(p_.out_margin) + ",ask=" + (p_.ask ? "1" : "0") +
         ",out_cards=" + std::to_string(p_.out_cards);
}

namespace {

// The side's lead in what the table shows of the deal: melded cards, canasta
// bonuses and red threes, against the best other side. Hands are hidden.
int table_margin(const View& v) {
  const Rules& r = v.rules();
  auto table = [&](int team) {
    const TeamMelds& m = v.melds(team);
    const int natural = m.natural_canastas();
    int reds = 0;
    for (int s = team; s < r.players; s += r.teams) reds += v.red_threes(s);
    const int red = reds == 4 ? 800 : 100 * reds;
    return m.value() + 500 * natural + 300 * (m.canastas() - natural) + (m.any() ? red : -red);
  };
  const int mine = r.team_of(v.seat());
  int best_other = -1 << 30;
  for (int t = 0; t < r.teams; ++t)
    if (t != mine) best_other = std::max(best_other, table(t));
  return table(mine) - best_other;
}

}  // namespace

Action HeuristicAgent::act(const View& view, Rng& /*rng*/) {
  view.legal_actions(legal_);
  if (legal_.size() == 1) return legal_[0];
  const CardSet hand = view.hand();
  const Rules& rules = view.rules();

  int their_cards = 0;
  for (int seat = 0; seat < rules.players; ++seat)
    if (rules.team_of(seat) != rules.team_of(view.seat())) their_cards += view.hand_size(seat);
  const bool want_out = p_.go_out && table_margin(view) >= p_.out_margin && their_cards >= p_.out_cards;
  if (view.phase() == Phase::kAnswer) return Action::make(want_out ? ActionType::kYes : ActionType::kNo);

  if (view.phase() == Phase::kDraw) {
    // 1. Take the pile when it is big enough (or when drawing is impossible
    //    and declining would end the deal); otherwise draw.
    Action take{}, other{};
    bool have_take = false, have_other = false;
    for (Action a : legal_) {
      if (a.type() == ActionType::kTakePile && !have_take) take = a, have_take = true;
      if (a.type() != ActionType::kTakePile && !have_other) other = a, have_other = true;
    }
    if (have_take && view.pile_size() >= p_.take_min) return take;
    return have_other ? other : take;
  }

  // Meld phase. 2. The meld that puts down the most cards, holding back
  // `keep_wilds` wild cards unless the meld takes the hand down to going out.
  const int wilds = hand.wilds();
  const TeamMelds& own = view.melds(rules.team_of(view.seat()));
  Action best{};
  int best_score = -1;
  bool can_discard = false;
  for (Action a : legal_) {
    if (a.type() == ActionType::kDiscard) can_discard = true;
    if (a.type() == ActionType::kAsk && p_.ask && want_out) return a;
    if (a.type() != ActionType::kMeld) continue;
    const int used = a.naturals() + a.jokers() + a.twos();
    const int w = a.jokers() + a.twos();
    const bool toward_out = hand.total() - used <= 1;
    if (toward_out && !want_out) continue;
    if (w > 0 && wilds - w < p_.keep_wilds && !toward_out) continue;
    if (!own.has(a.kind()) && hand.count(a.kind()) < p_.meld_min && !toward_out) continue;
    const int score = 100 * used - 10 * w + a.cards().value() / 10;
    if (score > best_score) best_score = score, best = a;
  }
  if (best_score >= 0) return best;
  if (!can_discard) {
    // Melding is compulsory here (an opening under way, or going out after a
    // yes): the legal meld with the most cards.
    for (Action a : legal_) {
      if (a.type() != ActionType::kMeld) continue;
      const int score = 100 * (a.naturals() + a.jokers() + a.twos());
      if (score > best_score) best_score = score, best = a;
    }
    return best_score >= 0 ? best : legal_[0];
  }

  // 3. The safest discard, from what the table shows.
  const int next = (view.seat() + 1) % rules.players;
  const TeamMelds& theirs = view.melds(rules.team_of(next));
  const TeamMelds& ours = view.melds(rules.team_of(view.seat()));
  uint16_t they_discarded = 0;
  for (int s = 0; s < rules.players; ++s)
    if (rules.team_of(s) != rules.team_of(view.seat())) they_discarded |= view.discarded(s);
  const bool next_close = p_.freeze_hand > 0 && view.hand_size(next) <= p_.freeze_hand;
  const bool next_opened = view.melds(rules.team_of(next)).any();
  const bool freeze_now = ((p_.freeze > 0 && view.pile_size() >= p_.freeze) || next_close) &&
                          !view.pile_frozen() && (p_.freeze_unopened || next_opened);
  Action pick{};
  int pick_danger = 1 << 30;
  for (Action a : legal_) {
    if (a.type() != ActionType::kDiscard) continue;
    const int k = a.kind();
    int danger = 0;
    if (is_wild(k)) {
      danger += freeze_now ? -2000 : 1000;
    } else if (k == kBlack3) {
      danger -= 500;  // blocks the next player
    } else {
      if (theirs.has(k)) danger += 300;
      danger += 200 * std::min(view.known(next).count(k), 2);
      if (they_discarded >> k & 1U) danger -= 100;
      if (ours.has(k)) danger += 150;
      danger += 60 * (hand.count(k) - 1);
      danger -= card_value(k);
    }
    if (danger < pick_danger) pick_danger = danger, pick = a;
  }
  return pick;
}

}  // namespace canasta
