#include "canasta/policy_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "canasta/input_file.h"
#include "canasta/params.h"
#include "canasta/profile.h"
#include "dense.h"

namespace canasta {

namespace {

constexpr char kMagic[8] = {'C', 'N', 'P', 'O', 'L', 'I', 'C', 'Y'};

bool width_ok(int hidden) { return hidden >= 8 && hidden <= PolicyModel::kMaxHidden && hidden % 8 == 0; }

}  // namespace

PolicyModel::PolicyModel(const Rules& rules, int hidden)
    : rules_(rules),
      inputs_(feature_count(rules)),
      hidden_(hidden),
      ids_(std::make_shared<const ActionIds>(rules)) {
  if (!width_ok(hidden)) throw std::invalid_argument("a policy's hidden layer has 8 to 256 units, by eights");
  actions_ = ids_->size();
  const auto f = static_cast<size_t>(inputs_), h = static_cast<size_t>(hidden_),
             a = static_cast<size_t>(actions_);
  mean_.assign(f, 0.0F);
  scale_.assign(f, 1.0F);
  w_.assign(f * h, 0.0F);
  b_.assign(h, 0.0F);
  e_.assign(a * h, 0.0F);
  c_.assign(a, 0.0F);
  prepare();
}

void PolicyModel::prepare() {
  // w' (o, i) = w (o, i) / scale_i; b'_o = b_o - sum_i w (o, i) mean_i / scale_i.
  first_w_ = w_;
  first_b_ = b_;
  for (int i = 0; i < inputs_; ++i) {
    const float s = scale_[static_cast<size_t>(i)], m = mean_[static_cast<size_t>(i)];
    for (int o = 0; o < hidden_; ++o) {
      float& w = first_w_[static_cast<size_t>(i * hidden_ + o)];
      w /= s;
      first_b_[static_cast<size_t>(o)] -= w * m;
    }
  }
}

std::string PolicyModel::misfit(const Rules& rules) const {
  if (rules_.players == rules.players && rules_.teams == rules.teams && inputs_ == feature_count(rules) &&
      actions_ == ActionIds(rules).size())
    return {};
  return "was trained on profile " + profile_spec(rules_) + ", not on " + profile_spec(rules);
}

void PolicyModel::hidden_layer(const float* x, float* h) const {
  std::array<int, kMaxFeatures> rows;
  std::copy(first_b_.begin(), first_b_.end(), h);
  dense::add_rows(first_w_.data(), x, rows.data(), dense::nonzero_indices(x, inputs_, rows.data()), hidden_,
                  h);
  for (int o = 0; o < hidden_; ++o) h[o] = h[o] > 0 ? h[o] : 0;
}

float PolicyModel::score(const float* h, int id) const {
  return c_[static_cast<size_t>(id)] +
         dense::dot(e_.data() + static_cast<ptrdiff_t>(id) * hidden_, h, hidden_);
}

void PolicyModel::softmax(const float* h, const int* ids, int n, float* out, float temperature) const {
  float top = -INFINITY;
  for (int i = 0; i < n; ++i) {
    out[i] = score(h, ids[i]) / temperature;
    top = std::max(top, out[i]);
  }
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += out[i] = std::exp(out[i] - top);
  for (int i = 0; i < n; ++i) out[i] /= sum;
}

void PolicyModel::probabilities(const View& v, const ActionList& legal, float* out, float temperature) const {
  std::array<float, kMaxFeatures> x;
  std::array<float, kMaxHidden> h;
  std::array<int, ActionList::kCapacity> ids;
  features(v, x.data());
  hidden_layer(x.data(), h.data());
  for (int i = 0; i < legal.size(); ++i) ids[static_cast<size_t>(i)] = ids_->id(legal[i]);
  softmax(h.data(), ids.data(), legal.size(), out, temperature);
}

Action PolicyModel::best(const View& v, const ActionList& legal) const {
  std::array<float, kMaxFeatures> x;
  std::array<float, kMaxHidden> h;
  features(v, x.data());
  hidden_layer(x.data(), h.data());
  int pick = 0;
  float top = -INFINITY;
  for (int i = 0; i < legal.size(); ++i)
    if (const float s = score(h.data(), ids_->id(legal[i])); s > top) top = s, pick = i;
  return legal[pick];
}

bool PolicyModel::save(const std::string& path, std::string& error) const {
  std::string bytes(kMagic, sizeof kMagic);
  const auto u32 = [&](uint32_t v) { bytes.append(reinterpret_cast<const char*>(&v), 4); };
  const auto floats = [&](const std::vector<float>& v) {
    bytes.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
  };
  const std::string profile = profile_spec(rules_);
  u32(kFormat);
  u32(static_cast<uint32_t>(kFeatureVersion));
  u32(static_cast<uint32_t>(inputs_));
  u32(static_cast<uint32_t>(actions_));
  u32(static_cast<uint32_t>(hidden_));
  u32(static_cast<uint32_t>(profile.size()));
  bytes += profile;
  for (const auto* v : {&mean_, &scale_, &w_, &b_, &e_, &c_}) floats(*v);
  const std::string tmp = path + ".tmp";
  if (!create_temporary(tmp, error)) return false;
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())) || !out.flush()) {
      error = "cannot write '" + printable(path) + "'";
      std::remove(tmp.c_str());
      return false;
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = "cannot write '" + printable(path) + "'";
    std::remove(tmp.c_str());
    return false;
  }
  return true;
}

