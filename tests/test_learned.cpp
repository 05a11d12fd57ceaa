// Learned evaluations: features from a View only, model files, samples and
// training (agents/doc/learned.md).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "canasta/engine.h"
#include "canasta/features.h"
#include "canasta/game.h"
#include "canasta/learn.h"
#include "canasta/profile.h"
#include "canasta/selfplay.h"
#include "canasta/value_model.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// Per process: ctest runs the tests of this file side by side.
std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "canasta_learned_" + std::to_string(::getpid()) + "_" + name;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// Two states that differ only in what a seat cannot see give it the same
// features, over random positions of every profile; the count is exact.
TEST(Features, DependOnTheViewOnly) {
  for (const Profile& p : profiles()) {
    const int n = feature_count(p.rules);
    ASSERT_LE(n, kMaxFeatures);
    std::vector<float> a(static_cast<size_t>(kMaxFeatures) + 1, -7.0F), b = a;
    Rng rng(derive_seed(3, Stream::kTest, 0));
    ActionList list;
    int compared = 0;
    bool differ = false;
    for (int deal = 0; deal < test::test_deals(20, 200); ++deal) {
      State s;
      start_single_deal(s, p.rules, 21, deal);
      for (int step = 0; !s.over(); ++step) {
        if (step % 7 == 0) {
          const int seat = static_cast<int>(rng.below(p.rules.players));
          const View v(s, seat);
          const State other = v.determinize(rng);
          differ |= !(other.hand == s.hand && other.deck == s.deck);
          features(v, a.data());
          features(View(other, seat), b.data());
          ASSERT_EQ(a, b) << p.name << " deal " << deal << " step " << step;
          ASSERT_NE(a[static_cast<size_t>(n - 1)], -7.0F);  // every number written ...
          ASSERT_EQ(a[static_cast<size_t>(n)], -7.0F);      // ... and no more
          ++compared;
        }
        legal_actions(s, list);
        apply(s, list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
      }
    }
    EXPECT_GT(compared, 50);
    EXPECT_TRUE(differ);  // the hidden cards did change
  }
  EXPECT_EQ(feature_count(classic_rules()), 322);
}

// The named places of the layout hold what they name, relative to the
// seat, over random positions of every profile.
TEST(Features, NamedPlacesHoldWhatTheyName) {
  for (const Profile& p : profiles()) {
    const Rules& r = p.rules;
    const FeatureLayout at = feature_layout(r);
    EXPECT_EQ(at.size, feature_count(r));
    std::vector<float> x(static_cast<size_t>(at.size));
    const auto f = [&](int i) { return x[static_cast<size_t>(i)]; };
    Rng rng(derive_seed(4, Stream::kTest, 0));
    ActionList list;
    for (int deal = 0; deal < test::test_deals(5, 50); ++deal) {
      State s;
      start_single_deal(s, r, 22, deal);
      for (int step = 0; !s.over(); ++step) {
        const int seat = static_cast<int>(rng.below(r.players));
        const View v(s, seat);
        features(v, x.data());
        for (int k = 0; k < kKindNb; ++k) ASSERT_EQ(f(at.hand + k), v.hand().count(k));
        for (int i = 0; i < r.teams; ++i) {
          const int team = (r.team_of(seat) + i) % r.teams;
          ASSERT_EQ(f(at.side(i) + kSideNaturals + kAce), v.melds(team).naturals.count(kAce));
          ASSERT_EQ(f(at.side(i) + kSideRedThrees), v.team_red_threes(team));
          ASSERT_EQ(f(at.side(i) + kSideOpened), v.melds(team).any() ? 1 : 0);
          ASSERT_EQ(f(at.side(i) + kSideScoreBefore), static_cast<float>(v.score_before(team) / kScoreScale));
          ASSERT_EQ(f(at.side(i) + kSideTableScore), static_cast<float>(v.table_score(team) / kScoreScale));
        }
        for (int i = 0; i < r.players; ++i) {
          const int other = (seat + i) % r.players;
          ASSERT_EQ(f(at.seat(i) + kSeatHandSize), v.hand_size(other));
          ASSERT_EQ(f(at.actor + i), other == v.actor() ? 1 : 0);
        }
        ASSERT_EQ(f(at.table + kTablePileSize), v.pile_size());
        ASSERT_EQ(f(at.table + kTableStockSize), v.stock_size());
        ASSERT_EQ(f(at.table + kTablePhase + static_cast<int>(v.phase())), 1);
        ASSERT_EQ(f(at.table + kTableTurnValue), static_cast<float>(v.turn_value() / kTurnValueScale));
        legal_actions(s, list);
        apply(s, list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
      }
    }
  }
}

ValueModel random_model(const Rules& r, std::vector<int> hidden, uint64_t seed) {
  ValueModel m(r, std::move(hidden));
  Rng rng(seed);
  for (int layer = 0; layer < m.layers(); ++layer) {
    for (float& w : m.weights(layer)) w = static_cast<float>(rng.uniform() - 0.5);
    for (float& b : m.biases(layer)) b = static_cast<float>(rng.uniform() - 0.5);
  }
  for (float& x : m.mean()) x = static_cast<float>(rng.uniform());
  for (float& x : m.scale()) x = static_cast<float>(0.5 + rng.uniform());
  m.target_scale() = 700;
  m.prepare();
  return m;
}

TEST(ValueModel, RoundTripsThroughItsFileBitForBit) {
  for (const std::vector<int>& hidden : {std::vector<int>{}, std::vector<int>{16, 8}}) {
    ValueModel m = random_model(spanish_rules(), hidden, 4);
    if (!hidden.empty()) m.squash() = 300;  // a model of the squashed margin
    const std::string path = temp_path("model");
    std::string error;
    ASSERT_TRUE(m.save(path, error)) << error;
    ValueModel back;
    ASSERT_TRUE(ValueModel::load(path, back, error)) << error;
    EXPECT_TRUE(back == m);
    const std::string first = bytes_of(path);
    ASSERT_TRUE(back.save(path, error)) << error;
    EXPECT_EQ(bytes_of(path), first);
    // The same predictions as the model it came from, and the folded
    // standardisation agrees with the plain formula for the linear one.
    State s;
    start_single_deal(s, spanish_rules(), 2, 0);
    EXPECT_EQ(back.evaluate(View(s, 1)), m.evaluate(View(s, 1)));
    if (hidden.empty()) {
      std::vector<float> x(static_cast<size_t>(m.inputs()));
      features(View(s, 1), x.data());
      double plain = m.biases(0)[0];
      for (int i = 0; i < m.inputs(); ++i)
        plain += m.weights(0)[static_cast<size_t>(i)] *
                 (x[static_cast<size_t>(i)] - m.mean()[static_cast<size_t>(i)]) /
                 m.scale()[static_cast<size_t>(i)];
      EXPECT_NEAR(m.predict(x.data()), plain * 700, 1e-2 * std::abs(plain * 700) + 1e-2);
    }
    std::remove(path.c_str());
  }
}

// The forward pass (which skips zero inputs and inactive units, and has its
// own code for layers 16, 32 and 64 wide) agrees with the plain formula, in
// double precision, for every layer shape, over positions of random deals.
TEST(ValueModel, PredictsWhatThePlainFormulaGives) {
  const Rules r = spanish_rules();
  for (const std::vector<int>& hidden :
       {std::vector<int>{}, std::vector<int>{64, 32}, std::vector<int>{16, 8}, std::vector<int>{24},
        std::vector<int>{32, 64, 16}}) {
    const ValueModel m = random_model(r, hidden, 6);
    std::vector<float> x(static_cast<size_t>(m.inputs()));
    int checked = 0;
    for (int deal = 0; deal < 3; ++deal) {
      State s;
      start_single_deal(s, r, 8, static_cast<uint64_t>(deal));
      Rng rng(static_cast<uint64_t>(deal) + 1);
      ActionList list;
      for (int step = 0; !s.over(); ++step) {
        if (step % 7 == 0) {
          features(View(s, s.actor()), x.data());
          std::vector<double> a(x.size());
          for (size_t i = 0; i < x.size(); ++i) a[i] = (x[i] - m.mean()[i]) / m.scale()[i];
          for (int layer = 0; layer < m.layers(); ++layer) {
            const std::vector<float>& w = m.weights(layer);
            const std::vector<float>& b = m.biases(layer);
            std::vector<double> next(b.begin(), b.end());
            for (size_t i = 0; i < a.size(); ++i)
              for (size_t o = 0; o < next.size(); ++o) next[o] += w[i * next.size() + o] * a[i];
            if (layer + 1 < m.layers())
              for (double& v : next) v = std::max(v, 0.0);
            a = std::move(next);
          }
          const double plain = a[0] * 700;
          EXPECT_NEAR(m.predict(x.data()), plain, 1e-4 * std::abs(plain) + 1e-2)
              << "layers " << hidden.size();
          ++checked;
        }
        legal_actions(s, list);
        apply(s, list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
      }
    }
    EXPECT_GT(checked, 30);
  }
}

TEST(ValueModel, BadFilesAreRefusedWithOneLine) {
  const ValueModel m = random_model(classic_rules(), {8}, 5);
  const std::string path = temp_path("bad");
  std::string error;
  ASSERT_TRUE(m.save(path, error));
  const std::string good = bytes_of(path);
  const auto refused = [&](const std::string& bytes, const std::string& expect) {
    write_bytes(path, bytes);
    ValueModel out;
    std::string why;
    EXPECT_FALSE(ValueModel::load(path, out, why));
    EXPECT_NE(why.find(expect), std::string::npos) << why;
    EXPECT_EQ(why.find('\n'), std::string::npos);
  };
  refused(good.substr(0, good.size() - 3), "is truncated");
  refused(good.substr(0, 30), "is truncated");
  refused(good + "x", "bytes after the model");
  refused("not a model at all", "is not a value model file");
  std::string other = good;
  other[8] = 9;  // the file format
  refused(other, "file format 9");
  other = good;
  other[12] = 99;  // the feature version
  refused(other, "features of version 99");
  other = good;
  other[16] = static_cast<char>(other[16] + 1);  // the feature count
  refused(other, "323 features");
  // A model of file format 1 (before the squash was written) is read as a
  // model of the margin; a bad squash is refused.
  ASSERT_EQ(good[8], 2);
  const size_t squash_at = 28 + 4 * m.hidden().size() + profile_spec(classic_rules()).size() + 4;
  std::string old = good.substr(0, squash_at) + good.substr(squash_at + 4);
  old[8] = 1;
  write_bytes(path, old);
  ValueModel back;
  ASSERT_TRUE(ValueModel::load(path, back, error)) << error;
  EXPECT_TRUE(back == m);
  other = good;
  const float negative = -1;
  other.replace(squash_at, 4, reinterpret_cast<const char*>(&negative), 4);
  refused(other, "squash");
  std::remove(path.c_str());
  ValueModel out;
  EXPECT_FALSE(ValueModel::load(temp_path("missing"), out, error));
  EXPECT_NE(error.find("cannot read"), std::string::npos);
}

// Samples of random deals, through the file.
SampleSet random_samples(int deals, uint64_t seed = 8, const Rules& r = classic_rules()) {
  std::string bytes;
  ActionList list;
  for (int deal = 0; deal < deals; ++deal) {
    State s;
    start_single_deal(s, r, seed, deal);
    DealRecord rec;
    begin_single_record(rec, s, seed, deal);
    Rng rng(derive_seed(seed, Stream::kTest, static_cast<uint64_t>(deal)));
    while (!s.over()) {
      legal_actions(s, list);
      const Action a = list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))];
      rec.actions.emplace_back(s.actor(), a);
      apply(s, a);
    }
    append_samples(rec, seed, deal, 5, bytes);
  }
  const std::string path = temp_path("samples");
  const size_t record = 12 + 4 * static_cast<size_t>(feature_count(r));
  write_bytes(path, sample_file_header(r, "random against random", seed,
                                       static_cast<int64_t>(bytes.size() / record)) +
                        bytes);
  SampleSet set;
  std::string error;
  EXPECT_TRUE(read_samples(path, set, error)) << error;
  write_bytes(path, bytes_of(path).substr(0, 200));
  SampleSet bad;
  EXPECT_FALSE(read_samples(path, bad, error));
  EXPECT_NE(error.find("should hold"), std::string::npos) << error;
  std::remove(path.c_str());
  return set;
}

