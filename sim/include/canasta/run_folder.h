// A run folder (canasta sim --out, merge, tournament): its files and
// run.json, the manifest written with them, which lists every file with its
// size and checksum, the command that made them, the status of the run and
// the integer tally of its rows (sim/doc/experiments.md, "Files").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canasta/experiment.h"
#include "canasta/input_error.h"
#include "canasta/json.h"
#include "canasta/stats.h"

namespace canasta {

// FNV-1a, 64 bits: run.json ties the files beside it to itself with it.
// `h` continues the hash of the text before.
constexpr uint64_t kFnvStart = 0xcbf29ce484222325ULL;
uint64_t fnv1a(std::string_view text, uint64_t h = kFnvStart);
// A file's size and FNV-1a, read a block at a time; size -1, with `error`,
// when it cannot be read or is not a regular file (a link is refused). With
// `expected` >= 0, a file of another size is not read: its size and 0.
std::pair<int64_t, uint64_t> file_checksum(const std::string& path, int64_t expected, std::string& error);

// The names a run writes into its folder.
bool is_run_file(std::string_view name);
// Every file a run.json (`manifest`, in `dir`) lists has the size and
// checksum it gives; throws InputError naming the first that does not.
void check_listed_files(const std::string& dir, const Json& manifest);
// Whether run.json lists the file `name`.
bool lists_file(const Json& manifest, const std::string& name);

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

// What run.json says of the run besides its files.
struct RunManifest {
  std::vector<std::string> command;  // canasta SUBCOMMAND ...: how to make the files again
  std::string status;                // complete, partial (stopped), decided (a sequential test)
  int64_t rows = 0;
  std::string stopped_by;  // the signal that stopped the run, or empty
};

// A run folder written as one unit: the files go to a temporary folder
// beside it, which then takes its place in one rename, so that a reader
// finds all the files of one run or none. Made before the run, so that a
// place that cannot be written is refused before any deal is played; a
// folder that holds other files than a run's is refused too (InputError).
class RunFolder {
 public:
  explicit RunFolder(std::string dir);  // an empty path: no folder
  ~RunFolder();
  RunFolder(const RunFolder&) = delete;
  RunFolder& operator=(const RunFolder&) = delete;
  bool wanted() const { return !dir_.empty(); }
  // The folder, without a trailing slash.
  const std::string& dir() const { return dir_; }
  // The temporary folder, where files may be written before commit().
  const std::string& staging() const { return tmp_; }
  // Writes the files and run.json (`manifest` around the files' list, then
  // what `more` writes), then puts the folder in place. `staged` names files
  // already written into staging(), listed after `files`. Returns the names
  // of the files, run.json last.
  std::vector<std::string> commit(const std::vector<std::pair<std::string, std::string>>& files,
                                  const RunManifest& manifest, const std::vector<std::string>& staged = {},
                                  const std::function<void(JsonWriter&)>& more = {});

 private:
  std::string dir_, tmp_;
};

}  // namespace canasta