bool PolicyModel::load(const std::string& path, PolicyModel& out, std::string& error) {
  // The widest policy of the widest table is a few MiB.
  constexpr uint64_t kMaxPolicyFile = uint64_t{32} << 20;
  std::string bytes;
  if (!read_input_file(path, kMaxPolicyFile, "a policy file", bytes, error)) return false;
  return from_bytes(bytes, "'" + printable(path) + "'", out, error);
}

namespace {

// The header of a policy file, as read.
struct Header {
  uint32_t format = 0, version = 0, inputs = 0, actions = 0, hidden = 0;
  Rules rules;
};

// Reads the header at `at` of `bytes`; false with a one-line error.
bool read_header(std::string_view bytes, size_t& at, const std::string& name, Header& h, std::string& error) {
  const auto take = [&](void* to, size_t n) {
    if (bytes.size() - at < n) return false;
    std::memcpy(to, bytes.data() + at, n);
    at += n;
    return true;
  };
  char magic[8];
  uint32_t profile_size = 0;
  if (!take(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) {
    error = name + " is not a policy file";
    return false;
  }
  if (!take(&h.format, 4) || !take(&h.version, 4) || !take(&h.inputs, 4) || !take(&h.actions, 4) ||
      !take(&h.hidden, 4) || !take(&profile_size, 4) || bytes.size() - at < profile_size) {
    error = name + " is truncated";
    return false;
  }
  if (h.format != PolicyModel::kFormat) {
    error = name + " is a policy of file format " + std::to_string(h.format) +
            "; this version reads format " + std::to_string(PolicyModel::kFormat);
    return false;
  }
  if (h.version != static_cast<uint32_t>(kFeatureVersion)) {
    error = name + " was trained on features of version " + std::to_string(h.version) +
            "; this version computes version " + std::to_string(kFeatureVersion);
    return false;
  }
  const std::string_view profile = bytes.substr(at, profile_size);
  at += profile_size;
  std::string why;
  if (!plain_text(profile) || !parse_profile(profile, h.rules, why)) {
    error = name + ": " + (why.empty() ? "a profile that is not plain text" : why);
    return false;
  }
  if (h.hidden < 8 || h.hidden > static_cast<uint32_t>(PolicyModel::kMaxHidden) || h.hidden % 8 != 0) {
    error = name + " has a hidden layer of " + std::to_string(h.hidden) + " units (8 to " +
            std::to_string(PolicyModel::kMaxHidden) + ", by eights)";
    return false;
  }
  const int features = feature_count(h.rules), actions = ActionIds(h.rules).size();
  if (static_cast<int>(h.inputs) != features || static_cast<int>(h.actions) != actions) {
    error = name + " has " + std::to_string(h.inputs) + " features and " + std::to_string(h.actions) +
            " actions; profile " + profile_spec(h.rules) + " has " + std::to_string(features) + " and " +
            std::to_string(actions);
    return false;
  }
  return true;
}

}  // namespace

bool PolicyModel::from_bytes(std::string_view bytes, const std::string& name, PolicyModel& out,
                             std::string& error) {
  size_t at = 0;
  Header h;
  if (!read_header(bytes, at, name, h, error)) return false;
  PolicyModel m(h.rules, static_cast<int>(h.hidden));
  size_t need = 0;
  for (const auto* v : {&m.mean_, &m.scale_, &m.w_, &m.b_, &m.e_, &m.c_}) need += v->size() * sizeof(float);
  if (bytes.size() - at != need) {
    error = name + (bytes.size() - at < need ? " is truncated" : " has bytes after the policy");
    return false;
  }
  for (auto* v : {&m.mean_, &m.scale_, &m.w_, &m.b_, &m.e_, &m.c_}) {
    std::memcpy(v->data(), bytes.data() + at, v->size() * sizeof(float));
    at += v->size() * sizeof(float);
  }
  // Every number finite, the scales positive: a NaN would rank nothing.
  const auto finite = [](const std::vector<float>& v) {
    return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
  };
  if (!finite(m.mean_) || !finite(m.scale_) || !finite(m.w_) || !finite(m.b_) || !finite(m.e_) ||
      !finite(m.c_) || !std::all_of(m.scale_.begin(), m.scale_.end(), [](float x) { return x > 0; })) {
    error = name + " holds a number that is not finite (or a scale not above 0)";
    return false;
  }
  m.prepare();
  out = std::move(m);
  return true;
}

namespace {

// Loads once per process, by key: a file's path or "default:PROFILE".
std::shared_ptr<const PolicyModel> shared(const std::string& key,
                                          const std::function<bool(PolicyModel&, std::string&)>& load) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const PolicyModel>> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = loaded[key];
  if (!slot) {
    auto model = std::make_shared<PolicyModel>();
    std::string error;
    if (!load(*model, error)) {
      loaded.erase(key);
      throw std::runtime_error(error);
    }
    slot = std::move(model);
  }
  return slot;
}

}  // namespace