// Every sample of a deal is the actor's features at that step and the final
// margin of the actor's side (all steps sampled, so sample j is step j).
TEST(Samples, AreTheActorsFeaturesAndItsSidesFinalMargin) {
  const Rules r = spanish_table(6, 3);
  const int f = feature_count(r);
  ActionList list;
  for (int deal = 0; deal < 10; ++deal) {
    State s;
    start_single_deal(s, r, 9, deal);
    DealRecord rec;
    begin_single_record(rec, s, 9, deal);
    std::vector<std::vector<float>> want;
    Rng rng(derive_seed(9, Stream::kTest, static_cast<uint64_t>(deal)));
    while (!s.over()) {
      want.emplace_back(static_cast<size_t>(f));
      features(View(s, s.actor()), want.back().data());
      legal_actions(s, list);
      const Action a = list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))];
      rec.actions.emplace_back(s.actor(), a);
      apply(s, a);
    }
    const auto margin = deal_margins(s);
    std::string bytes;
    append_samples(rec, 9, deal, 100000, bytes);
    const size_t record = 12 + 4 * static_cast<size_t>(f);
    ASSERT_EQ(bytes.size(), rec.actions.size() * record);
    for (size_t j = 0; j < rec.actions.size(); ++j) {
      int64_t d = 0;
      float m = 0;
      std::vector<float> x(static_cast<size_t>(f));
      std::memcpy(&d, bytes.data() + j * record, 8);
      std::memcpy(&m, bytes.data() + j * record + 8, 4);
      std::memcpy(x.data(), bytes.data() + j * record + 12, 4 * static_cast<size_t>(f));
      ASSERT_EQ(d, deal);
      ASSERT_EQ(m, margin[static_cast<size_t>(r.team_of(rec.actions[j].first))])
          << "deal " << deal << " step " << j;
      ASSERT_EQ(x, want[j]) << "deal " << deal << " step " << j;
    }
    // A few steps only: still the margins of this deal's end.
    bytes.clear();
    append_samples(rec, 9, deal, 3, bytes);
    ASSERT_EQ(bytes.size(), 3 * record);
    for (size_t j = 0; j < 3; ++j) {
      float m = 0;
      std::memcpy(&m, bytes.data() + j * record + 8, 4);
      EXPECT_TRUE(m == margin[0] || m == margin[1] || m == margin[2]) << "deal " << deal << ": " << m;
    }
  }
}

