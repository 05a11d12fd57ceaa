#include "table.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

#include "canasta/engine.h"
#include "canasta/notation.h"
#include "canasta/record.h"

namespace canasta::cli {

namespace {

const char* color_of(int kind) {
  if (is_wild(kind)) return "\033[35m";    // magenta
  if (kind == kRed3) return "\033[31m";    // red
  if (kind == kBlack3) return "\033[34m";  // blue
  return "";
}

std::string cards(CardSet c, bool color) {
  std::string out;
  for (int k = 0; k < kKindNb; ++k)
    for (int i = 0; i < c.count(k); ++i) {
      if (!out.empty()) out += ' ';
      const char* on = color ? color_of(k) : "";
      out += fmt::format("{}{}{}", on, kind_token(k), *on ? "\033[0m" : "");
    }
  return out;
}

std::string melds(const TeamMelds& m, bool color) {
  std::string out;
  for (int k = kTwo; k <= kLastNatural; ++k) {  // the wild meld (kTwo) first
    if (m.size(k) == 0) continue;
    const CardSet c = m.cards(k);
    std::string tag;
    if (m.is_canasta(k)) {
      const char* kind = k == kTwo ? "wild canasta" : m.wilds(k) == 0 ? "natural canasta" : "mixed canasta";
      tag = color ? fmt::format(" \033[1;32m[{}]\033[0m", kind) : fmt::format(" [{}]", kind);
    }
    out += fmt::format("{}{}: {}{}", out.empty() ? "" : "  |  ", meld_token(k), cards(c, color), tag);
  }
  return out.empty() ? "-" : out;
}

}  // namespace

bool color_terminal() {
  const char* term = std::getenv("TERM");
  return ::isatty(1) != 0 && std::getenv("NO_COLOR") == nullptr && term && std::string(term) != "dumb";
}

std::string action_line(int seat, Action a) { return fmt::format("seat {}: {}", seat, action_to_string(a)); }

std::string table_text(const State& s, const TableStyle& style) {
  const Rules& r = s.rules;
  std::string out;
  if (s.pile_size > 0) {
    CardSet top;
    top.add(s.top());
    out += fmt::format("  pile     {} on top, {} card{}{}", cards(top, style.color), s.pile_size,
                       s.pile_size == 1 ? "" : "s", s.pile_frozen ? ", frozen" : "");
  } else {
    out += "  pile     empty";
  }
  out += fmt::format("    stock {} card{}\n", s.stock_size(), s.stock_size() == 1 ? "" : "s");
  for (int t = 0; t < r.teams; ++t) {
    int reds = 0;
    for (int seat = t; seat < r.players; seat += r.teams) reds += s.red3[seat];
    out += fmt::format("  side {}   {}{}\n", t, melds(s.melds[t], style.color),
                       reds ? fmt::format("    red threes {}", reds) : "");
  }
  for (int seat = 0; seat < r.players; ++seat) {
    const bool moving = !s.over() && seat == s.actor();
    const bool shown = style.seat < 0 || style.seat == seat;
    const int n = s.hand[seat].total();
    std::string line = fmt::format("  seat {}   {} card{}", seat, n, n == 1 ? "" : "s");
    if (shown && n > 0) line += ": " + cards(s.hand[seat], style.color);
    if (!s.known[seat].empty() && !(shown && style.seat < 0))
      line += "  (took with the pile: " + cards(s.known[seat], style.color) + ")";
    if (moving) line += style.color ? "  \033[1m<- to play\033[0m" : "  <- to play";
    out += line + "\n";
  }
  return out;
}

std::string score_text(const State& s) {
  const auto score = deal_score(s);
  std::string out = fmt::format("  end      {}", end_name(s.end));
  if (s.end == EndReason::kWentOut)
    out += fmt::format(" by seat {}{}", s.out_seat, s.concealed ? ", concealed" : "");
  out += "\n";
  for (int t = 0; t < s.rules.teams; ++t) {
    const DealScore& d = score[t];
    out += fmt::format(
        "  side {}   melded {:+}, in hand {:+}, canastas {:+}, red threes {:+}, going out {:+}: {:+}\n", t,
        d.melded, d.in_hand, d.canastas, d.red_threes, d.going_out, d.total());
  }
  return out;
}

}  // namespace canasta::cli