std::shared_ptr<const PolicyModel> policy_for(const std::string& name, const Rules& rules) {
  if (name != "default") {
    auto model =
        shared(name, [&](PolicyModel& m, std::string& error) { return PolicyModel::load(name, m, error); });
    if (const std::string why = model->misfit(rules); !why.empty())
      throw std::runtime_error("the policy '" + printable(name) + "' " + why);
    return model;
  }
  // The built-in policy of the same profile, else of one with the same
  // table and actions (a profile with overrides such as a target score).
  std::shared_ptr<const PolicyModel> pick;
  for (const BuiltInPolicy& b : built_in_policies()) {
    auto model = shared("default:" + std::string(b.profile), [&](PolicyModel& m, std::string& error) {
      return PolicyModel::from_bytes(b.bytes, "the built-in " + std::string(b.profile) + " policy", m, error);
    });
    if (model->rules() == rules) return model;
    if (!pick && model->rules().wild_melds == rules.wild_melds && model->misfit(rules).empty()) pick = model;
  }
  if (!pick)
    throw std::runtime_error("no policy is built in for profile " + profile_spec(rules) +
                             ": give one with model=FILE (prior=FILE)");
  return pick;
}

AgentPolicy::AgentPolicy(std::string name) : name_(std::move(name)) {
  if (!name_.empty() && name_ != "default")
    model_ =
        shared(name_, [&](PolicyModel& m, std::string& error) { return PolicyModel::load(name_, m, error); });
}

const PolicyModel* AgentPolicy::for_game(const Rules& rules) {
  if (name_.empty()) return nullptr;
  if (!model_ || !(rules_ == rules)) {
    model_ = policy_for(name_, rules);
    rules_ = rules;
  }
  return model_.get();
}

}  // namespace canasta
