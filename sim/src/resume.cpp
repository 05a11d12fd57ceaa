#include "canasta/resume.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <span>

#include "canasta/files.h"
#include "canasta/input_file.h"
#include "canasta/params.h"
#include "canasta/results.h"
#include "canasta/run_folder.h"
#include "canasta/text.h"

namespace canasta {

StoppedRun read_stopped_run(const std::string& dir, const std::string& subcommand) {
  StoppedRun r;
  r.dir = dir;
  while (r.dir.size() > 1 && r.dir.back() == '/') r.dir.pop_back();
  r.file = r.dir + "/run.json";
  const std::string& path = r.file;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError{"'" + printable(r.dir) + "' is not a run directory (no run.json)"};
  std::string error;
  if (!parse_json(read_file(path, kMaxJsonFile, "a run manifest"), r.manifest, error) ||
      !r.manifest.is_object() || r.manifest.value("format", "") != "canasta-run/1")
    throw InputError{printable(path) + ": not a run manifest" + (error.empty() ? "" : ": " + error)};
  const Json& v = r.manifest;
  if (!read_command(v, r.command) || r.command.size() < 2 || r.command[1] != subcommand)
    throw InputError{printable(path) + ": not the directory of a canasta " + subcommand + " run"};
  const std::string status = v.value("status", "");
  if (status != "partial")
    throw InputError{printable(r.dir) + ": the run is " + (status.empty() ? "of unknown status" : status) +
                     ", there is nothing to resume"};
  if (!v.contains("files") || !v["files"].is_array()) throw InputError{printable(path) + ": bad file list"};
  check_listed_files(r.dir, v);
  return r;
}

std::string output_named_now(const StoppedRun& run, const std::string& option, const std::string& stored,
                             const std::string& given) {
  if (!given.empty() || stored.empty()) return given;
  throw InputError{printable(run.file) + ": the stopped run wrote " + option + " '" + printable(stored) +
                   "'; a stored command does not choose where the program writes: resume with " + option +
                   " FILE to name that file yourself"};
}

namespace {

// The index of a deal (or game) row, and the tally of some rows.
int64_t index_of(const DealRow& r) { return r.deal; }
int64_t index_of(const GameRow& r) { return r.game; }
Tally tally_of(std::span<const DealRow> rows, RunShape shape) { return tally(rows, shape); }
Tally tally_of(std::span<const GameRow> rows, RunShape shape) { return tally_games(rows, shape); }

template <class Row>
void check_rows(const std::string& path, const SimResume& r, const ExperimentConfig& c) {
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
    if (!group.empty() && !total.add_in_range(tally_of(group, RunShape::of(c))))
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

}  // namespace

SimResume read_sim_resume(const StoppedRun& run) {
  const std::string& path = run.file;
  const Json& v = run.manifest;
  SimResume r;
  r.dir = run.dir;
  const auto bad = [&](const char* what) {
    return InputError{printable(path) + ": bad " + what + " (a run stopped by this version writes it)"};
  };
  if (!v.contains("resume") || !read_done(v["resume"], r.done)) throw bad("resume.done");
  if (!read_tally(v, r.tally)) throw bad("tally");
  return r;
}

void write_sim_state(JsonWriter& w, const Tally& t, std::string_view status, const Ranges& done) {
  write_tally(w, t);
  if (status != "partial") return;
  w.key("resume").begin_object();
  write_done(w, done);
  w.end_object();
}

void check_stopped_rows(const std::string& path, const SimResume& r, const ExperimentConfig& c) {
  c.games > 0 ? check_rows<GameRow>(path, r, c) : check_rows<DealRow>(path, r, c);
}

void check_sim_resume(const StoppedRun& run, const SimResume& r, const ExperimentConfig& c) {
  const std::string& dir = run.dir;
  // The summary must be the same run's.
  ExperimentConfig stored;
  std::string error;
  const std::string summary = read_file(dir + "/summary.json", kMaxSummaryFile, "a run's summary");
  if (!config_from_json(summary, stored, error)) throw InputError{printable(dir) + "/summary.json: " + error};
  const bool games = c.games > 0;
  if (games) stored.deals = c.deals;  // a games run's summary names no deal count
  if (!same_run(stored, c) || stored.shard != c.shard)
    throw InputError{printable(dir) + ": summary.json and run.json describe different runs"};
  const int64_t count = shard_size(games ? c.games : c.deals, c);
  for (const auto& [b, e] : r.done)
    if (b < 0 || e > count || b >= e) throw InputError{printable(dir) + "/run.json: bad resume.done"};
  // The tally goes on into the final summary: it must be that of the rows
  // played, whose summary the stopped run wrote (as merge checks a shard).
  if (r.tally.rows != ranges_size(r.done) * twin_count(c) ||
      (games ? game_summary_to_json(c, summarize_games(r.tally, c))
             : summary_to_json(c, summarize(r.tally, c))) != summary)
    throw InputError{printable(dir) +
                     ": run.json's tally and resume.done and summary.json do not belong to one run"};
  // The stopped run's rows, carried into the resumed run's file: listed in
  // run.json (checked there) and checked row by row.
  const std::string csv = dir + "/" + rows_file_name(c);
  std::error_code ec;
  if (std::filesystem::symlink_status(csv, ec).type() != std::filesystem::file_type::not_found) {
    if (!lists_file(run.manifest, rows_file_name(c)))
      throw InputError{printable(csv) + ": a file run.json does not list"};
    check_stopped_rows(csv, r, c);
  }
}

namespace {

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

}  // namespace

void check_stopped_records(const SimResume& r, const std::string& record, const ExperimentConfig& c) {
  // The stopped run's records hold every deal of its positions, the first ones.
  if (r.done.size() != 1 || r.done[0].first != 0)
    throw InputError{"the records of '" + printable(r.dir) + "' do not end where its rows do"};
  const int64_t want = c.games > 0 ? r.tally.counts.deals : ranges_size(r.done) * twin_count(c);
  if (count_lines(record) != want)
    throw InputError{"'" + printable(record) + "' is not the stopped run's records (" + std::to_string(want) +
                     " lines expected)"};
}

void copy_file(const std::string& path, const std::function<void(std::string_view)>& write) {
  std::string error;
  const int fd = open_input_file(path, kNoSizeCap, "a record file", error, Links::kRefuse);
  if (fd < 0) throw InputError{error};
  std::string block(1 << 20, '\0');
  ssize_t n = 0;
  while ((n = ::read(fd, block.data(), block.size())) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) write(std::string_view(block.data(), static_cast<size_t>(n)));
  ::close(fd);
  if (n < 0) throw InputError{"cannot read '" + printable(path) + "'"};
}

namespace {

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

}  // namespace

void merge_stopped_rows(const SimResume& r, const std::string& fresh, const std::string& name) {
  if (!std::filesystem::exists(r.dir + "/" + name)) return;
  merge_row_files(r.dir + "/" + name, fresh, fresh + ".merged");
  std::filesystem::rename(fresh + ".merged", fresh);
}

}  // namespace canasta
