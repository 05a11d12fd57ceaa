// The canasta program: the pieces its subcommands share. Each subcommand
// lives in commands/<name>.cpp as one thin function over the libraries; the
// options it reads are parsed there, once, into the structs the libraries take.
#pragma once

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "canasta/agent.h"
#include "canasta/cli/checks.h"
#include "canasta/experiment.h"
#include "canasta/json.h"
#include "canasta/rules.h"
#include "canasta/stats.h"
#include "program.h"

namespace canasta::cli {

constexpr int kDisagree = 1;  // a record disagrees with the engine
constexpr int kBadInput = 2;  // bad input: one line on stderr
// Stopped by a signal: 128 + its number (130 for Ctrl-C); what finished is kept.

// An error the user caused: one line on stderr, exit code 2.
struct InputError {
  std::string message;
};

// Each subcommand adds itself to `app`; its callback runs the command and
// sets `exit_code`.
void add_deal(CLI::App& app, int& exit_code);
void add_play(CLI::App& app, int& exit_code);
void add_agents(CLI::App& app, int& exit_code);
void add_replay(CLI::App& app, int& exit_code);
void add_show(CLI::App& app, int& exit_code);
void add_sim(CLI::App& app, int& exit_code);
void add_merge(CLI::App& app, int& exit_code);
void add_tune(CLI::App& app, int& exit_code);
void add_tournament(CLI::App& app, int& exit_code);
void add_rules(CLI::App& app, int& exit_code);
void add_selfplay(CLI::App& app, int& exit_code);
void add_train(CLI::App& app, int& exit_code);

// Options shared by subcommands; each parses its text once, into `out`.
CLI::Option* add_profile_option(CLI::App& sub, Rules& out);
CLI::Option* add_agent_option(CLI::App& sub, const std::string& name, AgentSpec& out,
                              const std::string& help);
CLI::Option* add_seed_option(CLI::App& sub, uint64_t& seed, const std::string& help);
CLI::Option* add_threads_option(CLI::App& sub, int& threads);
// An agent spec as --side0 or --seat takes it; throws CLI::ValidationError.
AgentSpec agent_or_throw(const std::string& option, const std::string& text);

// A rate for the printouts: whole numbers from 100 up, three significant
// figures below (a search at 0.27 deals/s does not print as 0).
std::string rate_text(double per_second);

// For the options that name a file or a folder: an empty name is refused
// (it would silently mean none).
inline CLI::Validator named() {
  return CLI::Validator(
      [](const std::string& s) { return s.empty() ? std::string("an empty name") : std::string(); }, "");
}

// Files: written under a temporary name and renamed when complete.
void write_atomically(const std::string& path, const std::string& text);
// Where an output file named `path` goes: through a symbolic link to the
// file it names (the link stays), and never over what is not a regular
// file (a directory, a device, a pipe), which a rename would replace: that
// throws InputError. The folders it goes in are made when missing.
std::string output_file(const std::string& path);
// Refuses an input path that names a folder (a stream opens one, then fails
// to read it with a library's message).
void check_not_folder(const std::string& path);
// A command's files, each with the option (or argument) that names it:
// checked before any work that no output is an input or another output (the
// same file by any name: links followed) and that no file lies inside an
// output directory (a run directory is replaced as a whole). Empty paths are
// none.
struct NamedPath {
  std::string option, path;
};
void check_distinct_files(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs,
                          const std::vector<NamedPath>& output_dirs = {});
// The files the agents of `specs` read (a value model's eval=), as inputs of
// check_distinct_files.
std::vector<NamedPath> files_read(const std::vector<const AgentSpec*>& specs);
// ... of a run's sides and seats.
std::vector<NamedPath> files_read(const ExperimentConfig& c);
// Checks before any work that `path` (given with `option`; empty: none)
// can be written: a regular file or none, in a folder that exists (made
// when missing) and can be written in.
void check_output_file(const std::string& option, const std::string& path);
// Removes the temporaries that programs no longer running left beside
// `path` (PATH.tmpPID, PATH.tmpPID.partR: a program ended by a second
// signal has no time to); write_atomically, OutDir and StreamFile call it.
void remove_stale_temporaries(const std::string& path);
// The whole of a file of a run folder or a resume state: a regular file, not
// a link (the program never writes one there), of at most `max_bytes`, else
// InputError naming it and `what` it should be.
std::string read_file(const std::string& path, uint64_t max_bytes, std::string_view what);

// Set by SIGINT (Ctrl-C), SIGTERM or SIGHUP while StopOnSignals lives: the
// run stops and keeps every row that finished. A second signal ends the
// program at once.
std::atomic<bool>& stop_requested();
int stop_signal();  // the signal that stopped the run, or 0
const char* signal_name(int signal);
struct StopOnSignals {
  StopOnSignals();
  ~StopOnSignals();
};

// An output directory written as one unit: the files go to a temporary
// directory beside it, which then takes its place in one rename, so that a
// reader finds all the files of one run or none. Made before the run, so
// that a place that cannot be written is refused before any deal is played;
// a directory that holds other files than a run's is refused too.
class OutDir {
 public:
  explicit OutDir(std::string dir);  // an empty path: no directory
  ~OutDir();
  OutDir(const OutDir&) = delete;
  OutDir& operator=(const OutDir&) = delete;
  bool wanted() const { return !dir_.empty(); }
  // The temporary directory, where files may be written before commit().
  const std::string& staging() const { return tmp_; }
  // Writes the files and run.json (`manifest` fields around the files' list,
  // then what `more` writes), then puts the directory in place and lists the
  // files. `staged` names files already written into staging(), listed
  // after `files`.
  void commit(const std::vector<std::pair<std::string, std::string>>& files, const std::string& status,
              int64_t rows, const std::vector<std::string>& staged = {},
              const std::function<void(JsonWriter&)>& more = {});

