// A tuning run (canasta tune: a sweep, or SPSA) stopped by a signal, beside
// its table OUT: OUT.resume.json, with the command, the table so far and
// where to go on from (the sweep's point in progress: its deal pairs played
// and their tally; SPSA: the batches played and the parameters after them,
// at full precision). Read as data from a stranger, checked before the run
// goes on (sim/doc/experiments.md, "Tuning").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "canasta/spsa.h"
#include "canasta/stats.h"

namespace canasta {

struct TuneState {
  std::vector<std::string> command;
  std::string table;          // the CSV so far
  int64_t points = 0;         // sweep: the points finished
  Played point;               // sweep: the point in progress
  int64_t batches = 0;        // SPSA: the batches played
  std::vector<double> theta;  // SPSA: the parameters after them
};

// Where the state of the run whose table is `out` goes: OUT.resume.json.
std::string tune_state_path(const std::string& out);
// Writes it (write_atomically). Throws InputError.
void write_tune_state(const std::string& out, const TuneState& t);
// Reads it, and checks that the table `out` beside it is its own (the two
// are written together). Throws InputError.
TuneState read_tune_state(const std::string& out);

// A stopped SPSA run's state fits its command: the batches played, at most
// the run's, the parameters after them, finite, and the table (of `header`)
// a row of numbers for each.
bool spsa_state_fits(const TuneState& state, const std::string& header, const SpsaConfig& c);
// A stopped sweep's state fits its points: its table `header` and a row for
// each point finished (each starting with the point's `starts`, then
// numbers), and the point in progress its own deal pairs (both twins of
// each) within the point's `deals`.
bool sweep_state_fits(const TuneState& state, const std::vector<std::string>& starts,
                      const std::string& header, int64_t deals);

}  // namespace canasta
