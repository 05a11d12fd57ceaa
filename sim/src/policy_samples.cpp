#include "canasta/policy_samples.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>

#include "canasta/action_ids.h"
#include "canasta/binary_file.h"
#include "canasta/engine.h"
#include "canasta/features.h"
#include "canasta/input_file.h"
#include "canasta/ismcts.h"
#include "canasta/parallel.h"
#include "canasta/params.h"
#include "canasta/profile.h"
#include "canasta/runner.h"

namespace canasta {

namespace {

constexpr char kMagic[8] = {'C', 'N', 'P', 'O', 'L', 'S', 'M', 'P'};
constexpr uint32_t kFormat = 1;

// One decision kept, until the deal's margin is known.
struct Kept {
  int side = 0;
  int played = 0;
  std::array<float, kMaxFeatures> x{};
  std::vector<std::pair<int, uint32_t>> visits;  // (dense id, root visits), in legal order
};

// Watches a deal: after each decision among two or more actions, keeps it
// with the chance `share`: a search's root visits, or another agent's
// choice as one visit; those of the teacher, where there is one, on the
// acting seat's view.
struct Keeper : PlayObserver {
  const std::vector<std::unique_ptr<Agent>>& agents;
  Agent* teacher;
  Rng teacher_rng;
  const ActionIds& ids;
  double share;
  Rng pick;
  std::vector<Kept>& kept;
  ActionList legal;

