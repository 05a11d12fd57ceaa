#include "canasta/value_model.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>

#include "canasta/input_file.h"
#include "canasta/profile.h"
#include "canasta/text.h"
#include "dense.h"

namespace canasta {

namespace {

constexpr char kMagic[8] = {'C', 'N', 'V', 'A', 'L', 'U', 'E', '\0'};

}  // namespace

ValueModel::ValueModel(const Rules& rules, std::vector<int> hidden)
    : rules_(rules), inputs_(feature_count(rules)), hidden_(std::move(hidden)) {
  mean_.assign(static_cast<size_t>(inputs_), 0.0F);
  scale_.assign(static_cast<size_t>(inputs_), 1.0F);
  int in = inputs_;
  for (int width : hidden_) {
    weights_.emplace_back(static_cast<size_t>(width * in), 0.0F);
    biases_.emplace_back(static_cast<size_t>(width), 0.0F);
    in = width;
  }
  weights_.emplace_back(static_cast<size_t>(in), 0.0F);
  biases_.emplace_back(1, 0.0F);
  prepare();
}

void ValueModel::prepare() {
  // w' (o, i) = w (o, i) / scale_i; b'_o = b_o - sum_i w (o, i) mean_i / scale_i.
  const int out = hidden_.empty() ? 1 : hidden_[0];
  first_w_ = weights_[0];
  first_b_ = biases_[0];
  for (int i = 0; i < inputs_; ++i) {
    const float s = scale_[static_cast<size_t>(i)], m = mean_[static_cast<size_t>(i)];
    for (int o = 0; o < out; ++o) {
      float& w = first_w_[static_cast<size_t>(i * out + o)];
      w /= s;
      first_b_[static_cast<size_t>(o)] -= w * m;
    }
  }
}

float ValueModel::predict(const float* x) const {
  // Column by column over the nonzero inputs only: the inner loops run over
  // outputs (vectorised), and the many zero features and inactive units cost
  // nothing.
  std::array<float, kMaxWidth> a, b;
  std::array<int, std::max(kMaxWidth, kMaxFeatures)> rows;
  float* cur = a.data();
  float* next = b.data();
  int out = hidden_.empty() ? 1 : hidden_[0];
  std::copy(first_b_.begin(), first_b_.end(), next);
  dense::add_rows(first_w_.data(), x, rows.data(), dense::nonzero_indices(x, inputs_, rows.data()), out,
                  next);
  if (hidden_.empty()) return next[0] * target_scale_;
  int in = out;
  for (size_t layer = 1; layer < weights_.size(); ++layer) {
    std::swap(cur, next);
    for (int i = 0; i < in; ++i) cur[i] = cur[i] > 0 ? cur[i] : 0;
    out = layer < hidden_.size() ? hidden_[layer] : 1;
    std::copy(biases_[layer].begin(), biases_[layer].end(), next);
    dense::add_rows(weights_[layer].data(), cur, rows.data(), dense::nonzero_indices(cur, in, rows.data()),
                    out, next);
    in = out;
  }
  return next[0] * target_scale_;
}

std::string ValueModel::misfit(const Rules& rules) const {
  if (rules_.players == rules.players && rules_.teams == rules.teams && inputs_ == feature_count(rules))
    return {};
  return "was trained on profile " + profile_spec(rules_) + ", not on " + profile_spec(rules);
}

float ValueModel::evaluate(const View& v) const {
  std::array<float, kMaxFeatures> x;
  features(v, x.data());
  return predict(x.data());
}

bool ValueModel::save(const std::string& path, std::string& error) const {
  std::string bytes(kMagic, sizeof kMagic);
  const auto u32 = [&](uint32_t v) { bytes.append(reinterpret_cast<const char*>(&v), 4); };
  const auto floats = [&](const std::vector<float>& v) {
    bytes.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
  };
  const std::string profile = profile_spec(rules_);
  u32(kFormat);
  u32(static_cast<uint32_t>(kFeatureVersion));
  u32(static_cast<uint32_t>(inputs_));
  u32(static_cast<uint32_t>(hidden_.size()));
  for (int width : hidden_) u32(static_cast<uint32_t>(width));
  u32(static_cast<uint32_t>(profile.size()));
  bytes += profile;
  floats({target_scale_, squash_});
  floats(mean_);
  floats(scale_);
  for (size_t layer = 0; layer < weights_.size(); ++layer) {
    floats(weights_[layer]);
    floats(biases_[layer]);
  }
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

bool ValueModel::load(const std::string& path, ValueModel& out, std::string& error) {
  // The widest model this version reads is a few MiB.
  constexpr uint64_t kMaxModelFile = uint64_t{16} << 20;
  std::string bytes;
  if (!read_input_file(path, kMaxModelFile, "a value model file", bytes, error)) return false;
  return from_bytes(bytes, "'" + printable(path) + "'", out, error);
}

bool ValueModel::from_bytes(std::string_view bytes, const std::string& name, ValueModel& out,
                            std::string& error) {
  size_t at = 0;
  const auto take = [&](void* to, size_t n) {
    if (bytes.size() - at < n) return false;
    std::memcpy(to, bytes.data() + at, n);
    at += n;
    return true;
  };
  uint32_t format = 0, version = 0, inputs = 0, layers = 0, profile_size = 0;
  char magic[8];
  if (!take(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) {
    error = name + " is not a value model file";
    return false;
  }
  if (!take(&format, 4) || !take(&version, 4) || !take(&inputs, 4) || !take(&layers, 4)) {
    error = name + " is truncated";
    return false;
  }
  if (format != 1 && format != kFormat) {
    error = name + " is a model of file format " + std::to_string(format) +
            "; this version reads formats 1 to " + std::to_string(kFormat);
    return false;
  }
  if (version != static_cast<uint32_t>(kFeatureVersion)) {
    error = name + " was trained on features of version " + std::to_string(version) +
            "; this version computes version " + std::to_string(kFeatureVersion);
    return false;
  }
  if (layers > static_cast<uint32_t>(kMaxLayers)) {
    error = name + " has " + std::to_string(layers) + " hidden layers (at most " +
            std::to_string(kMaxLayers) + ")";
    return false;
  }
  std::vector<int> hidden;
  for (uint32_t i = 0; i < layers; ++i) {
    uint32_t width = 0;
    if (!take(&width, 4)) {
      error = name + " is truncated";
      return false;
    }
    if (width < 1 || width > static_cast<uint32_t>(kMaxWidth)) {
      error = name + " has a hidden layer of " + std::to_string(width) + " units (1 to " +
              std::to_string(kMaxWidth) + ")";
      return false;
    }
    hidden.push_back(static_cast<int>(width));
  }
  if (!take(&profile_size, 4) || bytes.size() - at < profile_size) {
    error = name + " is truncated";
    return false;
  }
  const std::string profile(bytes.substr(at, profile_size));
  at += profile_size;
  Rules rules;
  std::string why;
  if (!parse_profile(profile, rules, why)) {
    error = name + ": " + why;
    return false;
  }
  if (static_cast<int>(inputs) != feature_count(rules)) {
    error = name + " has " + std::to_string(inputs) + " features; profile " + printable(profile) + " has " +
            std::to_string(feature_count(rules));
    return false;
  }
  ValueModel m(rules, hidden);
  const auto floats = [&](std::vector<float>& v) { return take(v.data(), v.size() * sizeof(float)); };
  bool ok = take(&m.target_scale_, sizeof(float)) && (format < 2 || take(&m.squash_, sizeof(float))) &&
            floats(m.mean_) && floats(m.scale_);
  if (ok && !(m.squash_ >= 0 && m.squash_ < 1e9F)) {
    error = name + " has a squash of " + std::to_string(m.squash_) + " (0, or a positive scale)";
    return false;
  }
  for (size_t layer = 0; ok && layer < m.weights_.size(); ++layer)
    ok = floats(m.weights_[layer]) && floats(m.biases_[layer]);
  if (!ok) {
    error = name + " is truncated";
    return false;
  }
  if (at != bytes.size()) {
    error = name + " has " + std::to_string(bytes.size() - at) + " bytes after the model";
    return false;
  }
  // Every number finite (and the scales positive): a model with a NaN or an
  // infinity evaluates to NaN, which no search can rank positions by.
  const auto finite = [](const std::vector<float>& v) {
    return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
  };
  bool numbers = std::isfinite(m.target_scale_) && m.target_scale_ > 0 && finite(m.mean_) &&
                 finite(m.scale_) &&
                 std::all_of(m.scale_.begin(), m.scale_.end(), [](float x) { return x > 0; });
  for (size_t layer = 0; numbers && layer < m.weights_.size(); ++layer)
    numbers = finite(m.weights_[layer]) && finite(m.biases_[layer]);
  if (!numbers) {
    error = name + " holds a number that is not finite (or a scale that is not positive)";
    return false;
  }
  m.prepare();
  out = std::move(m);
  return true;
}

namespace {

// Loads once per process, by key: a file's path or "default:PROFILE".
std::shared_ptr<const ValueModel> shared(const std::string& key,
                                         const std::function<bool(ValueModel&, std::string&)>& load) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const ValueModel>> loaded;
  const std::lock_guard<std::mutex> lock(mutex);
  auto& slot = loaded[key];
  if (!slot) {
    auto model = std::make_shared<ValueModel>();
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

std::shared_ptr<const ValueModel> shared_value_model(const std::string& path) {
  return shared(path, [&](ValueModel& m, std::string& error) { return ValueModel::load(path, m, error); });
}

std::shared_ptr<const ValueModel> value_model_for(const std::string& eval, const Rules& rules) {
  if (eval != "default") {
    auto model = shared_value_model(eval);
    if (const std::string why = model->misfit(rules); !why.empty())
      throw std::runtime_error("the value model '" + printable(eval) + "' " + why);
    return model;
  }
  // The built-in model of the same profile, else of the same table and kind
  // of melds (a profile with overrides such as a target score).
  const auto same_game = [&](const Rules& m) {
    return m.players == rules.players && m.teams == rules.teams && m.wild_melds == rules.wild_melds &&
           m.closed_canastas == rules.closed_canastas;
  };
  std::shared_ptr<const ValueModel> pick;
  for (const BuiltInModel& b : built_in_value_models()) {
    auto model = shared("default:" + std::string(b.profile), [&](ValueModel& m, std::string& error) {
      return ValueModel::from_bytes(b.bytes, "the built-in " + std::string(b.profile) + " model", m, error);
    });
    if (model->rules() == rules) return model;
    if (!pick && same_game(model->rules()) && model->misfit(rules).empty()) pick = model;
  }
  if (!pick)
    throw std::runtime_error("no value model is built in for profile " + profile_spec(rules) +
                             ": give one with eval=FILE");
  return pick;
}

AgentModel::AgentModel(std::string eval) : eval_(std::move(eval)) {
  if (!eval_.empty() && eval_ != "default") model_ = shared_value_model(eval_);
}

const ValueModel* AgentModel::for_game(const Rules& rules) {
  if (eval_.empty()) return nullptr;
  if (!model_ || !(rules_ == rules)) {
    model_ = value_model_for(eval_, rules);
    rules_ = rules;
  }
  return model_.get();
}

}  // namespace canasta
