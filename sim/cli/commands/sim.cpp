// canasta sim: many deals (or whole games) with an agent per side, in
// parallel, with statistics, files and records.
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <span>

#include "../cli.h"
#include "../cluster.h"
#include "canasta/cli/sim_options.h"
#include "canasta/parallel.h"
#include "canasta/profile.h"
#include "canasta/results.h"
#include "canasta/runner.h"

namespace canasta::cli {

namespace {

// Plays the run, its rows and records streaming into their files (when
// wanted) as it goes; false with `error` where the library refuses it.
bool play(const ExperimentConfig& c, const SimResume* resume, StreamFile& records, StreamFile* rows,
          Progress& progress, RunOutcome& outcome, std::string& error) {
  RunHooks hooks;
  hooks.stop = &stop_requested();
  // Rank 0 shows the run's progress from its own share of it.
  hooks.progress = [&progress](int64_t done) { progress(done * cluster().size); };
  hooks.records = records.sink();
  std::string text;  // the rows' lines, reused
  const int teams = c.rules.teams;
  if (rows && c.games > 0)
    hooks.game_rows = [&](std::span<const GameRow> r) {
      text.clear();
      append_game_rows_csv(text, r, teams);
      rows->write(text);
    };
  else if (rows)
    hooks.deal_rows = [&](std::span<const DealRow> r) {
      text.clear();
      append_rows_csv(text, r, teams);
      rows->write(text);
    };
  hooks.batch_end = [&] {
    records.end_batch();
    if (rows) rows->end_batch();
  };
  hooks.processes = cluster_processes();
  if (resume) {
    hooks.done = resume->done;
    hooks.done_tally = &resume->tally;
  }
  try {
    return c.games > 0 ? stream_games(c, outcome, error, hooks) : stream_deals(c, outcome, error, hooks);
  } catch (const std::exception& e) {
    // Another rank waits for this one: end them all, naming this one.
    if (cluster().size > 1) cluster_abort(e.what(), 1);
    throw;
  }
}

void print_sprt(const SprtConfig& t, const SprtResult& r) {
  const int signal = stop_signal();
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

// Prints the run, its speed and its summary from the tally of its rows
// (`played` of them now, the others before it was stopped); returns
// summary.json and the run's status.
std::pair<std::string, std::string> print_run(const ExperimentConfig& c, const Tally& t, bool resumed,
                                              int64_t played, double seconds) {
  const bool games = c.games > 0;
  const std::string shard_note =
      c.shards > 1 ? ", shard " + std::to_string(c.shard) + "/" + std::to_string(c.shards) : "";
  fmt::print("canasta sim: {} against {}{}{}, profile {}, seed {}{}\n", c.side0.to_string(),
             c.side1.to_string(), c.side2 ? " and " + c.side2->to_string() : "", games ? ", whole games" : "",
             profile_spec(c.rules), c.seed, shard_note);
  for (const SeatAgent& s : c.seats) fmt::print("  seat {} plays {}\n", s.seat, s.agent.to_string());
  if (resumed)
    fmt::print("  resumed      {} {} played before, {} now\n", t.rows - played, games ? "games" : "deals",
               played);
  const int threads = resolve_threads(c.threads) * cluster().size;
  const double rate = static_cast<double>(played) / std::max(seconds, 1e-9);
  if (games) {
    const GameSummary s = summarize_games(t, c);
    fmt::print("  speed        {} games/s on {} thread{} ({} per thread), {:.2f} s\n", rate_text(rate),
               threads, threads == 1 ? "" : "s", rate_text(rate / threads), seconds);
    print_game_summary(c, s);
    return {game_summary_to_json(c, s), std::string(s.status)};
  }
  const Summary s = summarize(t, c);
  fmt::print("  speed        {} deals/s on {} thread{}{} ({} per thread), {:.2f} s\n", rate_text(rate),
             threads, threads == 1 ? "" : "s",
             cluster().size > 1 ? fmt::format(", {} processes", cluster().size) : "",
             rate_text(rate / threads), seconds);
  print_summary(c, s);
  if (s.sprt) print_sprt(*c.sprt, *s.sprt);
  return {summary_to_json(c, s), std::string(s.status)};
}

// Runs deals or, with c.games, whole games, with a progress line, the
// signals and the files; prints the summary and puts the files in place.
// The rows and records stream to their files as the run goes (under mpirun
// every rank its own parts, put together at the end); the summary comes
// from the integer tally of the rows, summed over the ranks and, when the
// run resumes a stopped one, with that one's.
int run_sim(const ExperimentConfig& c, const SimFiles& f, const SimResume* resume) {
  // From here to the end, a first SIGINT, SIGTERM or SIGHUP stops the run and
  // keeps what finished (during the final write too); a second one ends at once.
  StopOnSignals signals;
  std::string error;
  if (!check_config(c, error)) throw InputError{error};
  check_distinct_files({{"--record", f.record}}, files_read(c), {{"--out", f.out_dir}});
  const bool writer = cluster().rank == 0;  // rank 0 prints and puts the files in place
  const std::string csv_name = rows_file_name(c);
  const bool continue_records = resume && !f.record.empty() && !resume->done.empty();
  if (resume && cluster().size > 1 && !f.record.empty())
    throw InputError{"a run with records resumes in one process (without mpirun)"};
  if (continue_records) check_stopped_records(*resume, f.record, c);
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
                        c.games > 0 ? game_rows_to_csv({}, c.rules.teams) : rows_to_csv({}, c.rules.teams));
  });
  // The new records follow the old ones in the same temporary file.
  if (continue_records) copy_file(f.record, [&](std::string_view text) { records->write(text); });
  const int64_t count = shard_size(c.games > 0 ? c.games : c.deals, c);
  Progress progress((count - (resume ? ranges_size(resume->done) : 0)) * twin_count(c),
                    c.games > 0 ? "games" : "deals");
  Tally tallied;
  RunOutcome outcome;
  outcome.tally = &tallied;
  const bool ok = play(c, resume, *records, rows_file ? &*rows_file : nullptr, progress, outcome, error);
  const double seconds = progress.seconds();
  progress.clear();
  if (!ok) throw InputError{error};
  records->finish();
  if (rows_file) rows_file->finish();
  cluster_processes().add_up(tallied.words());
  const int64_t played = tallied.rows;
  if (resume && !tallied.add_in_range(resume->tally))
    throw InputError{"the stopped run's tally and the new rows add up beyond what a run can hold"};
  const auto [summary, status] = print_run(c, tallied, resume != nullptr, played, seconds);
  const int signal = stop_signal();
  if (!writer) return signal ? 128 + signal : 0;
  std::vector<std::string> staged;
  if (keep_rows) {
    // A resumed run's rows: the stopped run's and the new ones, in order.
    if (resume) merge_stopped_rows(*resume, staging + "/" + csv_name, csv_name);
    staged.push_back(csv_name);
  }
  if (signal)
    fmt::print("  stopped      by {}: the numbers above hold the {} {} that finished\n", signal_name(signal),
               tallied.rows, c.games > 0 ? "games" : "deals");
  // The tally of the rows, and in a partial run what it played, to be
  // resumed (canasta sim --resume).
  out->commit({{"summary.json", summary}}, status, tallied.rows, staged,
              [&, status = status](JsonWriter& w) { write_sim_state(w, tallied, status, outcome.done); });
  if (!f.record.empty()) fmt::print("  records      {}\n", printable(f.record, 400));
  if (status == "partial" && out->wanted())
    fmt::print("  resume       canasta sim --resume {}{}\n", printable(f.out_dir, 400),
               f.record.empty() ? "" : " --record " + printable(f.record, 400));
  return signal ? 128 + signal : 0;
}

// `canasta sim --resume DIR [--threads N] [--record FILE]`: the stopped
// run's command, read again, with DIR as its output directory.
int resume_sim(const std::string& dir, std::optional<int> threads, const std::string& record_now) {
  const StoppedRun run = read_stopped_run(dir, "sim");
  const SimResume r = read_sim_resume(run);
  SimOptions o = stopped_sim_options(run, threads);
  command_line() = run.command;  // run.json keeps the run's own command, to be resumed again
  // The records go where the user says now; the summary must be the same run's.
  o.files.record = output_named_now(run, "--record", o.files.record, record_now);
  check_sim_resume(run, r, o.c);
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
    const auto resume = [&](const std::string& dir, std::optional<int> threads) {
      return resume_sim(dir, threads, o->files.record);
    };
    if (resumed(*sub, o->resume, o->c.threads, exit_code, resume, {"--record"})) return;
    o->finish();
    exit_code = run_sim(o->c, o->files, nullptr);
  });
}

}  // namespace canasta::cli