  void before(const State& s, int seat, Action a) {
    legal_actions(s, legal);
    if (legal.size() < 2 || pick.uniform() >= share) return;
    Kept k;
    k.side = s.rules.team_of(seat);
    features(View(s, seat), k.x.data());
    const Agent* chooser = agents[static_cast<size_t>(seat)].get();
    Action chosen = a;
    if (teacher) {
      chosen = teacher->act(View(s, seat), teacher_rng);
      chooser = teacher;
    }
    const auto* search = dynamic_cast<const IsmctsAgent*>(chooser);
    for (int i = 0; i < legal.size(); ++i) {
      if (legal[i] == a) k.played = i;
      const uint32_t visits =
          search               ? static_cast<uint32_t>(search->last_visits()[static_cast<size_t>(i)].second)
          : legal[i] == chosen ? 1U
                               : 0U;
      k.visits.emplace_back(ids.id(legal[i]), visits);
    }
    kept.push_back(std::move(k));
  }
};

// Deal k played, its kept decisions appended to `out`; returns how many.
int64_t play_one(const PolicySelfplay& c, const ActionIds& ids, int64_t k,
                 const std::vector<std::unique_ptr<Agent>>& agents, Agent* teacher, std::string& out) {
  State s;
  start_single_deal(s, c.rules, c.seed, k);
  Rng rng(derive_seed(c.seed, Stream::kDealPlay, static_cast<uint64_t>(k)));
  std::vector<Kept> kept;
  Keeper keeper{{},
                agents,
                teacher,
                Rng(derive_seed(c.seed, Stream::kTeacher, static_cast<uint64_t>(k))),
                ids,
                c.share,
                Rng(derive_seed(c.seed, Stream::kPolicyPick, static_cast<uint64_t>(k))),
                kept,
                {}};
  play_deal(
      s, [&](int seat) -> Agent& { return *agents[static_cast<size_t>(seat)]; }, rng, keeper);
  const auto margins = deal_margins(s);
  const int features = feature_count(c.rules);
  for (const Kept& d : kept) {
    put_bytes(out, k);
    put_bytes(out, static_cast<float>(margins[static_cast<size_t>(d.side)]));
    put_bytes(out, static_cast<uint16_t>(d.visits.size()));
    put_bytes(out, static_cast<uint16_t>(d.played));
    out.append(reinterpret_cast<const char*>(d.x.data()), static_cast<size_t>(features) * sizeof(float));
    for (const auto& [id, n] : d.visits) put_bytes(out, static_cast<uint16_t>(id));
    for (const auto& [id, n] : d.visits) put_bytes(out, n);
  }
  return static_cast<int64_t>(kept.size());
}

}  // namespace

std::string policy_sample_header(const Rules& rules, const std::string& agents, uint64_t seed,
                                 int64_t count) {
  std::string out(kMagic, sizeof kMagic);
  put_bytes(out, kFormat);
  put_bytes(out, static_cast<uint32_t>(kFeatureVersion));
  put_bytes(out, static_cast<uint32_t>(feature_count(rules)));
  put_bytes(out, static_cast<uint32_t>(ActionIds(rules).size()));
  put_bytes(out, seed);
  put_bytes(out, count);
  put_sized_text(out, profile_spec(rules));
  put_sized_text(out, agents);
  return out;
}

bool play_policy_selfplay(const PolicySelfplay& c, const std::function<void(const std::string&)>& sink,
                          const std::atomic<bool>* stop, int64_t& deals_done, int64_t& samples,
                          std::string& error, const std::function<void(int64_t)>& progress) {
  const ActionIds ids(c.rules);
  const int threads = resolve_threads(c.threads);
  const int64_t block = 8 * static_cast<int64_t>(threads);
  deals_done = samples = 0;
  std::vector<std::string> bytes(static_cast<size_t>(block));
  std::vector<int64_t> counts(static_cast<size_t>(block));
  std::atomic<bool> failed{false};
  for (int64_t first = 0; first < c.deals && !(stop && stop->load()); first += block) {
    const int64_t last = std::min(c.deals, first + block);
    parallel_chunks(threads, first, last, 1, [&](int64_t begin, int64_t end) {
      std::vector<std::unique_ptr<Agent>> agents;
      std::unique_ptr<Agent> teacher;
      try {
        for (int seat = 0; seat < c.rules.players; ++seat)
          agents.push_back(make_agent(c.rules.team_of(seat) == 0 ? c.side0 : c.side1));
        if (c.has_teacher) teacher = make_agent(c.teacher);
        for (int64_t k = begin; k < end; ++k) {
          std::string& out = bytes[static_cast<size_t>(k - first)];
          out.clear();
          counts[static_cast<size_t>(k - first)] = play_one(c, ids, k, agents, teacher.get(), out);
        }
      } catch (const std::exception& e) {
        if (!failed.exchange(true)) error = e.what();
      }
    });
    if (failed) return false;
    std::string text;
    for (int64_t k = first; k < last; ++k) {
      text += bytes[static_cast<size_t>(k - first)];
      samples += counts[static_cast<size_t>(k - first)];
    }
    sink(text);
    deals_done = last;
    if (progress) progress(deals_done);
  }
  return true;
}

namespace {

// Reads the header; false with a one-line error.
bool read_header(InputBytes& in, const std::string& name, PolicySamples& s, int64_t& count,
                 std::string& error) {
  char magic[8];
  uint32_t format = 0, version = 0, features = 0, actions = 0;
  std::string profile;
  if (!in.take(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) {
    error = name + " is not a policy sample file";
    return false;
  }
  if (!in.take(&format, 4) || !in.take(&version, 4) || !in.take(&features, 4) || !in.take(&actions, 4) ||
      !in.take(&s.seed, 8) || !in.take(&count, 8) || !in.sized_text(profile) || !in.sized_text(s.agents)) {
    error = name + " is truncated";
    return false;
  }
  if (format != kFormat || version != static_cast<uint32_t>(kFeatureVersion)) {
    error = name + " holds policy samples of format " + std::to_string(format) + " and feature version " +
            std::to_string(version) + "; this version reads format " + std::to_string(kFormat) +
            " and computes feature version " + std::to_string(kFeatureVersion);
    return false;
  }
  std::string why;
  if (!plain_text(profile) || !plain_text(s.agents) || !parse_profile(profile, s.rules, why)) {
    error = name + ": " + (why.empty() ? "its profile or agents are not plain text" : why);
    return false;
  }
  s.features = feature_count(s.rules);
  s.actions = ActionIds(s.rules).size();
  if (static_cast<int>(features) != s.features || static_cast<int>(actions) != s.actions) {
    error = name + " has " + std::to_string(features) + " features and " + std::to_string(actions) +
            " actions; its profile has " + std::to_string(s.features) + " and " + std::to_string(s.actions);
    return false;
  }
  return true;
}

}  // namespace

bool is_policy_sample_file(const std::string& path) {
  std::string error;
  const int fd = open_input_file(path, kNoSizeCap, "a policy sample file", error);
  if (fd < 0) return false;
  InputBytes in(fd);
  char magic[8] = {};
  return in.take(magic, 8) && std::memcmp(magic, kMagic, 8) == 0;
}

SampleSet value_samples_of(PolicySamples&& p) {
  SampleSet s;
  s.rules = p.rules;
  s.agents = std::move(p.agents);
  s.seed = p.seed;
  s.features = p.features;
  s.deal = std::move(p.deal);
  s.margin = std::move(p.margin);
  s.x = std::move(p.x);
  return s;
}

bool read_policy_samples(const std::string& path, PolicySamples& out, std::string& error) {
  const std::string name = "'" + printable(path) + "'";
  const int fd = open_input_file(path, kNoSizeCap, "a policy sample file", error);
  if (fd < 0) return false;
  InputBytes in(fd);
  PolicySamples s;
  int64_t count = 0;
  if (!read_header(in, name, s, count, error)) return false;
  // Each sample holds at least its fixed part: the count is checked against
  // the bytes there are before anything is sized by it.
  const uint64_t fixed = 8 + 4 + 2 + 2 + 4 * static_cast<uint64_t>(s.features);
  if (count < 0 || static_cast<uint64_t>(count) > in.left() / fixed) {
    error = name + " claims " + std::to_string(count) + " samples in " + std::to_string(in.left()) + " bytes";
    return false;
  }
  std::string rest(in.left(), '\0');
  if (!in.take(rest.data(), rest.size())) {
    error = "cannot read " + name;
    return false;
  }
  size_t p = 0;
  const auto get = [&](void* to, size_t n) {
    if (rest.size() - p < n) return false;
    std::memcpy(to, rest.data() + p, n);
    p += n;
    return true;
  };
  s.x.resize(static_cast<size_t>(count) * static_cast<size_t>(s.features));
  for (int64_t i = 0; i < count; ++i) {
    int64_t deal = 0;
    float margin = 0;
    uint16_t n = 0, played = 0;
    if (!get(&deal, 8) || !get(&margin, 4) || !get(&n, 2) || !get(&played, 2) ||
        !get(s.x.data() + i * s.features, 4 * static_cast<size_t>(s.features))) {
      error = name + " is truncated (sample " + std::to_string(i) + ")";
      return false;
    }
    if (n < 2 || played >= n || deal < 0 || !std::isfinite(margin)) {
      error = name + ": sample " + std::to_string(i) + " is not a decision among its legal actions";
      return false;
    }
    const size_t first = s.ids.size();
    s.ids.resize(first + n);
    s.visits.resize(first + n);
    if (!get(s.ids.data() + first, 2 * static_cast<size_t>(n)) ||
        !get(s.visits.data() + first, 4 * static_cast<size_t>(n))) {
      error = name + " is truncated (sample " + std::to_string(i) + ")";
      return false;
    }
    for (size_t j = first; j < s.ids.size(); ++j)
      if (s.ids[j] >= s.actions) {
        error = name + ": sample " + std::to_string(i) + " names action id " + std::to_string(s.ids[j]) +
                " of " + std::to_string(s.actions);
        return false;
      }
    s.deal.push_back(deal);
    s.margin.push_back(margin);
    s.played.push_back(played);
    s.offset.push_back(static_cast<int64_t>(s.ids.size()));
  }
  if (p != rest.size()) {
    error = name + " has " + std::to_string(rest.size() - p) + " bytes after its " + std::to_string(count) +
            " samples";
    return false;
  }
  if (!std::all_of(s.x.begin(), s.x.end(), [](float v) { return std::isfinite(v); })) {
    error = name + " holds a feature that is not finite";
    return false;
  }
  out = std::move(s);
  return true;
}

}  // namespace canasta
