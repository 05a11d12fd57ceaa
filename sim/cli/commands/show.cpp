// canasta show: a recorded deal turn by turn, as text or as a self-contained
// HTML page (replay_page.cpp).
#include <fmt/format.h>

#include <fstream>
#include <limits>

#include "../cli.h"
#include "../table.h"
#include "canasta/input_file.h"
#include "canasta/json.h"
#include "canasta/notation.h"
#include "canasta/profile.h"
#include "canasta/record.h"
#include "canasta/replay.h"

namespace canasta::cli {

namespace {

// The deals of a record file: one line (`line` > 0) or the first `most`;
// `more` (when given) says whether the file holds records past them.
std::vector<ShownDeal> read_deals(const std::string& path, int64_t line, int64_t most, bool* more = nullptr) {
  LineReader in;
  std::string text, error, read_error;
  if (!in.open(path, kMaxRecordLine, "a record file", read_error)) throw InputError{read_error};
  std::vector<ShownDeal> deals;
  while (static_cast<int64_t>(deals.size()) < most && in.next(text, read_error)) {
    const int64_t line_no = in.line_number();
    if (text.empty() || (line > 0 && line_no != line)) continue;
    ShownDeal d;
    d.line = line_no;
    if (!parse_record(text, d.record, error) || !replay_states(d.record, d.states, error))
      throw InputError{fmt::format("{}:{}: {}", printable(path), line_no, error)};
    deals.push_back(std::move(d));
  }
  if (!read_error.empty()) throw InputError{read_error};
  if (deals.empty())
    throw InputError{line > 0 ? fmt::format("{} has no record on line {}", printable(path), line)
                              : fmt::format("{}: no records", printable(path))};
  if (more) {
    *more = false;
    while (line == 0 && !*more && in.next(text, read_error)) *more = !text.empty();
    if (!read_error.empty()) throw InputError{read_error};
  }
  return deals;
}

void print_step(const ShownDeal& d, size_t step, const TableStyle& style) {
  if (step == 0) {
    fmt::print("step 0: the deal, dealer {}, seat {} plays first\n", d.record.dealer,
               (d.record.dealer + 1) % d.record.rules.players);
  } else {
    const auto& [seat, a] = d.record.actions[step - 1];
    fmt::print("step {}: {}\n", step, action_line(seat, a));
  }
  fmt::print("{}", table_text(d.states[step], style));
}

}  // namespace

void add_show(CLI::App& app, int& exit_code) {
  struct Options {
    std::string file, html;
    int64_t line = 0, step = -1;
    int seat = -1;
    bool no_color = false, all = false;
  };
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("show", "show a recorded deal turn by turn, as text or as an HTML page");
  sub->add_option("file", o->file, "JSON Lines record file (canasta play or sim --record)")->required();
  sub->add_option("--line,-l", o->line,
                  "the record on this line (default: the first; with --html, all of them)")
      ->check(CLI::Range(int64_t{1}, std::numeric_limits<int64_t>::max()));
  auto* step =
      sub->add_option("--step", o->step, "only this step (0: the deal as dealt; k: after the k-th action)")
          ->check(CLI::Range(int64_t{0}, std::numeric_limits<int64_t>::max()));
  auto* seat =
      sub->add_option("--seat", o->seat, "show only what this seat sees (other hands as their sizes)")
          ->check(CLI::Range(0, kMaxSeats - 1));
  sub->add_flag("--all", o->all, "show every hand (the default)")->excludes(seat);
  sub->add_option(
         "--html", o->html,
         "write a self-contained HTML page of the deals (at most 200; --line picks one) to this file; "
         "the page steps through every action and shows every hand")
      ->check(named())
      ->excludes(step)
      ->excludes(seat);
  sub->add_flag("--no-color", o->no_color, "no colours, even on a terminal");
  sub->callback([o, &exit_code] {
    exit_code = 0;
    if (!o->html.empty()) {
      check_distinct_files({{"--html", o->html}}, {{"the record file", o->file}});
      bool more = false;
      const auto deals = read_deals(o->file, o->line, 200, &more);
      write_atomically(o->html, replay_page(deals));
      fmt::print("{}: {} deal{} of {}{}\n", printable(o->html, 400), deals.size(),
                 deals.size() == 1 ? "" : "s", printable(o->file, 400),
                 more ? " (the first 200: a page holds no more; --line picks one)" : "");
      return;
    }
    const ShownDeal d = read_deals(o->file, o->line > 0 ? o->line : 0, 1).front();
    if (o->seat >= d.record.rules.players)
      throw InputError{fmt::format("--seat {}: a game of {} players has seats 0 to {}", o->seat,
                                   d.record.rules.players, d.record.rules.players - 1)};
    const TableStyle style{o->seat, !o->no_color && color_terminal()};
    const size_t steps = d.states.size();
    if (o->step >= static_cast<int64_t>(steps))
      throw InputError{fmt::format("--step {}: the deal has steps 0 to {}", o->step, steps - 1)};
    fmt::print("line {}: {} deal {} of seed {}, profile {}", d.line,
               d.record.kind == RecordKind::kGame ? "game" : "single", d.record.deal, d.record.seed,
               profile_spec(d.record.rules));
    for (size_t i = 0; i < d.record.agents.size(); ++i)  // text from the file: shown as text
      fmt::print("{}{}", i ? " | " : ", agents ", printable(d.record.agents[i], kMaxAgentText));
    fmt::print("\n");
    if (o->step >= 0) {
      print_step(d, static_cast<size_t>(o->step), style);
    } else {
      for (size_t i = 0; i < steps; ++i) print_step(d, i, style);
    }
    if (o->step < 0 || o->step == static_cast<int64_t>(steps) - 1)
      fmt::print("{}", score_text(d.states.back()));
  });
}

}  // namespace canasta::cli