// A perceptron of one hidden layer of 16 units, trained for a few epochs.
TrainConfig small_perceptron(int epochs) {
  TrainConfig config;
  config.hidden = {16};
  config.epochs = epochs;
  return config;
}

TEST(Training, IsReproducibleAndLearnsSomething) {
  const SampleSet data = random_samples(400);
  ASSERT_EQ(data.size(), 2000);
  ASSERT_EQ(data.features, 322);
  TrainConfig config = small_perceptron(3);
  ValueModel a, b;
  TrainResult ra, rb;
  std::string error;
  ASSERT_TRUE(train_value_model(data, config, a, ra, {}, error)) << error;
  ASSERT_TRUE(train_value_model(data, config, b, rb, {}, error)) << error;
  EXPECT_TRUE(a == b);
  EXPECT_EQ(ra.held_r2, rb.held_r2);
  EXPECT_GT(ra.held, 0);
  config.seed = 2;
  ValueModel c;
  ASSERT_TRUE(train_value_model(data, config, c, rb, {}, error));
  EXPECT_FALSE(a == c);
  // The linear model explains part of the margin on deals it has not seen.
  config.hidden.clear();
  ValueModel linear;
  TrainResult rl;
  ASSERT_TRUE(train_value_model(data, config, linear, rl, {}, error));
  EXPECT_GT(rl.held_r2, 0.05);
}

