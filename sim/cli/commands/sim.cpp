// canasta sim: many deals (or whole games) with an agent per side, in
// parallel, with statistics, files and records.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "../cli.h"
#include "../cluster.h"
#include "canasta/profile.h"
#include "canasta/results.h"
#include "canasta/runner.h"
#include "canasta/text.h"

namespace canasta::cli {

namespace {

using text::to_number;

// "i/n" with 0 <= i < n.
bool parse_shard(std::string_view text, int& index, int& count) {
  const size_t slash = text.find('/');
  return slash != std::string_view::npos && to_number(text.substr(0, slash), index) &&
         to_number(text.substr(slash + 1), count) && count >= 1 && index >= 0 && index < count;
}
const char* const kShardUsage = "wants i/n with 0 <= i < n";

// "elo0,elo1[,alpha,beta]" with elo0 < elo1 and 0 < alpha, beta < 0.5.
bool parse_sprt(std::string_view text, SprtConfig& t) {
  double v[4] = {0, 0, 0.05, 0.05};
  int n = 0;
  for (size_t start = 0;; ++n) {
    const size_t comma = text.find(',', start);
    if (n == 4 ||
        !to_number(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start), v[n]))
      return false;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  ++n;
  if ((n != 2 && n != 4) || !(v[1] > v[0]) || !(v[2] > 0 && v[2] < 0.5) || !(v[3] > 0 && v[3] < 0.5))
    return false;
  t = {v[0], v[1], v[2], v[3]};
  return true;
}
const char* const kSprtUsage = "wants elo0,elo1[,alpha,beta] with elo0 < elo1 and 0 < alpha, beta < 0.5";

// "N=SPEC": the seat number and the spec.
bool split_seat(std::string_view text, int& seat, std::string_view& spec) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || !to_number(text.substr(0, eq), seat) || seat < 0 || seat >= kMaxSeats)
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

// Runs `run(error, hooks)` (run_deals or run_games) over `total` rows with a
// progress line, Ctrl-C and the records file, then prints the run's first
// lines. Returns the seconds it took.
template <class Run>
double run_live(const ExperimentConfig& c, int64_t total, const char* unit, RecordFile& records,
                const Run& run) {
  Progress progress(total, unit);
  std::string error;
  bool ok = false;
  {
    RunHooks hooks;
    hooks.stop = &stop_requested();
    // Rank 0 shows the run's progress from its own share of it.
    hooks.progress = [&progress](int64_t done) { progress(done * cluster().size); };
    hooks.records = records.sink();
    hooks.processes = cluster_processes();
    try {
      ok = run(error, hooks);
    } catch (const std::exception& e) {
      // Another rank waits for this one: end them all, naming this one.
      if (cluster().size > 1) cluster_abort(e.what(), 1);
      throw;
    }
  }
  progress.clear();
  if (!ok) throw InputError{error};
  records.finish();
  const std::string shard_note =
      c.shards > 1 ? ", shard " + std::to_string(c.shard) + "/" + std::to_string(c.shards) : "";
  fmt::print("canasta sim: {} against {}{}{}, profile {}, seed {}{}\n", c.side0.to_string().c_str(),
             c.side1.to_string().c_str(), c.side2 ? " and " + c.side2->to_string() : "",
             c.games > 0 ? ", whole games" : "", profile_spec(c.rules).c_str(),
             static_cast<unsigned long long>(c.seed), shard_note.c_str());
  for (const SeatAgent& s : c.seats) fmt::print("  seat {} plays {}\n", s.seat, s.agent.to_string().c_str());
  return progress.seconds();
}

// Runs deals or, with c.games, whole games; prints the summary and writes
// the files.
// Each rank's CSV text per batch of the run (batch_size), without the
// header, for cluster_concat: under mpirun every rank writes its own rows.
template <class Row, class Index, class ToCsv>
std::vector<std::string> csv_by_batch(const ExperimentConfig& c, const std::vector<Row>& rows,
                                      const Index& index, const ToCsv& to_csv, bool recording,
                                      size_t header) {
  const int64_t batch = batch_size(c, recording);
  std::vector<std::string> parts;
  for (size_t i = 0; i < rows.size();) {
    const int64_t b = (index(rows[i]) - c.shard) / c.shards / batch;
    size_t j = i;
    while (j < rows.size() && (index(rows[j]) - c.shard) / c.shards / batch == b) ++j;
    parts.resize(static_cast<size_t>(b + 1));
    parts.back() = to_csv(std::span(rows).subspan(i, j - i)).substr(header);
    i = j;
  }
  return parts;
}

// Runs deals or, with c.games, whole games; prints the summary and writes
// the files. Under mpirun every rank plays its share and keeps its rows; the
// summary comes from the ranks' tallies, summed, and the CSV from their
// parts, each written at its place.
int run_sim(const ExperimentConfig& c, const std::string& out_dir, const std::string& record_path) {
  const bool games = c.games > 0;
  // From here to the end, a first SIGINT, SIGTERM or SIGHUP stops the run and
  // keeps what finished (during the final write too); a second one ends at once.
  StopOnSignals signals;
  std::string error;
  if (!check_config(c, error, cluster().size)) throw InputError{error};
  const bool writer = cluster().rank == 0;  // rank 0 prints and puts the files in place
  // Both made before any deal is played, on every rank: a bad place is refused.
  std::optional<OutDir> out;
  std::optional<RecordFile> records;
  on_every_rank([&] {
    out.emplace(writer ? out_dir : std::string());
    records.emplace(record_path);
  });
  std::vector<DealRow> deal_rows;
  std::vector<GameRow> game_rows;
  const double seconds =
      run_live(c, shard_size(games ? c.games : c.deals, c) * twin_count(c), games ? "games" : "deals",
               *records, [&](std::string& e, const RunHooks& hooks) {
                 return games ? run_games(c, game_rows, e, hooks) : run_deals(c, deal_rows, e, hooks);
               });
  Tally tallied = games ? tally_games(game_rows, c.duplicate, c.rules.teams)
                        : tally(deal_rows, c.duplicate, c.rules.teams);
  cluster_processes().add_up(tallied.words());
  const int signal = stop_signal();
  const int64_t rows = tallied.rows;
  std::vector<std::pair<std::string, std::string>> files;
  std::string status;
  if (games) {
    const GameSummary s = summarize_games(tallied, c);
    fmt::print("  speed        {} games/s, {:.2f} s\n", rate_text(static_cast<double>(rows) / seconds),
               seconds);
    print_game_summary(c, s);
    files = {{"summary.json", game_summary_to_json(c, s)}};
    status = s.status;
  } else {
    const Summary s = summarize(tallied, c);
    const int threads = resolve_threads(c.threads) * cluster().size;
    const double rate = static_cast<double>(rows) / seconds;
    fmt::print("  speed        {} deals/s on {} thread{}{} ({} per thread), {:.2f} s\n", rate_text(rate),
               threads, threads == 1 ? "" : "s",
               cluster().size > 1 ? fmt::format(", {} processes", cluster().size) : "",
               rate_text(rate / threads), seconds);
    print_summary(c, s);
    if (s.sprt) {
      const SprtConfig& t = *c.sprt;
      const SprtResult& r = *s.sprt;
      const std::string undecided = signal ? fmt::format("undecided (stopped by {})", signal_name(signal))
                                           : std::string("undecided (all deals played)");
      fmt::print(
          "  SPRT         elo0 {:g}, elo1 {:g}, alpha {:g}, beta {:g}:"
          " LLR {:.3f}, bounds [{:.3f}, {:.3f}]: {}\n",
          t.elo0, t.elo1, t.alpha, t.beta, r.llr, r.lower, r.upper,
          r.decision > 0   ? "H1 accepted (A is elo1 better)"
          : r.decision < 0 ? "H0 accepted"
                           : undecided.c_str());
    }
    files = {{"summary.json", summary_to_json(c, s)}};
    status = s.status;
  }
  // The rows' file: from memory in one process; from every rank's parts under mpirun.
  const int teams = c.rules.teams;
  const std::string csv_name = games ? "games.csv" : "deals.csv";
  std::vector<std::string> staged;
  const std::string staging = cluster().size > 1 ? cluster_broadcast(out->staging()) : std::string();
  if (cluster().size == 1) {
    files.emplace_back(csv_name, games ? game_rows_to_csv(game_rows, teams) : rows_to_csv(deal_rows, teams));
  } else if (!staging.empty()) {
    const std::string head = games ? game_rows_to_csv({}, teams) : rows_to_csv({}, teams);
    const bool recording = !record_path.empty();
    const std::vector<std::string> parts =
        games ? csv_by_batch(
                    c, game_rows, [](const GameRow& r) { return r.game; },
                    [teams](std::span<const GameRow> r) { return game_rows_to_csv(r, teams); }, recording,
                    head.size())
              : csv_by_batch(
                    c, deal_rows, [](const DealRow& r) { return r.deal; },
                    [teams](std::span<const DealRow> r) { return rows_to_csv(r, teams); }, recording,
                    head.size());
    std::vector<int64_t> sizes;
    for (const std::string& p : parts) sizes.push_back(static_cast<int64_t>(p.size()));
    cluster_concat(staging + "/" + csv_name, head, sizes,
                   [&parts](size_t b, std::string& text) { text = parts[b]; });
    staged.push_back(csv_name);
  }
  if (!writer) return signal ? 128 + signal : 0;
  if (signal)
    fmt::print("  stopped      by {}: the numbers above hold the {} {} that finished\n", signal_name(signal),
               rows, games ? "games" : "deals");
  out->commit(files, status, rows, staged);
  if (!record_path.empty()) fmt::print("  records      {}\n", printable(record_path, 400));
  return signal ? 128 + signal : 0;
}

}  // namespace

