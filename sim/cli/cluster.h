// The processes of a run. One, normally; with the MPI build (CANASTA_MPI)
// and `mpirun -n K canasta sim ...`, the K ranks: each plays its block of
// every batch on its own oneTBB pool, they add up what the run needs after
// every batch (one reduction: the sequential test's counts and whether any
// was stopped) and at the end (the summary's integer tally), and the files
// are written by all of them into one, each its own parts at their place
// (MPI-IO), so that no rank ever holds another's rows. Rank 0 prints and
// puts the files in place. sim/doc/experiments.md, "Scaling out".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "canasta/experiment.h"

namespace canasta::cli {

struct Cluster {
  int rank = 0, size = 1;
};

// Set up by the program's main: MPI_Init, and quiet ranks other than 0.
void cluster_start(int& argc, char**& argv);
void cluster_stop();
const Cluster& cluster();

// The processes as the libraries take them (RunHooks::processes): sums over
// the ranks with one reduction each.
Processes cluster_processes();

// Rank 0's `text`, on every rank.
std::string cluster_broadcast(const std::string& text);

// Writes the file `path` from parts held by the ranks: `head` (rank 0's),
// then for each batch b the part of every rank in rank order. `sizes[b]` is
// the bytes of this rank's part of batch b; `part(b, n, text)` sets `text`
// to its next n bytes (64 MB at most at a time, in order). Every rank calls
// it; `path` is rank 0's and must be a place every rank can write.
void cluster_concat(const std::string& path, const std::string& head, const std::vector<int64_t>& sizes,
                    const std::function<void(size_t b, int64_t bytes, std::string& text)>& part);

// A rank that cannot go on ends the whole run, naming itself.
[[noreturn]] void cluster_abort(const std::string& message, int code);

}  // namespace canasta::cli
