#include "canasta/profile.h"

#include <fmt/format.h>

#include <array>
#include <cstdint>

namespace canasta {

CANASTA_CHOICE_NAMES(RedThreeDeal, "immediate", "turn", "exposed");
CANASTA_CHOICE_NAMES(StockEnd, "pile", "last_draw", "must_take");
CANASTA_CHOICE_NAMES(TieRule, "play_on", "draw");

namespace {

constexpr std::array kProfiles{
    Profile{"classic", "default; 4 players in 2 partnerships", classic_rules()},
    Profile{"two-player", "2 players", two_player_rules()},
    Profile{"spanish", "spanish club rules; 4 players in 2 partnerships", spanish_rules()},
    Profile{"spanish-2p", "spanish, 2 players", spanish_table(2, 2)},
    Profile{"spanish-3p", "spanish, 3 players", spanish_table(3, 3)},
    Profile{"spanish-6p", "spanish, 6 players in 2 teams of 3 seated alternately", spanish_table(6, 2)},
    Profile{"spanish-6p3", "spanish, 6 players in 3 partnerships, 3 decks", spanish_table(6, 3)},
};

// One line per rule a spec may override.
const std::array kRuleParams{
    param<&Rules::hand_size>("hand", 5, 20, "cards dealt"),
    param<&Rules::draw_count>("draw", 1, 2, "cards drawn from the stock"),
    param<&Rules::canastas_to_go_out>("canastas", 1, 3, "canastas needed to go out"),
    param<&Rules::max_wilds>("max_wilds", 1, 3, "most wild cards in a meld"),
    flag<&Rules::wilds_le_naturals>("wilds_le_naturals", "never more wilds than naturals in a meld"),
    flag<&Rules::one_card_rule>("one_card_rule", "a one-card hand may not take a one-card pile"),
    flag<&Rules::ask_partner>("ask", "a player may ask the partner to go out"),
    param<&Rules::red3_deal>(
        "red3", 0, 0,
        "dealt red threes replaced at once, at the owner's turn, or exposed at once and replaced "
        "at the owner's turn"),
    param<&Rules::stock_end>(
        "stock_end", 0, 0,
        "play on by taking the pile, end after the last draw, or play on with every take compulsory"),
    flag<&Rules::wild_melds>("wild_melds", "melds of wild cards only (seven: a wild canasta, 2000)"),
    flag<&Rules::closed_canastas>("closed",
                                  "canastas closed at seven (one 8th natural); mixed ones may be cleaned"),
    flag<&Rules::frozen_until_taken>("frozen_until_taken", "the pile is frozen until taken once in the deal"),
    flag<&Rules::red3_need_canasta>("red3_canasta", "red threes count plus only for a side with a canasta"),
    flag<&Rules::premiums>("premiums", "black threes 500/-500, 5 and 7 canastas, concealed 1000/500/500/200"),
    param<&Rules::target>("target", 100, 30000, "game target"),
    param<&Rules::tie>("tie", 0, 0, "a tie at or above the target"),
    param<&Rules::max_deals>("max_deals", 1, 60000, "a game is abandoned after this many deals"),
};

std::string profile_names() {
  std::string names;
  for (const Profile& p : kProfiles) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return names;
}

// `r` with every overridable rule set to its value in `base`.
Rules without_overrides(Rules r, const Rules& base) {
  for (const auto& p : kRuleParams) p.set(r, p.get(base));
  return r;
}

}  // namespace

std::span<const Profile> profiles() { return kProfiles; }
std::span<const Param<Rules>> rule_params() { return kRuleParams; }

bool parse_profile(std::string_view spec, Rules& out, std::string& error) {
  uint32_t given = 0;
  const auto name = [&](std::string_view n) {
    if (n.empty()) n = "classic";
    for (const Profile& p : kProfiles)
      if (p.name == n) {
        out = p.rules;
        return true;
      }
    error = "unknown profile '" + printable(n) + "' (available: " + profile_names() + ")";
    return false;
  };
  const auto item = [&](std::string_view key, std::string_view value) {
    for (size_t i = 0; i < kRuleParams.size(); ++i) {
      if (kRuleParams[i].name != key) continue;
      if (given >> i & 1U) {
        error = fmt::format("rule '{}' is given twice", key);
        return false;
      }
      given |= 1U << i;
      return read_param(kRuleParams[i], value, out, fmt::format("rule '{}'", key), error);
    }
    error = fmt::format("unknown rule '{}' (see canasta rules)", printable(key));
    return false;
  };
  if (!parse_spec(spec, ',', name, item, error)) return false;
  if (const char* bad = check_rules(out)) {
    error = fmt::format("profile '{}': {}", printable(spec), bad);
    return false;
  }
  return true;
}

std::string profile_spec(const Rules& r) {
  // The profile of the same table that needs the fewest overrides.
  const Profile* base = &kProfiles[0];
  size_t fewest = SIZE_MAX;
  for (const Profile& p : kProfiles) {
    if (without_overrides(r, p.rules) != p.rules) continue;
    size_t n = 0;
    for (const auto& q : kRuleParams) n += q.get(r) != q.get(p.rules) ? 1 : 0;
    if (n < fewest) {
      fewest = n;
      base = &p;
    }
  }
  std::string out(base->name);
  for (const auto& p : kRuleParams)
    if (p.get(r) != p.get(base->rules)) out += fmt::format(",{}={}", p.name, write_param(p, r));
  return out;
}

std::string profile_help() {
  std::string out = "profiles:";
  for (const Profile& p : kProfiles) out += fmt::format(" {} ({}),", p.name, p.about);
  out.back() = '\n';
  out += "overrides (profile,key=value,...):\n";
  for (const auto& p : kRuleParams) {
    const std::string left = fmt::format("{}={}", p.name,
                                         p.style == ParamStyle::kInteger ? "N"
                                         : p.style == ParamStyle::kFlag  ? "B"
                                                                         : param_range(p));
    out += fmt::format("  {:<{}}{}", left, std::max<size_t>(21, left.size() + 2), p.help);
    if (p.style == ParamStyle::kInteger) out += fmt::format(" ({}..{})", p.lo, p.hi);
    out += '\n';
  }
  out += "B is true or false (also 1/0, yes/no, on/off)\n";
  return out;
}

}  // namespace canasta