// With a squash S the target is tanh(final margin / S), the model says so
// (and keeps it through its file), and the table as it stands is compared
// squashed the same way.
TEST(Training, FitsTheSquashedMargin) {
  const SampleSet data = random_samples(400);
  TrainConfig config = small_perceptron(2);
  ValueModel plain, squashed;
  TrainResult rp, rs;
  std::string error;
  ASSERT_TRUE(train_value_model(data, config, plain, rp, {}, error)) << error;
  config.squash = 300;
  ASSERT_TRUE(train_value_model(data, config, squashed, rs, {}, error)) << error;
  EXPECT_EQ(plain.squash(), 0);
  EXPECT_EQ(squashed.squash(), 300);
  ASSERT_EQ(rs.held_out.size(), rp.held_out.size());
  for (size_t i = 0; i < rs.held_out.size(); ++i)
    ASSERT_NEAR(rs.held_out[i].second, std::tanh(rp.held_out[i].second / 300.0), 1e-5) << i;
  EXPECT_NE(rs.table_r2, rp.table_r2);
  // Further training keeps the squash of the model it starts from.
  config.squash = 0;
  config.init = &squashed;
  ValueModel next;
  ASSERT_TRUE(train_value_model(data, config, next, rs, {}, error)) << error;
  EXPECT_EQ(next.squash(), 300);
}

