// Policy targets from a search's self-play: at sampled decisions, what the
// acting seat saw (its View's features), the legal actions (dense ids,
// canasta/action_ids.h), how often the search visited each at the root
// (another agent's choice counts as one visit), the action played, and the
// final margin of the seat's side. The file is the same at any thread count (deals in order), written
// a block of deals at a time (constant memory), with a checked and
// versioned header; agents/doc/policy.md documents it, canasta.read_policy_samples
// reads it into NumPy arrays.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "canasta/agent.h"
#include "canasta/rules.h"
#include "canasta/samples.h"

namespace canasta {

// A self-play run that records policy targets.
struct PolicySelfplay {
  Rules rules;
  AgentSpec side0, side1;  // seats s with s mod sides = 0 play side0; the others side1
  uint64_t seed = 1;
  int64_t deals = 1000;  // single deals 0 .. deals-1, as canasta sim deals them (the original twins)
  double share = 0.25;   // the chance that a search's decision (among two or more actions) is kept
  int threads = 0;       // 0: every core
  // With a teacher, the targets at a kept decision are the teacher's (its
  // root visits, or its choice as one visit) on the acting seat's view,
  // while the sides play on: the teacher's advice where the players go.
  bool has_teacher = false;
  AgentSpec teacher;
};

// What a run or a file holds: sample i has features x[i * features ..],
// its legal actions' ids and root visits at [offset[i], offset[i + 1]) of
// `ids` and `visits`, and `played`, the index among them of the action played.
struct PolicySamples {
  Rules rules;
  std::string agents;
  uint64_t seed = 0;
  int features = 0, actions = 0;
  std::vector<int64_t> deal;
  std::vector<float> margin;
  std::vector<uint16_t> played;
  std::vector<int64_t> offset{0};
  std::vector<float> x;
  std::vector<uint16_t> ids;
  std::vector<uint32_t> visits;
  int64_t size() const { return static_cast<int64_t>(deal.size()); }
};

// The file: a header, then the samples, each: deal (int64), margin
// (float32), legal actions n (uint16), played (uint16), features (float32
// each), ids (uint16 each), visits (uint32 each); little-endian. `count`
// sits at byte kPolicySampleCountOffset, filled in at the end.
constexpr size_t kPolicySampleCountOffset = 32;
std::string policy_sample_header(const Rules& rules, const std::string& agents, uint64_t seed, int64_t count);

// Plays the run and appends each block of deals' samples, in deal order,
// to `sink` (bytes after the header). Stops early (what finished is kept)
// when `stop` is set. Returns false with a one-line error (an agent that
// cannot play the profile). `deals_done` and `samples` count what was written.
bool play_policy_selfplay(const PolicySelfplay& c, const std::function<void(const std::string&)>& sink,
                          const std::atomic<bool>* stop, int64_t& deals_done, int64_t& samples,
                          std::string& error, const std::function<void(int64_t)>& progress = {});

// Whether `path` begins as a policy sample file does.
bool is_policy_sample_file(const std::string& path);
// The positions and final margins of policy targets, as value samples
// (canasta/samples.h): a value model trains on a search's own games too.
SampleSet value_samples_of(PolicySamples&& p);

// Reads a file: false with a one-line error (not such a file, another
// format, feature version or action count, a count that does not fit its
// bytes, an id out of range, a number not finite).
bool read_policy_samples(const std::string& path, PolicySamples& out, std::string& error);

}  // namespace canasta
