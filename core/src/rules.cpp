#include "canasta/rules.h"

#include <charconv>
#include <string>

namespace canasta {

namespace {

Rules classic() { return Rules{}; }

Rules two_player() {
  Rules r;
  r.players = 2;
  r.teams = 2;
  r.hand_size = 15;
  r.draw_count = 2;
  r.canastas_to_go_out = 2;
  r.wilds_le_naturals = true;
  r.one_card_rule = false;
  r.ask_partner = false;
  r.red3_deal = RedThreeDeal::kOwnersTurn;
  r.stock_end = StockEnd::kAfterLastDraw;
  return r;
}

bool to_int(std::string_view v, int& out) {
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc() && p == v.data() + v.size();
}

bool to_bool(std::string_view v, bool& out) {
  if (v == "1" || v == "true" || v == "yes" || v == "on") return out = true, true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return out = false, true;
  return false;
}

bool set_param(Rules& r, std::string_view key, std::string_view value, std::string& error) {
  int i = 0;
  bool b = false;
  auto bad = [&](const char* what) {
    error = "bad value '" + std::string(value) + "' for rule '" + std::string(key) + "' (" + what + ")";
    return false;
  };
  auto num = [&](int lo, int hi) {
    if (!to_int(value, i) || i < lo || i > hi)
      return bad(("an integer " + std::to_string(lo) + ".." + std::to_string(hi)).c_str());
    return true;
  };
  if (key == "hand") {
    if (!num(5, 20)) return false;
    r.hand_size = static_cast<uint8_t>(i);
  } else if (key == "draw") {
    if (!num(1, 2)) return false;
    r.draw_count = static_cast<uint8_t>(i);
  } else if (key == "canastas") {
    if (!num(1, 3)) return false;
    r.canastas_to_go_out = static_cast<uint8_t>(i);
  } else if (key == "max_wilds") {
    if (!num(1, 3)) return false;
    r.max_wilds = static_cast<uint8_t>(i);
  } else if (key == "wilds_le_naturals") {
    if (!to_bool(value, b)) return bad("true or false");
    r.wilds_le_naturals = b;
  } else if (key == "one_card_rule") {
    if (!to_bool(value, b)) return bad("true or false");
    r.one_card_rule = b;
  } else if (key == "ask") {
    if (!to_bool(value, b)) return bad("true or false");
    r.ask_partner = b;
  } else if (key == "target") {
    if (!num(100, 30000)) return false;
    r.target = static_cast<int16_t>(i);
  } else if (key == "max_deals") {
    if (!num(1, 60000)) return false;
    r.max_deals = static_cast<uint16_t>(i);
  } else if (key == "red3") {
    if (value == "immediate")
      r.red3_deal = RedThreeDeal::kImmediate;
    else if (value == "turn")
      r.red3_deal = RedThreeDeal::kOwnersTurn;
    else
      return bad("immediate or turn");
  } else if (key == "stock_end") {
    if (value == "pile")
      r.stock_end = StockEnd::kTakePile;
    else if (value == "last_draw")
      r.stock_end = StockEnd::kAfterLastDraw;
    else
      return bad("pile or last_draw");
  } else if (key == "tie") {
    if (value == "play_on")
      r.tie = TieRule::kPlayOn;
    else if (value == "draw")
      r.tie = TieRule::kDraw;
    else
      return bad("play_on or draw");
  } else {
    error = "unknown rule '" + std::string(key) + "' (see canasta rules --help)";
    return false;
  }
  return true;
}

}  // namespace

std::string profile_help() {
  return "profiles: classic (default; 4 players in 2 partnerships), two-player\n"
         "overrides (profile,key=value,...):\n"
         "  hand=N               cards dealt (5..20)\n"
         "  draw=N               cards drawn from the stock (1..2)\n"
         "  canastas=N           canastas needed to go out (1..3)\n"
         "  max_wilds=N          most wild cards in a meld (1..3)\n"
         "  wilds_le_naturals=B  never more wilds than naturals in a meld\n"
         "  one_card_rule=B      a one-card hand may not take a one-card pile\n"
         "  ask=B                a player may ask the partner to go out\n"
         "  red3=immediate|turn  dealt red threes replaced at once or at the owner's turn\n"
         "  stock_end=pile|last_draw  play on by taking the pile, or end after the last draw\n"
         "  target=N             game target (100..30000)\n"
         "  tie=play_on|draw     a tie at or above the target\n"
         "  max_deals=N          a game is abandoned after N deals\n";
}

bool validate(const Rules& r, std::string& error) {
  if (r.players < 2 || r.players > kMaxSeats || r.teams < 2 || r.players % r.teams != 0) {
    error = "unsupported table: " + std::to_string(r.players) + " players in " + std::to_string(r.teams) +
            " sides";
    return false;
  }
  if (r.deck_cards() > kMaxCards) {
    error = "deck larger than the engine supports";
    return false;
  }
  const int stock = r.deck_cards() - r.players * r.hand_size - 1;
  if (stock < 2 * r.players) {
    error = "too many cards dealt for the deck";
    return false;
  }
  return true;
}

std::string profile_spec(const Rules& r) {
  const Rules base = r.players == 2 ? two_player() : classic();
  std::string out = r.players == 2 ? "two-player" : "classic";
  auto flag = [](bool b) { return b ? std::string("true") : std::string("false"); };
  auto put = [&](const char* key, const std::string& value) { out += std::string(",") + key + "=" + value; };
  if (r.hand_size != base.hand_size) put("hand", std::to_string(r.hand_size));
  if (r.draw_count != base.draw_count) put("draw", std::to_string(r.draw_count));
  if (r.canastas_to_go_out != base.canastas_to_go_out) put("canastas", std::to_string(r.canastas_to_go_out));
  if (r.max_wilds != base.max_wilds) put("max_wilds", std::to_string(r.max_wilds));
  if (r.wilds_le_naturals != base.wilds_le_naturals) put("wilds_le_naturals", flag(r.wilds_le_naturals));
  if (r.one_card_rule != base.one_card_rule) put("one_card_rule", flag(r.one_card_rule));
  if (r.ask_partner != base.ask_partner) put("ask", flag(r.ask_partner));
  if (r.red3_deal != base.red3_deal)
    put("red3", r.red3_deal == RedThreeDeal::kImmediate ? "immediate" : "turn");
  if (r.stock_end != base.stock_end)
    put("stock_end", r.stock_end == StockEnd::kTakePile ? "pile" : "last_draw");
  if (r.target != base.target) put("target", std::to_string(r.target));
  if (r.tie != base.tie) put("tie", r.tie == TieRule::kPlayOn ? "play_on" : "draw");
  if (r.max_deals != base.max_deals) put("max_deals", std::to_string(r.max_deals));
  return out;
}

bool parse_profile(std::string_view spec, Rules& out, std::string& error) {
  const size_t comma = spec.find(',');
  const std::string_view name = spec.substr(0, comma);
  if (name == "classic" || name.empty()) {
    out = classic();
  } else if (name == "two-player") {
    out = two_player();
  } else if (name == "spanish") {
    error = "profile 'spanish' is not implemented yet (available: classic, two-player)";
    return false;
  } else {
    error = "unknown profile '" + std::string(name) + "' (available: classic, two-player)";
    return false;
  }
  std::string_view rest = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
  while (!rest.empty()) {
    const size_t c = rest.find(',');
    const std::string_view item = rest.substr(0, c);
    rest = c == std::string_view::npos ? std::string_view{} : rest.substr(c + 1);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos) {
      error = "override '" + std::string(item) + "' is not key=value";
      return false;
    }
    if (!set_param(out, item.substr(0, eq), item.substr(eq + 1), error)) return false;
  }
  return validate(out, error);
}

}  // namespace canasta