 private:
  std::string dir_, tmp_;
};

// run.json's "tally": the integer tally of the run's rows (canasta/stats.h),
// word by word; read_tally takes it from a parsed run.json (false where it
// is missing, malformed or beyond what a run can hold: Tally::in_range).
void write_tally(JsonWriter& w, const Tally& t);
bool read_tally(const Json& run, Tally& t);
// "done": the positions a stopped run played, as [first, next) pairs, in
// the object being written or read; read_done is false where it is missing
// or malformed, or where the ranges are not in order and apart within
// [0, 2^40].
void write_done(JsonWriter& w, const Ranges& done);
bool read_done(const Json& object, Ranges& done);
// "command": the arguments a run was given, the program's name first; false
// where one is not plain text (params.h).
bool read_command(const Json& object, std::vector<std::string>& command);

// A run stopped by a signal, to be resumed: its directory's run.json,
// checked to be the partial run of `subcommand` written by this version,
// and the command it ran (canasta SUBCOMMAND ...). Throws InputError.
struct StoppedRun {
  std::string dir;   // without a trailing slash
  std::string file;  // where the manifest was read (DIR/run.json), for messages
  Json manifest;
  std::vector<std::string> command;
};
StoppedRun read_stopped_run(const std::string& dir, const std::string& subcommand);
// Parses a stopped run's command again with `app`, a bare app with the
// subcommand and its options, the thread count given now (when
// `threads_option` was given) in place of the run's; `command_line()` keeps
// the run's own, to be resumed again.
void parse_stopped_command(CLI::App& app, const StoppedRun& run, const CLI::Option* threads_option,
                           int threads);
// With --resume PATH given to `sub` (sim, tournament, tune): refuses any
// other option but --threads and those named in `also` (the files a resumed
// run may write, named anew), runs `resume(PATH, threads option)` into
// `exit_code` and returns true; without it returns false.
bool resumed(const CLI::App& sub, const std::string& path, int& exit_code,
             const std::function<int(const std::string&, const CLI::Option*)>& resume,
             const std::vector<std::string>& also = {});
// A file a stopped run's command wrote to (`stored`, with `option`): a
// stored command is data, and does not choose where this program writes.
// The path given now with the resuming command (`given`) is used; a stored
// one is refused with the way to go on, unless none was stored.
std::string output_named_now(const StoppedRun& run, const std::string& option, const std::string& stored,
                             const std::string& given);

// FNV-1a, 64 bits: run.json ties the files beside it to itself with it.
// `h` continues the hash of the text before.
constexpr uint64_t kFnvStart = 0xcbf29ce484222325ULL;
uint64_t fnv1a(std::string_view text, uint64_t h = kFnvStart);
// A file's size and FNV-1a, read a block at a time; size -1, with `error`,
// when it cannot be read or is not a regular file (a link is refused). With
// `expected` >= 0, a file of another size is not read: its size and 0.
std::pair<int64_t, uint64_t> file_checksum(const std::string& path, int64_t expected, std::string& error);
// Every file a run.json (`manifest`, in `dir`) lists has the size and
// checksum it gives; throws InputError naming the first that does not.
void check_listed_files(const std::string& dir, const Json& manifest);
// Whether run.json lists the file `name`.
bool lists_file(const Json& manifest, const std::string& name);

// The command line the program runs, as run.json records it.
std::vector<std::string>& command_line();

// Progress on stderr: done, rate and time left, on one line kept up to date
// on a terminal; elsewhere (a batch job's log) a line after 10 s and then
// every minute.
class Progress {
 public:
  Progress(int64_t total, const char* unit);
  ~Progress() { clear(); }
  void operator()(int64_t done);
  void clear();
  double seconds() const;

 private:
  int64_t total_;
  const char* unit_;
  bool tty_;
  std::atomic<int64_t> last_{0};
  std::atomic<int64_t> next_log_ms_{10000};  // off a terminal: when the next line is due
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// A file a run streams text into (its records, its rows): written under a
// temporary name and renamed to `path` by finish() (removed if the run
// fails), starting with `head`. The text comes in batches (the run's: see
// batch_size); under mpirun each rank streams its part of every batch into
// a part file of its own, and finish() puts the parts together in order,
// batch by batch in rank order (cluster_concat).
class StreamFile {
 public:
  explicit StreamFile(std::string path, std::string head = {});
  ~StreamFile();
  StreamFile(const StreamFile&) = delete;
  StreamFile& operator=(const StreamFile&) = delete;
  bool wanted() const { return !path_.empty(); }
  // Appends to this rank's part of the current batch; a failed write stops the run.
  void write(std::string_view text);
  // write() as a run's record sink.
  RecordSink sink();
  // The current batch is complete (on every rank).
  void end_batch();
  void finish();

 private:
  std::string path_, head_, tmp_, part_;
  std::ofstream out_;
  std::vector<int64_t> sizes_;  // bytes of each batch (under mpirun)
  int64_t pending_ = 0;         // of the current batch
};

// Runs `step` on every rank and ends the command on all of them when it
// failed on any: the rank that failed with its own error, the others
// quietly, so that no rank waits for one that has given up.
void on_every_rank(const std::function<void()>& step);
// Ends a command with `code` and no message (another rank has given it).
struct QuietExit {
  int code;
};

// The summaries as the program prints them.
void print_summary(const ExperimentConfig& c, const Summary& s);
void print_game_summary(const ExperimentConfig& c, const GameSummary& s);

}  // namespace canasta::cli
