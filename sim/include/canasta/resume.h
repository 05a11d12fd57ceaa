// Runs stopped by a signal, and how they go on: a stopped run's folder is
// read as data from a stranger, every file of it checked before the run
// goes on, and nothing stored in it chooses where the program writes
// (sim/doc/experiments.md, "Resuming"). A sim run's state is here; a
// tournament's in tournament_files.h, a tuning run's in tune_state.h.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/experiment.h"
#include "canasta/input_error.h"
#include "canasta/json.h"
#include "canasta/stats.h"

namespace canasta {

// A run stopped by a signal, to be resumed: its folder's run.json, checked
// to be the partial run of `subcommand` written by this version, every file
// it lists the one it lists (check_listed_files), and the command it ran
// (canasta SUBCOMMAND ...). Throws InputError.
struct StoppedRun {
  std::string dir;   // without a trailing slash
  std::string file;  // where the manifest was read (DIR/run.json), for messages
  Json manifest;
  std::vector<std::string> command;
};
StoppedRun read_stopped_run(const std::string& dir, const std::string& subcommand);

// A file a stopped run's command wrote to (`stored`, with `option`): a
// stored command is data, and does not choose where this program writes.
// The path given now with the resuming command (`given`) is used; a stored
// one is refused with the way to go on, unless none was stored.
std::string output_named_now(const StoppedRun& run, const std::string& option, const std::string& stored,
                             const std::string& given);

// A stopped sim run, to go on from: the positions it played and the tally
// of their rows (run.json's "resume" and "tally"), in its folder.
struct SimResume : Played {
  std::string dir;
};
// Reads a stopped sim run's state (run.json's "resume.done" and "tally").
// Throws InputError.
SimResume read_sim_resume(const StoppedRun& run);
// Checks the state against `c`, the configuration the run's command gives:
// summary.json describes the same run, the positions lie within it, the
// tally is that of the rows of those positions and gives the summary the
// stopped run wrote, and its rows file, where it kept one, is listed in
// run.json and holds those rows (check_stopped_rows). Throws InputError.
void check_sim_resume(const StoppedRun& run, const SimResume& r, const ExperimentConfig& c);

// run.json's fields of a sim run beside its files: the tally of its rows
// (merge reads it where no rows were kept) and, where the run is partial
// (`status`), the positions it played, to go on from (read_sim_resume).
void write_sim_state(JsonWriter& w, const Tally& t, std::string_view status, const Ranges& done);

// The rows a stopped run kept (`path`), checked before they are carried into
// the resumed run's file: rows of this run, in (index, twin) order, of the
// positions it played and no other, each once, whose tally is run.json's.
void check_stopped_rows(const std::string& path, const SimResume& r, const ExperimentConfig& c);

// The records of a stopped run, `record`, before the resumed run continues
// them: they hold every deal of its positions, which are the first ones
// (a single process played them). Throws InputError.
void check_stopped_records(const SimResume& r, const std::string& record, const ExperimentConfig& c);
// Passes the bytes of the file `path` to `write`, a block at a time (a
// stopped run's records, before the new ones); never through a link.
void copy_file(const std::string& path, const std::function<void(std::string_view)>& write);

// The rows file of a resumed run, `fresh` (its new rows, in (index, twin)
// order): the stopped run's rows (its file `name`, where it kept one) are
// merged into it, in order.
void merge_stopped_rows(const SimResume& r, const std::string& fresh, const std::string& name);

}  // namespace canasta
