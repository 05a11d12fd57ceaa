// A run's files as the program's processes write them: one process, or
// under mpirun the ranks, each its own part (cluster.h), rank 0 putting
// them in place and saying so.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canasta/experiment.h"
#include "canasta/json.h"
#include "canasta/run_folder.h"

namespace canasta::cli {

// The command line the program runs, as run.json records it.
std::vector<std::string>& command_line();

// A run folder (--out) of the program: run.json records the program's
// command line and the signal that stopped the run, and the files are
// listed on stdout once in place.
class OutDir : public RunFolder {
 public:
  using RunFolder::RunFolder;
  // RunFolder::commit with the status and rows of the run.
  void commit(const std::vector<std::pair<std::string, std::string>>& files, const std::string& status,
              int64_t rows, const std::vector<std::string>& staged = {},
              const std::function<void(JsonWriter&)>& more = {});
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

}  // namespace canasta::cli
