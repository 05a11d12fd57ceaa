// Training samples from self-play: positions of recorded deals, with the
// final margin of the seat's side, written as a sample file
// (canasta/samples.h; canasta selfplay, agents/doc/learned.md).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "canasta/experiment.h"
#include "canasta/record.h"

namespace canasta {

// Up to `per_deal` positions of a recorded deal, chosen at random among its
// decisions from (seed, kSamplePick, row): each the actor's features and
// its side's final margin, appended to `out` as the file holds them.
void append_samples(const DealRecord& rec, uint64_t seed, int64_t row, int per_deal, std::string& out);

struct SelfplayCount {
  int64_t deals = 0;    // recorded, in the order the run kept them
  int64_t samples = 0;  // written
};

// Plays the deals of `c` (stream_deals, with `hooks`, whose records it
// takes) and writes to `file` the sample file of their positions: its
// header, then up to `per_deal` samples of each deal as the run keeps it
// (the deal's place among the records is its row), then the count in the
// header, so `file` must be seekable. `agents` names who played in the
// header. False with `error` when stream_deals fails (the count is then not
// written).
bool write_selfplay_samples(const ExperimentConfig& c, const std::string& agents, int per_deal,
                            std::ostream& file, RunHooks hooks, SelfplayCount& count, std::string& error);

}  // namespace canasta
