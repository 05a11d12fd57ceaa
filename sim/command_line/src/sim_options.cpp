#include "canasta/cli/sim_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "canasta/cli/options.h"
#include "canasta/params.h"
#include "canasta/run_options.h"
#include "canasta/text.h"

namespace canasta::cli {

namespace {

// "N=SPEC": the seat number and the spec.
bool split_seat(std::string_view text, int& seat, std::string_view& spec) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || !text::to_number(text.substr(0, eq), seat) || seat < 0 ||
      seat >= kMaxSeats)
    return false;
  spec = text.substr(eq + 1);
  return true;
}
const char* const kSeatUsage = "wants N=SPEC with a seat 0..5, e.g. --seat 2=heuristic";

// A validator from a parse function and its usage line.
template <class Parse>
CLI::Validator validator(Parse parse, const char* usage, const char* name) {
  return CLI::Validator(
      [parse, usage](std::string& text) -> std::string { return parse(text) ? std::string() : usage; }, "",
      name);
}

// --seat N=SPEC, repeatable; --sprt ELO0,ELO1[,ALPHA,BETA].
void add_seat_and_sprt_options(CLI::App& sub, ExperimentConfig& c) {
  const auto seat_ok = [](std::string_view t) {
    int seat = 0;
    std::string_view spec;
    return split_seat(t, seat, spec);
  };
  const auto sprt_ok = [](std::string_view t) {
    SprtConfig test;
    return parse_sprt(t, test);
  };
  const auto add_seats = [&c](const std::vector<std::string>& items) {
    for (const std::string& item : items) {
      SeatAgent s;
      std::string_view spec;
      split_seat(item, s.seat, spec);
      for (const SeatAgent& given : c.seats)
        if (given.seat == s.seat) throw InputError{fmt::format("--seat: seat {} is given twice", s.seat)};
      s.agent = agent_or_throw("--seat", std::string(spec));
      c.seats.push_back(std::move(s));
    }
  };
  sub.add_option_function<std::vector<std::string>>(
         "--seat", add_seats,
         "seat N plays SPEC instead of its side's agent"
         " (repeatable; in duplicate the agent moves with its side)")
      ->check(validator(seat_ok, kSeatUsage, "N=SPEC"))
      ->type_name("N=SPEC");
  const auto set_sprt = [&c](const std::string& text) {
    SprtConfig t;
    parse_sprt(text, t);
    c.sprt = t;
  };
  sub.add_option_function<std::string>(
         "--sprt", set_sprt,
         "sequential test: stop as soon as it decides (deals in batches of 1024; "
         "not with --games or --shard)")
      ->check(validator(sprt_ok, kSprtUsage, "ELO0,ELO1[,ALPHA,BETA]"))
      ->type_name("ELO0,ELO1[,ALPHA,BETA]");
}

}  // namespace

void SimOptions::finish() {
  if (side2_option->count() > 0) c.side2 = side2;
  c.duplicate = duplicate_option->count() > 0 ? duplicate : sides_differ(c);
  files.rows = rows == "all";
}

void add_sim_options(CLI::App& sub, SimOptions& o) {
  ExperimentConfig& c = o.c;
  c.deals = kProgramDeals;
  add_agent_option(sub, "--side0", c.side0,
                   "agent spec of side 0 (seats s with s mod sides = 0: 0 and 2 of four)");
  add_agent_option(sub, "--side1", c.side1,
                   "agent spec of side 1 (1 and 3 of four; also side 2 without --side2)");
  o.side2_option = add_agent_option(
      sub, "--side2", o.side2, "agent spec of side 2 at a table of three sides (spanish-3p, spanish-6p3)");
  sub.add_option("--deals,-n", c.deals, "number of deals (each played twice in duplicate)")
      ->check(CLI::Range(int64_t{1}, kMaxCount))
      ->capture_default_str();
  sub.add_option("--games,-g", c.games,
                 "play this many whole games (to the profile's target) instead of deals")
      ->check(CLI::Range(int64_t{1}, kMaxCount));
  o.duplicate_option =
      sub.add_flag("--duplicate,!--no-duplicate", o.duplicate,
                   "play every deal twice with the sides swapped (three sides: 3 or 6 times, "
                   "the agents rotated; default: when the agents differ)");
  add_threads_option(sub, c.threads);
  add_seed_option(sub, c.seed, "simulation seed");
  add_profile_option(sub, c.rules);
  const auto shard_ok = [](std::string_view t) {
    int i = 0, n = 0;
    return parse_shard(t, i, n);
  };
  sub.add_option_function<std::string>(
         "--shard", [&c](const std::string& text) { parse_shard(text, c.shard, c.shards); },
         "run only shard i of n (i/n): deal indices k with k mod n = i")
      ->check(validator(shard_ok, kShardUsage, "I/N"))
      ->type_name("I/N");
  sub.add_option("--out,-o", o.files.out_dir,
                 "write summary.json and deals.csv (games.csv with --games) into this directory")
      ->check(named());
  sub.add_option("--rows", o.rows,
                 "with --out: all (every deal's row in deals.csv, streamed as the run goes) or none (the "
                 "summary only)")
      ->check(CLI::IsMember({"all", "none"}))
      ->capture_default_str();
  sub.add_option("--record,-r", o.files.record,
                 "write every deal's game record (JSON Lines, canasta replay checks it) to this file")
      ->check(named());
  add_seat_and_sprt_options(sub, c);
  for (const Exclusion& e : kExclusions)
    sub.get_option("--" + std::string(e.first))->excludes(sub.get_option("--" + std::string(e.second)));
}

SimOptions stopped_sim_options(const StoppedRun& run, std::optional<int> threads) {
  SimOptions o;
  CLI::App app;
  add_sim_options(*app.add_subcommand("sim"), o);
  parse_stopped_command(app, run, threads);
  o.finish();
  o.duplicate_option = o.side2_option = nullptr;  // the app's, gone with it
  o.files.out_dir = run.dir;
  return o;
}

}  // namespace canasta::cli