void add_sim(CLI::App& app, int& exit_code) {
  struct Options {
    ExperimentConfig c;
    std::string out_dir, record;
    bool duplicate = false;
    AgentSpec side2;
  };
  auto o = std::make_shared<Options>();
  ExperimentConfig& c = o->c;
  c.deals = 200000;
  auto* sub =
      app.add_subcommand("sim", "play many deals with an agent per side, in parallel, with statistics");
  add_agent_option(*sub, "--side0", c.side0,
                   "agent spec of side 0 (seats s with s mod sides = 0: 0 and 2 of four)");
  add_agent_option(*sub, "--side1", c.side1,
                   "agent spec of side 1 (1 and 3 of four; also side 2 without --side2)");
  auto* side2 = add_agent_option(*sub, "--side2", o->side2,
                                 "agent spec of side 2 at a table of three sides (spanish-3p, spanish-6p3)");
  auto* deals = sub->add_option("--deals,-n", c.deals, "number of deals (each played twice in duplicate)")
                    ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
                    ->capture_default_str();
  auto* games = sub->add_option("--games,-g", c.games,
                                "play this many whole games (to the profile's target) instead of deals")
                    ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
                    ->excludes(deals);
  auto* duplicate = sub->add_flag("--duplicate,!--no-duplicate", o->duplicate,
                                  "play every deal twice with the sides swapped (three sides: 3 or 6 times, "
                                  "the agents rotated; default: when the agents differ)");
  add_threads_option(*sub, c.threads);
  add_seed_option(*sub, c.seed, "simulation seed");
  add_profile_option(*sub, c.rules);
  const auto shard_ok = [](std::string_view t) {
    int i = 0, n = 0;
    return parse_shard(t, i, n);
  };
  const auto seat_ok = [](std::string_view t) {
    int seat = 0;
    std::string_view spec;
    return split_seat(t, seat, spec);
  };
  const auto sprt_ok = [](std::string_view t) {
    SprtConfig test;
    return parse_sprt(t, test);
  };
  auto* shard = sub->add_option_function<std::string>(
                       "--shard", [&c](const std::string& text) { parse_shard(text, c.shard, c.shards); },
                       "run only shard i of n (i/n): deal indices k with k mod n = i")
                    ->check(validator(shard_ok, kShardUsage, "I/N"))
                    ->type_name("I/N");
  sub->add_option("--out,-o", o->out_dir,
                  "write summary.json and deals.csv (games.csv with --games) into this directory");
  sub->add_option("--record,-r", o->record,
                  "write every deal's game record (JSON Lines, canasta replay checks it) to this file");
  const auto add_seats = [&c](const std::vector<std::string>& items) {
    for (const std::string& item : items) {
      SeatAgent s;
      std::string_view spec;
      split_seat(item, s.seat, spec);
      s.agent = agent_or_throw("--seat", std::string(spec));
      c.seats.push_back(std::move(s));
    }
  };
  sub->add_option_function<std::vector<std::string>>(
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
  sub->add_option_function<std::string>(
         "--sprt", set_sprt,
         "sequential test: stop as soon as it decides (deals in batches of 1024; "
         "not with --games or --shard)")
      ->check(validator(sprt_ok, kSprtUsage, "ELO0,ELO1[,ALPHA,BETA]"))
      ->type_name("ELO0,ELO1[,ALPHA,BETA]")
      ->excludes(games)
      ->excludes(shard);
  sub->callback([o, duplicate, side2, &exit_code] {
    ExperimentConfig& run = o->c;
    if (side2->count() > 0) run.side2 = o->side2;
    run.duplicate = duplicate->count() > 0 ? o->duplicate
                                           : run.side0 != run.side1 || (run.side2 && *run.side2 != run.side0);
    exit_code = run_sim(run, o->out_dir, o->record);
  });
}

}  // namespace canasta::cli
