// canasta sim: many deals (or whole games) with an agent per side, in
// parallel, with statistics, files and records.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>

#include "../cli.h"
#include "../cluster.h"
#include "canasta/input_file.h"
#include "canasta/parallel.h"
#include "canasta/profile.h"
#include "canasta/results.h"
#include "canasta/runner.h"
#include "canasta/text.h"

namespace canasta::cli {

namespace {

using text::to_number;

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

// A stopped run's directory, to go on from: the positions it played and
// the tally of their rows (run.json, "resume").
struct Resume : Played {
  std::string dir;
};

Resume read_resume(const StoppedRun& run) {
  const std::string& path = run.file;
  const Json& v = run.manifest;
  Resume r;
  r.dir = run.dir;
  const auto bad = [&](const char* what) {
    return InputError{printable(path) + ": bad " + what + " (a run stopped by this version writes it)"};
  };
  if (!v.contains("resume") || !read_done(v["resume"], r.done)) throw bad("resume.done");
  if (!read_tally(v, r.tally)) throw bad("tally");
  return r;
}

// Merges two row files of one run, each in (index, twin) order, into `out`
// (their header once): the rows of a stopped run and of its resumption.
void merge_row_files(const std::string& a, const std::string& b, const std::string& out) {
  LineReader in_a, in_b;
  std::string error;
  if (!in_a.open(a, kMaxRecordLine, "a table of rows", error, Links::kRefuse) ||
      !in_b.open(b, kMaxRecordLine, "a table of rows", error))
    throw InputError{error};
  std::ofstream to(out, std::ios::binary);
  if (!to) throw InputError{"cannot merge the rows into '" + printable(out) + "'"};
  const auto next = [&error](LineReader& in, std::string& line) {
    if (in.next(line, error)) return true;
    if (!error.empty()) throw InputError{error};
    return false;
  };
  std::string line_a, line_b, head;
  next(in_a, head);
  next(in_b, line_b);  // the same header
  to << head << '\n';
  // The (index, twin) a row starts with.
  const auto key = [](const std::string& line) {
    std::pair<int64_t, int64_t> k{-1, -1};
    const size_t comma = line.find(',');
    text::to_number(std::string_view(line).substr(0, comma), k.first);
    if (comma != std::string::npos)
      text::to_number(std::string_view(line).substr(comma + 1, line.find(',', comma + 1) - comma - 1),
                      k.second);
    return k;
  };
  bool have_a = next(in_a, line_a), have_b = next(in_b, line_b);
  while (have_a || have_b) {
    if (have_a && (!have_b || key(line_a) < key(line_b))) {
      to << line_a << '\n';
      have_a = next(in_a, line_a);
    } else {
      to << line_b << '\n';
      have_b = next(in_b, line_b);
    }
  }
  if (!to.flush()) throw InputError{"cannot write '" + printable(out) + "'"};
}

// The index of a deal (or game) row, and the tally of some rows.
int64_t index_of(const DealRow& r) { return r.deal; }
int64_t index_of(const GameRow& r) { return r.game; }
Tally tally_of(std::span<const DealRow> rows, bool duplicate, int sides) {
  return tally(rows, {duplicate, sides});
}
Tally tally_of(std::span<const GameRow> rows, bool duplicate, int sides) {
  return tally_games(rows, {duplicate, sides});
}

// The rows a stopped run kept, checked before they are carried into the
// resumed run's file: rows of this run, in (index, twin) order, of the
// positions it played and no other, each once, whose tally is run.json's.
template <class Row>
void check_stopped_rows(const std::string& path, const Resume& r, const ExperimentConfig& c) {
  LineReader in;
  std::string line, error;
  if (!in.open(path, kMaxRecordLine, "a table of rows", error, Links::kRefuse)) throw InputError{error};
  const auto bad = [&](const std::string& why) {
    return InputError{printable(path) + ":" + std::to_string(in.line_number()) + ": " + why};
  };
  const int sides = c.rules.teams, twins = twin_count(c);
  std::vector<Row> group;  // the rows of one index
  Tally total;
  const auto flush = [&] {
    if (!group.empty() && !total.add_in_range(tally_of(group, c.duplicate, sides)))
      throw bad("the rows add up beyond what a run can hold");
    group.clear();
  };
  size_t range = 0;
  std::pair<int64_t, int> last{-1, -1};
  in.next(line, error);  // the header, which the row files of one version share
  while (in.next(line, error)) {
    Row row;
    if (!row_from_csv(line, row, sides)) throw bad("not a row of this run's table");
    const int64_t k = index_of(row);
    const int64_t position = k >= c.shard && (k - c.shard) % c.shards == 0 ? (k - c.shard) / c.shards : -1;
    while (range < r.done.size() && position >= r.done[range].second) ++range;
    if (position < 0 || range == r.done.size() || position < r.done[range].first || row.swapped < 0 ||
        row.swapped >= twins || std::pair<int64_t, int>{k, row.swapped} <= last)
      throw bad("a row out of order, repeated, or of a deal the stopped run did not play");
    if (k != last.first) flush();
    last = {k, row.swapped};
    group.push_back(row);
  }
  if (!error.empty()) throw InputError{error};
  flush();
  const Tally mine = total.normalized(), theirs = r.tally.normalized();
  if (!std::ranges::equal(mine.words(), theirs.words()))
    throw InputError{printable(path) + ": not the rows whose tally run.json holds"};
}

// The lines of a record file (a stopped run's records, to continue them:
// read and written in place, so never through a link).
int64_t count_lines(const std::string& path) {
  LineReader in;
  std::string line, error;
  if (!in.open(path, kMaxRecordLine, "a record file", error, Links::kRefuse)) throw InputError{error};
  while (in.next(line, error)) {
  }
  if (!error.empty()) throw InputError{error};
  return in.line_number();
}

// Appends a file's bytes to `to` (a stopped run's records, before the new ones).
void copy_into(const std::string& path, StreamFile& to) {
  std::string error;
  const int fd = open_input_file(path, kNoSizeCap, "a record file", error, Links::kRefuse);
  if (fd < 0) throw InputError{error};
  std::string block(1 << 20, '\0');
  ssize_t n = 0;
  while ((n = ::read(fd, block.data(), block.size())) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) to.write(std::string_view(block.data(), static_cast<size_t>(n)));
  ::close(fd);
  if (n < 0) throw InputError{"cannot read '" + printable(path) + "'"};
}

struct SimFiles {
  std::string out_dir, record;
  bool rows = true;  // deals.csv / games.csv beside summary.json
};

// Runs deals or, with c.games, whole games, with a progress line, the
// signals and the files; prints the summary and puts the files in place.
// The rows and records stream to their files as the run goes (under mpirun
// every rank its own parts, put together at the end); the summary comes
// from the integer tally of the rows, summed over the ranks and, when the
// run resumes a stopped one, with that one's.
int run_sim(const ExperimentConfig& c, const SimFiles& f, const Resume* resume) {
  const bool games = c.games > 0;
  // From here to the end, a first SIGINT, SIGTERM or SIGHUP stops the run and
  // keeps what finished (during the final write too); a second one ends at once.
  StopOnSignals signals;
  std::string error;
  if (!check_config(c, error)) throw InputError{error};
  check_distinct_files({{"--record", f.record}}, files_read(c), {{"--out", f.out_dir}});
  const bool writer = cluster().rank == 0;  // rank 0 prints and puts the files in place
  const int teams = c.rules.teams;
  const int64_t count = shard_size(games ? c.games : c.deals, c);
  const int twins = twin_count(c);
  const std::string csv_name = games ? "games.csv" : "deals.csv";
  const bool continue_records = resume && !f.record.empty() && !resume->done.empty();
  if (resume && cluster().size > 1 && !f.record.empty())
    throw InputError{"a run with records resumes in one process (without mpirun)"};
  if (continue_records) {
    // The stopped run's records hold every deal of its positions, the first ones.
    if (resume->done.size() != 1 || resume->done[0].first != 0)
      throw InputError{"the records of '" + printable(resume->dir) + "' do not end where its rows do"};
    const int64_t want = games ? resume->tally.counts.deals : ranges_size(resume->done) * twins;
    if (count_lines(f.record) != want)
      throw InputError{"'" + printable(f.record) + "' is not the stopped run's records (" +
                       std::to_string(want) + " lines expected)"};
  }
  // Made before any deal is played, on every rank: a bad place is refused.
  std::optional<OutDir> out;
  std::optional<StreamFile> records, rows_file;
  on_every_rank([&] {
    out.emplace(writer ? f.out_dir : std::string());
    records.emplace(f.record);
  });
  const std::string staging = cluster().size > 1 ? cluster_broadcast(out->staging()) : out->staging();
  const bool keep_rows = f.rows && !f.out_dir.empty();
  on_every_rank([&] {
    if (keep_rows)
      rows_file.emplace(staging + "/" + csv_name,
                        games ? game_rows_to_csv({}, teams) : rows_to_csv({}, teams));
  });
  // The new records follow the old ones in the same temporary file.
  if (continue_records) copy_into(f.record, *records);
  Progress progress((count - (resume ? ranges_size(resume->done) : 0)) * twins, games ? "games" : "deals");
  Tally tallied;
  RunOutcome outcome;
  outcome.tally = &tallied;
  bool ok = false;
  {
    RunHooks hooks;
    hooks.stop = &stop_requested();
    // Rank 0 shows the run's progress from its own share of it.
    hooks.progress = [&progress](int64_t done) { progress(done * cluster().size); };
    hooks.records = records->sink();
    std::string text;  // the rows' lines, reused
    if (keep_rows && games)
      hooks.game_rows = [&](std::span<const GameRow> r) {
        text.clear();
        append_game_rows_csv(text, r, teams);
        rows_file->write(text);
      };
    else if (keep_rows)
      hooks.deal_rows = [&](std::span<const DealRow> r) {
        text.clear();
        append_rows_csv(text, r, teams);
        rows_file->write(text);
      };
    hooks.batch_end = [&] {
      records->end_batch();
      if (rows_file) rows_file->end_batch();
    };
    hooks.processes = cluster_processes();
    if (resume) {
      hooks.done = resume->done;
      hooks.done_tally = &resume->tally;
    }
    try {
      ok = games ? stream_games(c, outcome, error, hooks) : stream_deals(c, outcome, error, hooks);
    } catch (const std::exception& e) {
      // Another rank waits for this one: end them all, naming this one.
      if (cluster().size > 1) cluster_abort(e.what(), 1);
      throw;
    }
  }
  const double seconds = progress.seconds();
  progress.clear();
  if (!ok) throw InputError{error};
  records->finish();
  if (rows_file) rows_file->finish();
  cluster_processes().add_up(tallied.words());
  const int64_t played = tallied.rows;
  if (resume && !tallied.add_in_range(resume->tally))
    throw InputError{"the stopped run's tally and the new rows add up beyond what a run can hold"};
  const std::string shard_note =
      c.shards > 1 ? ", shard " + std::to_string(c.shard) + "/" + std::to_string(c.shards) : "";
  fmt::print("canasta sim: {} against {}{}{}, profile {}, seed {}{}\n", c.side0.to_string(),
             c.side1.to_string(), c.side2 ? " and " + c.side2->to_string() : "", games ? ", whole games" : "",
             profile_spec(c.rules), c.seed, shard_note);
  for (const SeatAgent& s : c.seats) fmt::print("  seat {} plays {}\n", s.seat, s.agent.to_string());
  if (resume)
    fmt::print("  resumed      {} {} played before, {} now\n", tallied.rows - played,
               games ? "games" : "deals", played);
  const int signal = stop_signal();
  const int64_t rows = tallied.rows;
  std::vector<std::pair<std::string, std::string>> files;
  std::string status;
  const int threads = resolve_threads(c.threads) * cluster().size;
  const double rate = static_cast<double>(played) / std::max(seconds, 1e-9);
  if (games) {
    const GameSummary s = summarize_games(tallied, c);
    fmt::print("  speed        {} games/s on {} thread{} ({} per thread), {:.2f} s\n", rate_text(rate),
               threads, threads == 1 ? "" : "s", rate_text(rate / threads), seconds);
    print_game_summary(c, s);
    files = {{"summary.json", game_summary_to_json(c, s)}};
    status = s.status;
  } else {
    const Summary s = summarize(tallied, c);
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
  if (!writer) return signal ? 128 + signal : 0;
  std::vector<std::string> staged;
  if (keep_rows) {
    // A resumed run's rows: the stopped run's and the new ones, in order.
    if (resume && std::filesystem::exists(resume->dir + "/" + csv_name)) {
      const std::string fresh = staging + "/" + csv_name;
      merge_row_files(resume->dir + "/" + csv_name, fresh, fresh + ".merged");
      std::filesystem::rename(fresh + ".merged", fresh);
    }
    staged.push_back(csv_name);
  }
  if (signal)
    fmt::print("  stopped      by {}: the numbers above hold the {} {} that finished\n", signal_name(signal),
               rows, games ? "games" : "deals");
  // The tally of the rows (merge reads it where no rows were kept), and in
  // a partial run what it played, to be resumed (canasta sim --resume).
  const auto more = [&](JsonWriter& w) {
    write_tally(w, tallied);
    if (status != "partial") return;
    w.key("resume").begin_object();
    write_done(w, outcome.done);
    w.end_object();
  };
  out->commit(files, status, rows, staged, more);
  if (!f.record.empty()) fmt::print("  records      {}\n", printable(f.record, 400));
  if (status == "partial" && out->wanted())
    fmt::print("  resume       canasta sim --resume {}{}\n", printable(f.out_dir, 400),
               f.record.empty() ? "" : " --record " + printable(f.record, 400));
  return signal ? 128 + signal : 0;
}

}  // namespace

namespace {

// The options of `canasta sim`, read into `o`; `finish` sets what follows
// from them once parsed (the duplicate default, side 2).
struct SimOptions {
  ExperimentConfig c;
  SimFiles files;
  std::string rows = "all", resume;
  bool duplicate = false;
  AgentSpec side2;
  CLI::Option *duplicate_option = nullptr, *side2_option = nullptr;

