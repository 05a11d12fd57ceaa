// The files a run writes and the checks before it writes them: every file
// is written under a temporary name and renamed when complete, never over
// what is not a regular file, never over one of the run's inputs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/agent.h"
#include "canasta/experiment.h"
#include "canasta/input_error.h"

namespace canasta {

// Writes `text` to `path` under a temporary name, renamed when complete.
// Throws InputError.
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
// signal has no time to); write_atomically and RunFolder call it, and so
// does the program's streamed files' writer.
void remove_stale_temporaries(const std::string& path);

// The whole of a file of a run folder or a resume state: a regular file, not
// a link (the program never writes one there), of at most `max_bytes`, else
// InputError naming it and `what` it should be.
std::string read_file(const std::string& path, uint64_t max_bytes, std::string_view what);

}  // namespace canasta
