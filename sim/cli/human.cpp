#include "human.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <istream>
#include <string>

#include "canasta/notation.h"
#include "canasta/params.h"
#include "canasta/text.h"
#include "table.h"

namespace canasta::cli {

namespace {

constexpr const char* kHelp =
    "  a number or an action in notation (draw, take Q: Q Q, meld K: K K K, discard 7, ask, yes, no, pass);\n"
    "  hint: what the hint agent would play; undo: take back your last meld or take of this turn;\n"
    "  help: this; quit: stop (the deals already finished stay recorded)\n";

// Decisions that hand the play on, or show a card nobody saw: once made,
// they are played and cannot be taken back.
bool commits(Action a) {
  switch (a.type()) {
    case ActionType::kDraw:
    case ActionType::kDiscard:
    case ActionType::kAsk:
    case ActionType::kYes:
    case ActionType::kNo:
    case ActionType::kPass:
      return true;
    default:
      return false;
  }
}

// One answer, a line of at most 4 KiB (the rest of a longer line is read
// and dropped, a line without end read to its end): false at the end of the input.
bool read_answer(std::istream& in, std::string& line) {
  constexpr size_t kMaxAnswer = 4096;
  line.clear();
  char c = 0;
  bool any = false;
  while (in.get(c)) {
    any = true;
    if (c == '\n') return true;
    if (line.size() < kMaxAnswer) line += c;
  }
  return any;
}

}  // namespace

HumanSeat::HumanSeat(const State& table, int seat, const AgentSpec& hint, std::istream& in, bool color)
    : table_(table),
      seat_(seat),
      hint_(make_agent(hint)),
      in_(in),
      color_(color),
      interactive_(::isatty(0) != 0) {}

Action HumanSeat::act(const View& /*view*/, Rng& /*rng*/) {
  if (!queued_.empty()) {
    const Action a = queued_.front();
    queued_.pop_front();
    return a;
  }
  std::vector<Action> plan;  // this turn's decisions, tried on `t`
  State t = table_;
  ActionList legal;
  bool show = true;
  for (;;) {
    legal_actions(t, legal);
    if (show) {
      fmt::print("\n{}", table_text(t, {seat_, color_}));
      fmt::print("  you play seat {}; legal:", seat_);
      for (int i = 0; i < legal.size(); ++i)
        fmt::print("{}[{}] {}", i % 4 ? "  " : "\n    ", i + 1, action_to_string(legal[i]));
      fmt::print("\n");
      show = false;
    }
    fmt::print("seat {}> ", seat_);
    std::fflush(stdout);
    std::string line;
    if (!read_answer(in_, line)) throw Quit{};
    if (!interactive_) fmt::print("{}\n", printable(line));  // a transcript shows what was answered
    line = std::string(text::trim(line));
    if (line.empty()) continue;
    if (line == "quit" || line == "exit") throw Quit{};
    if (line == "help" || line == "?") {
      fmt::print("{}", kHelp);
      continue;
    }
    if (line == "hint") {
      Rng rng(++hints_);
      const Action a = hint_->act(View(t, seat_), rng);
      fmt::print("  hint: {}\n", action_to_string(a));
      if (const auto* search = dynamic_cast<const IsmctsAgent*>(hint_.get());
          search && !search->last_visits().empty()) {
        auto visits = search->last_visits();
        std::stable_sort(visits.begin(), visits.end(),
                         [](const auto& x, const auto& y) { return x.second > y.second; });
        fmt::print("  visits:");
        for (size_t i = 0; i < std::min<size_t>(5, visits.size()); ++i)
          fmt::print("  {} {}", action_to_string(visits[i].first), visits[i].second);
        fmt::print(" (of {} iterations)\n", search->last_iterations());
      }
      continue;
    }
    if (line == "undo") {
      if (plan.empty()) {
        fmt::print("  nothing to undo: a card drawn, or the play handed on, cannot be taken back\n");
        continue;
      }
      plan.pop_back();
      t = table_;
      for (Action a : plan) apply(t, a);
      fmt::print("  undone\n");
      show = true;
      continue;
    }
    Action a{};
    int number = 0;
    if (text::to_number(line, number)) {
      if (number < 1 || number > legal.size()) {
        fmt::print("  not understood: choose 1 to {} (help lists the commands)\n", legal.size());
        continue;
      }
      a = legal[number - 1];
    } else {
      std::string error;
      if (!parse_action(line, a, error)) {
        fmt::print("  not understood: {} (help lists the commands)\n", printable(error));
        continue;
      }
      if (!legal.contains(a)) {
        fmt::print("  not legal here: {}\n", action_to_string(a));
        continue;
      }
    }
    plan.push_back(a);
    apply(t, a);
    if (commits(a) || t.over() || t.actor() != seat_) break;
    show = true;
  }
  queued_.assign(plan.begin() + 1, plan.end());
  return plan.front();
}

}  // namespace canasta::cli