  void finish() {
    if (side2_option->count() > 0) c.side2 = side2;
    c.duplicate = duplicate_option->count() > 0 ? duplicate : sides_differ(c);
    files.rows = rows == "all";
  }
};

void add_sim_options(CLI::App& sub, SimOptions& o) {
  ExperimentConfig& c = o.c;
  c.deals = 200000;
  add_agent_option(sub, "--side0", c.side0,
                   "agent spec of side 0 (seats s with s mod sides = 0: 0 and 2 of four)");
  add_agent_option(sub, "--side1", c.side1,
                   "agent spec of side 1 (1 and 3 of four; also side 2 without --side2)");
  o.side2_option = add_agent_option(
      sub, "--side2", o.side2, "agent spec of side 2 at a table of three sides (spanish-3p, spanish-6p3)");
  auto* deals = sub.add_option("--deals,-n", c.deals, "number of deals (each played twice in duplicate)")
                    ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
                    ->capture_default_str();
  auto* games = sub.add_option("--games,-g", c.games,
                               "play this many whole games (to the profile's target) instead of deals")
                    ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
                    ->excludes(deals);
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
  const auto seat_ok = [](std::string_view t) {
    int seat = 0;
    std::string_view spec;
    return split_seat(t, seat, spec);
  };
  const auto sprt_ok = [](std::string_view t) {
    SprtConfig test;
    return parse_sprt(t, test);
  };
  auto* shard = sub.add_option_function<std::string>(
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
      ->type_name("ELO0,ELO1[,ALPHA,BETA]")
      ->excludes(games)
      ->excludes(shard);
}

// `canasta sim --resume DIR [--threads N]`: the stopped run's command, read
// again, with DIR as its output directory.
int resume_sim(const std::string& dir, const CLI::Option* threads_option, int threads,
               const std::string& record_now) {
  const StoppedRun run = read_stopped_run(dir, "sim");
  const Resume r = read_resume(run);
  const std::string& clean = run.dir;
  CLI::App app;
  auto* sub = app.add_subcommand("sim");
  SimOptions o;
  add_sim_options(*sub, o);
  parse_stopped_command(app, run, threads_option, threads);
  o.finish();
  // The files go where the run now is, and the records where the user says
  // now; the summary must be the same run's.
  o.files.out_dir = clean;
  o.files.record = output_named_now(run, "--record", o.files.record, record_now);
  ExperimentConfig stored;
  std::string error;
  const std::string summary = read_file(clean + "/summary.json", kMaxSummaryFile, "a run's summary");
  if (!config_from_json(summary, stored, error))
    throw InputError{printable(clean) + "/summary.json: " + error};
  if (o.c.games > 0) stored.deals = o.c.deals;  // a games run's summary names no deal count
  if (!same_run(stored, o.c) || stored.shard != o.c.shard)
    throw InputError{printable(clean) + ": summary.json and run.json describe different runs"};
  const int64_t count = shard_size(o.c.games > 0 ? o.c.games : o.c.deals, o.c);
  for (const auto& [b, e] : r.done)
    if (b < 0 || e > count || b >= e) throw InputError{printable(clean) + "/run.json: bad resume.done"};
  // The tally goes on into the final summary: it must be that of the rows
  // played, whose summary the stopped run wrote (as merge checks a shard).
  const bool games = o.c.games > 0;
  if (r.tally.rows != ranges_size(r.done) * twin_count(o.c) ||
      (games ? game_summary_to_json(o.c, summarize_games(r.tally, o.c))
             : summary_to_json(o.c, summarize(r.tally, o.c))) != summary)
    throw InputError{printable(clean) +
                     ": run.json's tally and resume.done and summary.json do not belong to one run"};
  // The stopped run's rows, carried into the resumed run's file: listed in
  // run.json (checked there) and checked row by row.
  const std::string csv = clean + (games ? "/games.csv" : "/deals.csv");
  std::error_code ec;
  if (std::filesystem::symlink_status(csv, ec).type() != std::filesystem::file_type::not_found) {
    if (!lists_file(run.manifest, games ? "games.csv" : "deals.csv"))
      throw InputError{printable(csv) + ": a file run.json does not list"};
    games ? check_stopped_rows<GameRow>(csv, r, o.c) : check_stopped_rows<DealRow>(csv, r, o.c);
  }
  return run_sim(o.c, o.files, &r);
}

}  // namespace

void add_sim(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<SimOptions>();
  auto* sub =
      app.add_subcommand("sim", "play many deals with an agent per side, in parallel, with statistics");
  add_sim_options(*sub, *o);
  sub->add_option("--resume", o->resume,
                  "go on with the run stopped in this directory (by a signal) to its end, as its command "
                  "said; with --threads at most, and --record FILE where the run kept records (its "
                  "records, to go on with)");
  sub->callback([o, sub, &exit_code] {
    const auto resume = [&](const std::string& dir, const CLI::Option* t) {
      return resume_sim(dir, t, o->c.threads, o->files.record);
    };
    if (resumed(*sub, o->resume, exit_code, resume, {"--record"})) return;
    o->finish();
    exit_code = run_sim(o->c, o->files, nullptr);
  });
}

}  // namespace canasta::cli
