#include "canasta/results.h"

#include <fmt/format.h>

#include <array>
#include <iterator>
#include <limits>
#include <type_traits>

#include "canasta/json.h"
#include "canasta/profile.h"
#include "canasta/text.h"

namespace canasta {

namespace {

// One CSV column of a row type: its header name, how to read it from a row
// and how to set it (false when the value does not fit the field).
template <class Row>
struct Column {
  std::string_view name;
  int64_t (*get)(const Row&);
  bool (*set)(Row&, int64_t);
};

template <class T>
bool fits(int64_t v) {
  return v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
}

// A column of the integer field `field` (`index` of an array field; `inner` of a struct field).
template <class Row, auto Field>
constexpr Column<Row> column(std::string_view name) {
  return {name, [](const Row& r) { return static_cast<int64_t>(r.*Field); },
          [](Row& r, int64_t v) {
            using T = std::remove_reference_t<decltype(r.*Field)>;
            if (!fits<T>(v)) return false;
            r.*Field = static_cast<T>(v);
            return true;
          }};
}
template <class Row, auto Field, int Index>
constexpr Column<Row> column_at(std::string_view name) {
  return {name, [](const Row& r) { return static_cast<int64_t>((r.*Field)[Index]); },
          [](Row& r, int64_t v) {
            using T = std::remove_reference_t<decltype((r.*Field)[Index])>;
            if (!fits<T>(v)) return false;
            (r.*Field)[Index] = static_cast<T>(v);
            return true;
          }};
}

// The columns of deals.csv at a table of `Sides` sides: the deal's own, one
// per side for each value per side (score0, score1, ...), then the pile's.
template <int Sides>
constexpr std::array<Column<DealRow>, 11 + 5 * Sides> deal_columns() {
  std::array<Column<DealRow>, 11 + 5 * Sides> c{};
  size_t i = 0;
  c[i++] = column<DealRow, &DealRow::deal>("deal");
  c[i++] = column<DealRow, &DealRow::swapped>("swapped");
  c[i++] = column<DealRow, &DealRow::end>("end");
  c[i++] = column<DealRow, &DealRow::out_seat>("out_seat");
  c[i++] = column<DealRow, &DealRow::concealed>("concealed");
  c[i++] = column<DealRow, &DealRow::turns>("turns");
  c[i++] = column<DealRow, &DealRow::actions>("actions");
  // One column per side of the array field `Field`, named from `names`.
  const auto per_side = [&]<auto Field, int... I>(std::integer_sequence<int, I...>,
                                                  std::array<std::string_view, 3> names) {
    ((c[i++] = column_at<DealRow, Field, I>(names[I])), ...);
  };
  constexpr auto sides = std::make_integer_sequence<int, Sides>();
  per_side.template operator()<&DealRow::score>(sides, {"score0", "score1", "score2"});
  per_side.template operator()<&DealRow::natural_canastas>(
      sides, {"natural_canastas0", "natural_canastas1", "natural_canastas2"});
  per_side.template operator()<&DealRow::mixed_canastas>(
      sides, {"mixed_canastas0", "mixed_canastas1", "mixed_canastas2"});
  per_side.template operator()<&DealRow::red_threes>(sides, {"red_threes0", "red_threes1", "red_threes2"});
  per_side.template operator()<&DealRow::opening_turn>(sides,
                                                       {"opening_turn0", "opening_turn1", "opening_turn2"});
  c[i++] = column<DealRow, &DealRow::pickups>("pickups");
  c[i++] = column<DealRow, &DealRow::pickup_cards>("pickup_cards");
  c[i++] = column<DealRow, &DealRow::freezes>("freezes");
  c[i++] = column<DealRow, &DealRow::blocks>("blocks");
  return c;
}
constexpr auto kDealColumns = deal_columns<2>();
constexpr auto kDealColumns3 = deal_columns<3>();

// A game row's own columns (a total per side), then one per field of its DealCounts.
template <size_t I>
constexpr Column<GameRow> count_column() {
  return {deal_count_fields()[I].name,
          [](const GameRow& r) { return r.counts.*deal_count_fields()[I].member; },
          [](GameRow& r, int64_t v) { return (r.counts.*deal_count_fields()[I].member = v) >= 0; }};
}
template <int Sides, size_t... I>
constexpr std::array<Column<GameRow>, 4 + Sides + sizeof...(I)> game_columns(std::index_sequence<I...>) {
  std::array<Column<GameRow>, 4 + Sides + sizeof...(I)> c{};
  size_t i = 0;
  c[i++] = column<GameRow, &GameRow::game>("game");
  c[i++] = column<GameRow, &GameRow::swapped>("swapped");
  c[i++] = column<GameRow, &GameRow::end>("end");
  c[i++] = column<GameRow, &GameRow::winner>("winner");
  constexpr std::array<std::string_view, 3> totals{"total0", "total1", "total2"};
  [&]<int... S>(std::integer_sequence<int, S...>) {
    ((c[i++] = column_at<GameRow, &GameRow::total, S>(totals[S])), ...);
  }
  (std::make_integer_sequence<int, Sides>());
  ((c[i++] = count_column<I>()), ...);
  return c;
}
constexpr auto kGameColumns2 = game_columns<2>(std::make_index_sequence<deal_count_fields().size()>());
constexpr auto kGameColumns3 = game_columns<3>(std::make_index_sequence<deal_count_fields().size()>());

template <class Row, size_t N>
std::string header(const std::array<Column<Row>, N>& columns) {
  std::string h;
  for (const auto& c : columns) h += (h.empty() ? "" : ",") + std::string(c.name);
  return h;
}

template <class Row, size_t N>
void append_csv(std::string& out, std::span<const Row> rows, const std::array<Column<Row>, N>& columns) {
  auto it = std::back_inserter(out);
  for (const Row& r : rows) {
    for (size_t i = 0; i < N; ++i) fmt::format_to(it, "{}{}", columns[i].get(r), i + 1 < N ? ',' : '\n');
  }
}

template <class Row, size_t N>
std::string to_csv(std::span<const Row> rows, const std::array<Column<Row>, N>& columns) {
  std::string out = header(columns) + "\n";
  append_csv(out, rows, columns);
  return out;
}

// One row's cells: N integers, each fitting its field.
template <class Row, size_t N>
bool parse_line(std::string_view line, const std::array<Column<Row>, N>& columns, Row& r,
                std::array<int64_t, N>& cells) {
  size_t start = 0, n = 0;
  for (;; ++n) {
    const size_t comma = line.find(',', start);
    const std::string_view cell =
        line.substr(start, comma == std::string_view::npos ? line.npos : comma - start);
    if (n == N || !text::to_number(cell, cells[n]) || !columns[n].set(r, cells[n])) return false;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return n + 1 == N;
}

template <class Row, size_t N>
bool from_csv(std::string_view text, std::string_view file, const std::array<Column<Row>, N>& columns,
              std::vector<Row>& rows, std::string& error) {
  rows.clear();
  const std::string head = header(columns);
  size_t pos = 0;
  int64_t line_no = 0;
  // The magnitudes of each column but the index, summed: a tally of the rows
  // then cannot overflow (Tally::in_range checks what it holds).
  constexpr uint64_t kMaxColumnSum = uint64_t{1} << 56;
  std::array<uint64_t, N> sums{};
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (line_no == 1) {
      if (line != head) {
        error = fmt::format("not a {} of this version (header differs)", file);
        return false;
      }
      continue;
    }
    if (line.empty()) continue;
    Row r;
    std::array<int64_t, N> cells{};
    if (!parse_line(line, columns, r, cells)) {
      error = fmt::format("{} line {}: {} integer columns expected", file, line_no, N);
      return false;
    }
    for (size_t n = 1; n < N; ++n) {
      const int64_t v = cells[n];
      sums[n] += v < 0 ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
      if (sums[n] > kMaxColumnSum) {
        error = fmt::format("{} line {}: the rows' {} add up beyond what a run can hold", file, line_no,
                            columns[n].name);
        return false;
      }
    }
    rows.push_back(r);
  }
  if (line_no == 0) {
    error = fmt::format("{} is empty", file);
    return false;
  }
  return true;
}

void interval(JsonWriter& w, std::string_view key, const Interval& i) {
  w.key(key).begin_object().field("mean", i.mean).field("lo", i.lo).field("hi", i.hi).end_object();
}

void per_deal(JsonWriter& w, const PerDeal& p) {
  w.key("per_deal").begin_object();
  for (const PerDealField& f : per_deal_fields()) w.field(f.name, p.*f.member);
  w.end_object();
}

// The "config" object of summary.json: what a merge checks the shards agree on.
void config(JsonWriter& w, const ExperimentConfig& c) {
  w.key("config").begin_object();
  w.field("profile", profile_spec(c.rules));
  w.field("side0", c.side0.to_string());
  w.field("side1", c.side1.to_string());
  if (c.side2) w.field("side2", c.side2->to_string());
  w.key("seats").begin_array();
  for (const SeatAgent& s : c.seats) w.begin_array().value(s.seat).value(s.agent.to_string()).end_array();
  w.end_array();
  w.field("seed", c.seed);
  w.field(c.games > 0 ? "games" : "deals", c.games > 0 ? c.games : c.deals);
  w.field("duplicate", c.duplicate);
  w.field("shard", c.shard);
  w.field("shards", c.shards);
  w.end_object();
}

// What A scored, in summary.json.
void score(JsonWriter& w, const ScoreStats& s, std::string_view drawn) {
  w.field("a_won", s.a_won).field("b_won", s.b_won).field(drawn, s.drawn).field("paired", s.paired);
  if (s.paired && s.penta.pairs() > 0) {  // pairs of twins: a table of two sides
    const Pentanomial& p = s.penta;
    w.key("pentanomial").begin_object();
    w.field("LL", p.ll)
        .field("LD", p.ld)
        .field("WL", p.wl)
        .field("DD", p.dd)
        .field("WD", p.wd)
        .field("WW", p.ww);
    w.end_object();
  }
  interval(w, "a_win_share", s.share);
  interval(w, "elo", s.elo);
  interval(w, "nelo", s.nelo);
  w.field("los", s.los).field("draw_ratio", s.draw_ratio).field("mirror", s.mirror);
}

void intervals(JsonWriter& w, const ScoreStats& s) {
  w.key("intervals").begin_object().field("level", 0.95);
  // Over pairs of twins at two sides, over groups of them at three; a share
  // of pairwise comparisons (three sides) is not a count of wins: no Wilson.
  const bool pairs = s.penta.pairs() > 0;
  w.field("share",
          s.paired ? (pairs ? "normal, over duplicate pairs (pentanomial)" : "normal, over duplicate groups")
          : s.pairwise ? "normal, over single results"
                       : "Wilson score, over single results");
  w.field("margin", s.paired ? (pairs ? "normal, over duplicate pairs" : "normal, over duplicate groups")
                             : "normal, over single results");
  w.field("elo", "the share's bounds through -400 log10(1/p - 1)");
  w.end_object();
}

// The parts both kinds of summary.json have, in order, around the margin and
// the kind's own figure (`extra`).
template <class S>
std::string summary_json(std::string_view format, const ExperimentConfig& c, const S& s,
                         std::string_view drawn, std::pair<std::string_view, double> extra,
                         const std::optional<SprtResult>& t) {
  std::string out;
  JsonWriter w(out);
  w.begin_object().field("format", format);
  config(w, c);
  w.field("status", s.status).field("rows", s.rows);
  score(w, s.score, drawn);
  interval(w, "margin", s.margin);
  w.field(extra.first, extra.second);
  intervals(w, s.score);
  if (t) {
    w.key("sprt").begin_object();
    w.field("elo0", c.sprt->elo0)
        .field("elo1", c.sprt->elo1)
        .field("alpha", c.sprt->alpha)
        .field("beta", c.sprt->beta);
    w.field("llr", t->llr).field("lower", t->lower).field("upper", t->upper);
    w.field("decision", t->decision > 0 ? "H1" : t->decision < 0 ? "H0" : "undecided");
    w.end_object();
  }
  per_deal(w, s.per_deal);
  if constexpr (std::is_same_v<S, Summary>) {
    // Tables of three sides: per agent, its mean deal score and its share of outright wins.
    if (s.sides > 2) {
      w.key("agents").begin_object();
      for (int role = 0; role < s.sides; ++role)
        w.key("side" + std::to_string(role))
            .begin_object()
            .field("mean_score", s.agent_score[role])
            .field("first", s.agent_first[role])
            .end_object();
      w.end_object();
    }
  }
  w.end_object();
  return out + "\n";
}

}  // namespace

std::string rows_to_csv(std::span<const DealRow> rows, int sides) {
  return sides == 3 ? to_csv(rows, kDealColumns3) : to_csv(rows, kDealColumns);
}

void append_rows_csv(std::string& out, std::span<const DealRow> rows, int sides) {
  return sides == 3 ? append_csv(out, rows, kDealColumns3) : append_csv(out, rows, kDealColumns);
}

bool rows_from_csv(std::string_view text, std::vector<DealRow>& rows, std::string& error, int sides) {
  return sides == 3 ? from_csv(text, "deals.csv", kDealColumns3, rows, error)
                    : from_csv(text, "deals.csv", kDealColumns, rows, error);
}

std::string game_rows_to_csv(std::span<const GameRow> rows, int sides) {
  return sides == 3 ? to_csv(rows, kGameColumns3) : to_csv(rows, kGameColumns2);
}

void append_game_rows_csv(std::string& out, std::span<const GameRow> rows, int sides) {
  return sides == 3 ? append_csv(out, rows, kGameColumns3) : append_csv(out, rows, kGameColumns2);
}

bool game_rows_from_csv(std::string_view text, std::vector<GameRow>& rows, std::string& error, int sides) {
  return sides == 3 ? from_csv(text, "games.csv", kGameColumns3, rows, error)
                    : from_csv(text, "games.csv", kGameColumns2, rows, error);
}

bool row_from_csv(std::string_view line, DealRow& row, int sides) {
  if (sides == 3) {
    std::array<int64_t, kDealColumns3.size()> cells{};
    return parse_line(line, kDealColumns3, row, cells);
  }
  std::array<int64_t, kDealColumns.size()> cells{};
  return parse_line(line, kDealColumns, row, cells);
}

bool row_from_csv(std::string_view line, GameRow& row, int sides) {
  if (sides == 3) {
    std::array<int64_t, kGameColumns3.size()> cells{};
    return parse_line(line, kGameColumns3, row, cells);
  }
  std::array<int64_t, kGameColumns2.size()> cells{};
  return parse_line(line, kGameColumns2, row, cells);
}

const char* rows_file_name(const ExperimentConfig& c) { return c.games > 0 ? "games.csv" : "deals.csv"; }

uint64_t rows_file_cap(const ExperimentConfig& c) {
  constexpr uint64_t kRowBytes = 2048;
  const int64_t count = shard_size(c.games > 0 ? c.games : c.deals, c);
  return kRowBytes * (1 + static_cast<uint64_t>(std::max<int64_t>(count, 0)) * twin_count(c));
}

std::string summary_to_json(const ExperimentConfig& c, const Summary& s) {
  return summary_json("canasta-summary/2", c, s, "tied", {"unpaired_margin_width", s.unpaired_width}, s.sprt);
}

std::string game_summary_to_json(const ExperimentConfig& c, const GameSummary& s) {
  return summary_json("canasta-games-summary/2", c, s, "other", {"deals_per_game", s.deals}, std::nullopt);
}

bool config_from_json(std::string_view text, ExperimentConfig& c, std::string& error) {
  Json v;
  if (!parse_json(text, v, error)) return false;
  const auto cfg = v.is_object() ? v.find("config") : v.end();
  if (cfg == v.end() || !cfg->is_object()) {
    error = "summary.json has no config";
    return false;
  }
  const Json& o = *cfg;
  const bool games = o.contains("games");
  const char* count = games ? "games" : "deals";
  const auto is = [&](const char* key, auto test) { return o.contains(key) && (o[key].*test)(); };
  if (!is("profile", &Json::is_string) || !is("side0", &Json::is_string) || !is("side1", &Json::is_string) ||
      !is("seed", &Json::is_number_unsigned) || !is(count, &Json::is_number_unsigned) ||
      !is("shard", &Json::is_number_unsigned) || !is("shards", &Json::is_number_unsigned) ||
      !is("duplicate", &Json::is_boolean)) {
    error = "summary.json config is incomplete";
    return false;
  }
  c = ExperimentConfig{};
  if (!parse_profile(o["profile"].get_ref<const std::string&>(), c.rules, error) ||
      !parse_agent_spec(o["side0"].get_ref<const std::string&>(), c.side0, error) ||
      !parse_agent_spec(o["side1"].get_ref<const std::string&>(), c.side1, error))
    return false;
  if (o.contains("side2")) {
    AgentSpec side2;
    if (!o["side2"].is_string() ||
        !parse_agent_spec(o["side2"].get_ref<const std::string&>(), side2, error)) {
      if (error.empty()) error = "summary.json config has a bad side2";
      return false;
    }
    c.side2 = side2;
  }
  if (o.contains("seats")) {
    const Json& seats = o["seats"];
    for (size_t i = 0; seats.is_array() && i < seats.size(); ++i) {
      const Json& item = seats[i];
      SeatAgent s;
      if (!item.is_array() || item.size() != 2 || !item[0].is_number_unsigned() ||
          item[0].get<uint64_t>() > 5 || !item[1].is_string()) {
        error = "summary.json config has bad seats";
        return false;
      }
      s.seat = item[0].get<int>();
      if (!parse_agent_spec(item[1].get_ref<const std::string&>(), s.agent, error)) return false;
      c.seats.push_back(std::move(s));
    }
  }
  const uint64_t n = o[count].get<uint64_t>(), shard = o["shard"].get<uint64_t>(),
                 shards = o["shards"].get<uint64_t>();
  if (n > (uint64_t{1} << 40) || shards < 1 || shards > (uint64_t{1} << 20) || shard >= shards) {
    error = "summary.json config is out of range";
    return false;
  }
  c.seed = o["seed"].get<uint64_t>();
  (games ? c.games : c.deals) = static_cast<int64_t>(n);
  if (games) c.deals = 0;
  c.shard = static_cast<int>(shard);
  c.shards = static_cast<int>(shards);
  c.duplicate = o["duplicate"].get<bool>();
  return true;
}

bool same_run(const ExperimentConfig& a, const ExperimentConfig& b) {
  return a.rules == b.rules && a.side0 == b.side0 && a.side1 == b.side1 && a.side2 == b.side2 &&
         a.seats == b.seats && a.seed == b.seed && a.deals == b.deals && a.games == b.games &&
         a.duplicate == b.duplicate && a.shards == b.shards;
}

}  // namespace canasta