// Expert iteration: training further from a model starts from that model
// as it is (epoch 0, kept unless an epoch does better on the held-out deals)
// with its scaling, and refuses one of other layers or another table.
TEST(Training, StartsFromAModel) {
  const SampleSet data = random_samples(400);
  TrainConfig config = small_perceptron(2);
  ValueModel first;
  TrainResult r0;
  std::string error;
  ASSERT_TRUE(train_value_model(data, config, first, r0, {}, error)) << error;
  const SampleSet more = random_samples(300, 77);
  config.init = &first;
  std::vector<EpochReport> epochs;
  ValueModel next, again;
  TrainResult r1, r2;
  ASSERT_TRUE(train_value_model(
      more, config, next, r1, [&](const EpochReport& e) { epochs.push_back(e); }, error))
      << error;
  ASSERT_TRUE(train_value_model(more, config, again, r2, {}, error)) << error;
  EXPECT_TRUE(next == again);
  ASSERT_GE(epochs.size(), 2U);
  EXPECT_EQ(epochs[0].epoch, 0);
  EXPECT_EQ(next.mean(), first.mean());
  EXPECT_EQ(next.scale(), first.scale());
  EXPECT_EQ(next.target_scale(), first.target_scale());
  double best = epochs[0].held_loss;
  for (const auto& e : epochs) best = std::min(best, e.held_loss);
  EXPECT_EQ(epochs[static_cast<size_t>(r1.best_epoch)].held_loss, best);
  if (r1.best_epoch == 0) {
    EXPECT_TRUE(next == first);
  } else {
    EXPECT_FALSE(next.weights(0) == first.weights(0));
  }
  config.hidden = {8};
  EXPECT_FALSE(train_value_model(more, config, again, r2, {}, error));
  EXPECT_NE(error.find("hidden layers"), std::string::npos) << error;
  config.hidden = {16};
  SampleSet other = random_samples(300, 77, spanish_table(6, 3));
  EXPECT_FALSE(train_value_model(other, config, again, r2, {}, error));
  EXPECT_NE(error.find("does not fit"), std::string::npos) << error;
}

// The models built into the program (eval=default) are valid models of
// their profiles; a game gets the one of its profile, or of the same game
// with overrides, and is refused at a table none was trained for.
// The held-out samples in bins of equal size by prediction, each with its means.
TEST(Training, CalibrationBinsByPrediction) {
  TrainResult r;
  for (int i = 44; i >= 0; --i) r.held_out.emplace_back(static_cast<float>(i), static_cast<float>(2 * i));
  const std::vector<CalibrationBin> bins = calibration_bins(r, 20);
  ASSERT_EQ(bins.size(), 20U);
  size_t samples = 0, first = 0;
  for (const CalibrationBin& b : bins) {
    EXPECT_TRUE(b.samples == 2 || b.samples == 3);
    // Predictions first .. first + samples - 1, in order.
    EXPECT_DOUBLE_EQ(b.predicted, static_cast<double>(first) + static_cast<double>(b.samples - 1) / 2);
    EXPECT_DOUBLE_EQ(b.final, 2 * b.predicted);
    first += b.samples;
    samples += b.samples;
  }
  EXPECT_EQ(samples, 45U);
  r.held_out.resize(3);
  EXPECT_EQ(calibration_bins(r, 20).size(), 3U);  // fewer samples than bins
}

TEST(ValueModel, TheBuiltInModelsLoad) {
  std::vector<std::string> names;
  for (const BuiltInModel& b : built_in_value_models()) {
    ValueModel m;
    std::string error;
    ASSERT_TRUE(ValueModel::from_bytes(b.bytes, "the built-in model", m, error)) << error;
    Rules rules;
    ASSERT_TRUE(parse_profile(b.profile, rules, error)) << error;
    EXPECT_EQ(m.rules(), rules) << b.profile;
    const auto picked = value_model_for("default", rules);
    EXPECT_EQ(picked.get(), value_model_for("default", rules).get());  // loaded once
    State s;
    start_single_deal(s, rules, 3, 0);
    EXPECT_EQ(m.evaluate(View(s, 0)), picked->evaluate(View(s, 0))) << b.profile;
    names.emplace_back(b.profile);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"classic", "spanish-2p", "spanish-3p", "spanish-6p",
                                             "spanish-6p3", "spanish", "two-player"}));
  Rules r;
  std::string error;
  ASSERT_TRUE(parse_profile("classic,target=3000", r, error)) << error;
  EXPECT_EQ(value_model_for("default", r)->rules(), classic_rules());
  EXPECT_EQ(value_model_for("default", spanish_rules())->rules(), spanish_rules());
  EXPECT_EQ(value_model_for("default", two_player_rules())->rules(), two_player_rules());
  EXPECT_EQ(value_model_for("default", spanish_table(2, 2))->rules(), spanish_table(2, 2));
}

}  // namespace
}  // namespace canasta::test
