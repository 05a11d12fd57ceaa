// The sample file of canasta selfplay: positions as one seat saw them (its
// features, canasta/features.h) with the final margin of its side, that
// value models are trained on (agents/doc/learned.md has the format).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "canasta/features.h"
#include "canasta/rules.h"

namespace canasta {

// A sample file's header, and its samples: per sample the deal it comes
// from (its index in the run), the final margin from the seat's side, and
// the seat's features.
struct SampleSet {
  Rules rules;
  std::string agents;  // who played, as the command said it
  uint64_t seed = 0;
  int features = 0;
  std::vector<int64_t> deal;
  std::vector<float> margin;
  std::vector<float> x;  // size() * features numbers, sample by sample
  int64_t size() const { return static_cast<int64_t>(margin.size()); }
};

// The file: a header (sample_file_header), then the samples, each
// sample_bytes(features) bytes. `count` sits at byte kSampleCountOffset, so
// that a writer can fill it in at the end.
constexpr size_t kSampleCountOffset = 28;
constexpr size_t sample_bytes(int features) { return 12 + 4 * static_cast<size_t>(features); }
std::string sample_file_header(const Rules& rules, const std::string& agents, uint64_t seed, int64_t count);
// Appends one sample: its deal, its final margin and its `features` numbers.
void append_sample(std::string& out, int64_t deal, float margin, const float* x, int features);
// Reads a whole file: false with a one-line error (not a sample file,
// truncated or longer than its count, another format or feature version, a
// profile that does not parse or does not fit the feature count, a number
// that is not finite).
bool read_samples(const std::string& path, SampleSet& out, std::string& error);

}  // namespace canasta
