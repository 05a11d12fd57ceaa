#include "canasta/samples.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "canasta/binary_file.h"
#include "canasta/input_file.h"
#include "canasta/profile.h"
#include "canasta/text.h"

namespace canasta {

namespace {

constexpr char kSampleMagic[8] = {'C', 'N', 'S', 'A', 'M', 'P', 'L', 'E'};
constexpr uint32_t kSampleFormat = 1;

// The header: the set's rules, agents, seed and feature count, and the count of samples.
bool read_header(InputBytes& in, const std::string& name, SampleSet& s, int64_t& count, std::string& error) {
  char magic[8];
  uint32_t format = 0, version = 0, features = 0;
  if (!in.take(magic, 8) || std::memcmp(magic, kSampleMagic, 8) != 0) {
    error = name + " is not a sample file";
    return false;
  }
  std::string profile;
  if (!in.take(&format, 4) || !in.take(&version, 4) || !in.take(&features, 4) || !in.take(&s.seed, 8) ||
      !in.take(&count, 8) || !in.sized_text(profile) || !in.sized_text(s.agents)) {
    error = name + " is truncated";
    return false;
  }
  if (!plain_text(s.agents) || !plain_text(profile)) {
    error = name + " names its agents or profile with text that is not plain (control or hidden characters)";
    return false;
  }
  if (format != kSampleFormat || version != static_cast<uint32_t>(kFeatureVersion)) {
    error = name + " holds samples of format " + std::to_string(format) + " and feature version " +
            std::to_string(version) + "; this version reads format " + std::to_string(kSampleFormat) +
            " and computes feature version " + std::to_string(kFeatureVersion);
    return false;
  }
  std::string why;
  if (!parse_profile(profile, s.rules, why)) {
    error = name + ": " + why;
    return false;
  }
  if (static_cast<int>(features) != feature_count(s.rules)) {
    error = name + " has " + std::to_string(features) + " features a sample; its profile has " +
            std::to_string(feature_count(s.rules));
    return false;
  }
  s.features = static_cast<int>(features);
  return true;
}

// The `count` samples after the header, which must be all the file holds.
bool read_body(InputBytes& in, const std::string& name, int64_t count, SampleSet& s, std::string& error) {
  const auto features = static_cast<size_t>(s.features);
  const uint64_t record = sample_bytes(s.features);
  // Written so that it cannot wrap: the count is checked against the bytes there are.
  if (count < 0 || static_cast<uint64_t>(count) > in.left() / record ||
      in.left() != static_cast<uint64_t>(count) * record) {
    error = name + " should hold " + std::to_string(count) + " samples of " + std::to_string(record) +
            " bytes after its header, and holds " + std::to_string(in.left()) + " bytes";
    return false;
  }
  s.deal.resize(static_cast<size_t>(count));
  s.margin.resize(static_cast<size_t>(count));
  s.x.resize(static_cast<size_t>(count) * features);
  std::string block;
  constexpr int64_t kBlock = 4096;
  for (int64_t first = 0; first < count; first += kBlock) {
    const int64_t n = std::min(kBlock, count - first);
    block.resize(static_cast<size_t>(n * static_cast<int64_t>(record)));
    if (!in.take(block.data(), block.size())) {
      error = "cannot read " + name;
      return false;
    }
    for (int64_t i = 0; i < n; ++i) {
      const char* r = block.data() + i * static_cast<int64_t>(record);
      const auto k = static_cast<size_t>(first + i);
      std::memcpy(&s.deal[k], r, 8);
      std::memcpy(&s.margin[k], r + 8, 4);
      std::memcpy(&s.x[k * features], r + 12, 4 * features);
    }
  }
  return true;
}

// Every margin and feature finite: one NaN would make every weight trained on it NaN.
bool check_finite(const SampleSet& s, const std::string& name, std::string& error) {
  const auto features = static_cast<size_t>(s.features);
  const auto finite = [](float v) { return std::isfinite(v); };
  for (int64_t k = 0; k < s.size(); ++k) {
    const auto i = static_cast<size_t>(k);
    if (!finite(s.margin[i]) ||
        !std::all_of(s.x.begin() + static_cast<std::ptrdiff_t>(i * features),
                     s.x.begin() + static_cast<std::ptrdiff_t>((i + 1) * features), finite)) {
      error = name + ": sample " + std::to_string(k) + " (deal " + std::to_string(s.deal[i]) +
              ") holds a number that is not finite";
      return false;
    }
  }
  return true;
}

}  // namespace

std::string sample_file_header(const Rules& rules, const std::string& agents, uint64_t seed, int64_t count) {
  std::string out(kSampleMagic, sizeof kSampleMagic);
  put_bytes(out, kSampleFormat);
  put_bytes(out, static_cast<uint32_t>(kFeatureVersion));
  put_bytes(out, static_cast<uint32_t>(feature_count(rules)));
  put_bytes(out, seed);
  put_bytes(out, count);
  put_sized_text(out, profile_spec(rules));
  put_sized_text(out, agents);
  return out;
}

void append_sample(std::string& out, int64_t deal, float margin, const float* x, int features) {
  put_bytes(out, deal);
  put_bytes(out, margin);
  out.append(reinterpret_cast<const char*>(x), static_cast<size_t>(features) * sizeof(float));
}

bool read_samples(const std::string& path, SampleSet& out, std::string& error) {
  const std::string name = "'" + printable(path) + "'";
  const int fd = open_input_file(path, kNoSizeCap, "a sample file", error);
  if (fd < 0) return false;
  InputBytes in(fd);
  SampleSet s;
  int64_t count = 0;
  if (!read_header(in, name, s, count, error) || !read_body(in, name, count, s, error) ||
      !check_finite(s, name, error))
    return false;
  out = std::move(s);
  return true;
}

}  // namespace canasta
