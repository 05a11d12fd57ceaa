// The processes of a run. One, normally; with the MPI build (CANASTA_MPI)
// and `mpirun -n K canasta sim ...`, the K ranks: each plays the indices i
// with i % K == rank on its own oneTBB pool, they agree after every batch
// (one reduction: the sequential test's counts and whether any was
// stopped), and at the end rank 0 gathers the rows and writes exactly the
// files one process writes. sim/doc/experiments.md, "Scaling out".
#pragma once

#include <array>
#include <cstdint>
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

// The per-batch agreement of RunHooks::collective.
bool cluster_collective(std::array<int64_t, 5>& counts, bool stopped);
// Gathers every rank's rows on rank 0 (the others end with theirs empty).
void cluster_gather(std::vector<DealRow>& rows);
void cluster_gather(std::vector<GameRow>& rows);
// A rank that cannot go on ends the whole run, naming itself.
[[noreturn]] void cluster_abort(const std::string& message, int code);

}  // namespace canasta::cli
