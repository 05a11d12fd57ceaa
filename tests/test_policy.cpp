// The learned policy: probabilities over the legal actions only, from the
// acting seat's view only; its file, refused with one line when it is not
// this version's or not this table's; the policy agent; the search with a
// prior; and the policy targets of a search's self-play, the same at any
// thread count.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <numeric>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/policy_model.h"
#include "canasta/policy_samples.h"
#include "canasta/profile.h"
#include "canasta/value_model.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// A policy of `rules` with small random weights (seeded): every action has
// its own score.
PolicyModel random_policy(const Rules& rules, int hidden, uint64_t seed) {
  PolicyModel m(rules, hidden);
  Rng rng(derive_seed(seed, Stream::kTest, 1));
  const auto fill = [&](std::vector<float>& v, double size) {
    for (float& x : v) x = static_cast<float>((rng.uniform() - 0.5) * size);
  };
  fill(m.hidden_weights(), 0.2);
  fill(m.hidden_biases(), 0.2);
  fill(m.embeddings(), 1.0);
  fill(m.action_biases(), 1.0);
  for (float& s : m.scale()) s = 1.0F + static_cast<float>(rng.uniform());
  m.prepare();
  return m;
}

// Calls visit(state, legal, seat) at every fifth decision of random play of
// a few deals of every profile.
template <class Visit>
void at_decisions(Visit&& visit) {
  for (const Profile& p : profiles()) {
    Rng rng(derive_seed(5, Stream::kTest, 2));
    ActionList legal;
    for (int deal = 0; deal < test_deals(6, 50); ++deal) {
      State s;
      start_single_deal(s, p.rules, 17, deal);
      for (int step = 0; !s.over(); ++step) {
        legal_actions(s, legal);
        if (step % 5 == 0 && legal.size() > 1) visit(p, s, legal, s.actor(), rng);
        apply(s, legal[static_cast<int>(rng.below(static_cast<uint32_t>(legal.size())))]);
      }
    }
  }
}

TEST(Policy, ProbabilitiesOfTheLegalActionsSumToOne) {
  int checked = 0;
  at_decisions([&](const Profile& p, const State& s, const ActionList& legal, int seat, Rng&) {
    const PolicyModel m = random_policy(p.rules, 16, 3);
    std::vector<float> prob(static_cast<size_t>(legal.size()));
    m.probabilities(View(s, seat), legal, prob.data());
    double sum = 0;
    for (float x : prob) {
      ASSERT_GT(x, 0.0F);
      sum += x;
    }
    ASSERT_NEAR(sum, 1.0, 1e-5) << p.name;
    // The most likely action is the best one.
    const auto top = std::max_element(prob.begin(), prob.end()) - prob.begin();
    ASSERT_EQ(m.best(View(s, seat), legal), legal[static_cast<int>(top)]);
    ++checked;
  });
  EXPECT_GT(checked, 100);
}

TEST(Policy, ProbabilitiesDependOnTheViewOnly) {
  int redrawn = 0;
  at_decisions([&](const Profile& p, const State& s, const ActionList& legal, int seat, Rng& rng) {
    const PolicyModel m = random_policy(p.rules, 16, 4);
    const View v(s, seat);
    const State other = v.determinize(rng);
    redrawn += other.hand == s.hand ? 0 : 1;
    std::vector<float> a(static_cast<size_t>(legal.size())), b = a;
    m.probabilities(v, legal, a.data());
    m.probabilities(View(other, seat), legal, b.data());
    ASSERT_EQ(a, b) << p.name;
  });
  EXPECT_GT(redrawn, 50);
}

TEST(Policy, FileRoundTripsBitForBit) {
  for (const char* profile : {"classic", "spanish-6p3"}) {
    const PolicyModel m = random_policy(rules_of(profile), 24, 5);
    const std::string a = test_file_path("policy_a.policy"), b = test_file_path("policy_b.policy");
    std::string error;
    ASSERT_TRUE(m.save(a, error)) << error;
    PolicyModel back;
    ASSERT_TRUE(PolicyModel::load(a, back, error)) << error;
    EXPECT_TRUE(back == m);
    ASSERT_TRUE(back.save(b, error)) << error;
    EXPECT_EQ(file_contents(a), file_contents(b));
    std::remove(a.c_str());
    std::remove(b.c_str());
  }
}

TEST(Policy, BadFilesAreRefusedWithOneLine) {
  const PolicyModel m = random_policy(Rules{}, 16, 6);
  const std::string path = test_file_path("policy_bad.policy");
  std::string error;
  ASSERT_TRUE(m.save(path, error));
  const std::string good = file_contents(path);
  const auto with_u32 = [&](size_t at, uint32_t v) {
    std::string b = good;
    std::memcpy(b.data() + at, &v, 4);
    return b;
  };
  std::string nan = good;
  const float x = std::nanf("");
  std::memcpy(nan.data() + nan.size() - 4, &x, 4);
  const std::pair<std::string, const char*> bad[] = {
      {good.substr(0, good.size() - 3), "truncated"},
      {good.substr(0, 20), "truncated"},
      {good + "x", "bytes after"},
      {with_u32(8, 2), "file format 2"},
      {with_u32(12, kFeatureVersion + 1), "features of version"},
      {with_u32(20, 1000), "actions"},
      {with_u32(24, 12), "hidden layer of 12"},
      {nan, "not finite"},
      {"CNVALUE" + good.substr(7), "not a policy file"}};
  for (const auto& [bytes, words] : bad) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
    PolicyModel back;
    EXPECT_FALSE(PolicyModel::load(path, back, error)) << words;
    EXPECT_NE(error.find(words), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  std::remove(path.c_str());
  // A policy of another table is refused where it would play.
  EXPECT_NE(random_policy(rules_of("spanish"), 8, 1).misfit(Rules{}), "");
  EXPECT_EQ(random_policy(rules_of("classic"), 8, 1).misfit(rules_of("classic,target=3000")), "");
}

TEST(Policy, AgentAndSearchPlayDeterministically) {
  const std::string path = test_file_path("policy_play.policy");
  std::string error;
  ASSERT_TRUE(random_policy(Rules{}, 16, 7).save(path, error)) << error;
  for (const std::string& spec :
       {"policy:model=" + path, "policy:temperature=1,model=" + path, "ismcts:iters=60,prior=" + path,
        "ismcts:iters=60,rollout=policy,prior=" + path,
        "ismcts:iters=60,prior_rule=bias,c_puct=10,prior=" + path}) {
    SCOPED_TRACE(spec);
    std::string moves[2];
    for (std::string& m : moves) {
      State s;
      start_single_deal(s, Rules{}, 3, 1);
      const auto a = agent(spec);
      Rng rng(9);
      for (int i = 0; i < 40 && !s.over(); ++i) {
        const Action x = a->act(View(s, s.actor()), rng);
        m += action_to_string(x) + ";";
        apply(s, x);
      }
    }
    EXPECT_EQ(moves[0], moves[1]);
  }
  std::remove(path.c_str());
}

// With prior_rule=bias a node's first child is the action the policy likes
// most: a search of one iteration plays what the policy agent plays, in
// positions of every kind; without the prior, some seed plays another.
TEST(Policy, BiasRuleExpandsThePolicysChoiceFirst) {
  const std::string path = test_file_path("policy_bias.policy");
  std::string error;
  ASSERT_TRUE(random_policy(Rules{}, 16, 11).save(path, error)) << error;
  const auto apprentice = agent("policy:model=" + path);
  const auto search = agent("ismcts:iters=1,prior_rule=bias,prior=" + path);
  const auto blind = agent("ismcts:iters=1");
  State s;
  start_single_deal(s, Rules{}, 5, 2);
  Rng play(4);
  RandomAgent random;
  int choices = 0, other = 0;
  ActionList legal;
  while (!s.over()) {
    legal_actions(s, legal);
    const View view(s, s.actor());
    if (legal.size() > 1) {
      ++choices;
      Rng a(choices), b(choices), c(choices);
      const Action mine = apprentice->act(view, a);
      EXPECT_EQ(action_to_string(search->act(view, b)), action_to_string(mine)) << choices;
      other += !(blind->act(view, c) == mine);
    }
    apply(s, random.act(view, play));
  }
  EXPECT_GT(choices, 20);
  EXPECT_GT(other, 0);
  std::remove(path.c_str());
}

// Every profile of canasta rules has a policy and a value model built in:
// policy:model=default, ismcts:prior=default and eval=default play at every
// table.
TEST(Policy, EveryProfileHasABuiltInPolicyAndValueModel) {
  std::vector<std::string> policies;
  for (const BuiltInPolicy& b : built_in_policies()) policies.emplace_back(b.profile);
  for (const Profile& p : profiles()) {
    SCOPED_TRACE(p.name);
    EXPECT_NE(std::find(policies.begin(), policies.end(), p.name), policies.end());
    const auto policy = policy_for("default", p.rules);
    ASSERT_NE(policy, nullptr);
    EXPECT_EQ(policy->misfit(p.rules), "");
    EXPECT_EQ(policy.get(), policy_for("default", p.rules).get());  // loaded once
    EXPECT_NE(value_model_for("default", p.rules), nullptr);
    State s;
    start_single_deal(s, p.rules, 3, 0);
    ActionList legal;
    legal_actions(s, legal);
    std::vector<float> probs(static_cast<size_t>(legal.size()));
    policy->probabilities(View(s, s.actor()), legal, probs.data());
    EXPECT_NEAR(std::accumulate(probs.begin(), probs.end(), 0.0), 1.0, 1e-5);
    for (const std::string spec : {"policy:model=default", "ismcts:iters=20,prior=default,eval=default"}) {
      const auto a = agent(spec);
      Rng rng(3);
      EXPECT_TRUE(legal.contains(a->act(View(s, s.actor()), rng))) << spec;
    }
  }
}

TEST(PolicySamples, TheSameAtOneAndTwoThreads) {
  PolicySelfplay c;
  c.side0 = agent_spec("ismcts:iters=40");
  c.side1 = agent_spec("heuristic");
  c.deals = 6;
  c.share = 0.5;
  std::string bytes[2];
  int64_t deals = 0, samples[2] = {0, 0};
  for (int t = 0; t < 2; ++t) {
    c.threads = t + 1;
    std::string error;
    ASSERT_TRUE(play_policy_selfplay(
        c, [&](const std::string& b) { bytes[t] += b; }, nullptr, deals, samples[t], error))
        << error;
    EXPECT_EQ(deals, 6);
  }
  EXPECT_EQ(bytes[0], bytes[1]);
  ASSERT_GT(samples[0], 10);
  // Read back: every sample a decision of side 0's search, its visits summed.
  const std::string path = test_file_path("policy_samples.bin");
  std::ofstream(path, std::ios::binary)
      << policy_sample_header(c.rules, "test", c.seed, samples[0]) << bytes[0];
  PolicySamples s;
  std::string error;
  ASSERT_TRUE(read_policy_samples(path, s, error)) << error;
  ASSERT_EQ(s.size(), samples[0]);
  for (int64_t i = 0; i < s.size(); ++i) {
    const int64_t n = s.offset[static_cast<size_t>(i) + 1] - s.offset[static_cast<size_t>(i)];
    ASSERT_GE(n, 2);
    ASSERT_LT(s.played[static_cast<size_t>(i)], n);
    const auto v = s.visits.begin() + s.offset[static_cast<size_t>(i)];
    EXPECT_GT(std::accumulate(v, v + n, uint64_t{0}), 0U);
  }
  // A count that claims more than the bytes hold is refused.
  std::ofstream(path, std::ios::binary)
      << policy_sample_header(c.rules, "test", c.seed, int64_t{1} << 60) << bytes[0];
  EXPECT_FALSE(read_policy_samples(path, s, error));
  EXPECT_NE(error.find("claims"), std::string::npos) << error;
  std::remove(path.c_str());
}

// The samples of a self-play, read back from a file.
PolicySamples policy_selfplay_samples(const PolicySelfplay& c) {
  std::string bytes, error;
  int64_t deals = 0, samples = 0;
  EXPECT_TRUE(play_policy_selfplay(
      c, [&](const std::string& b) { bytes += b; }, nullptr, deals, samples, error))
      << error;
  const std::string path = test_file_path("teacher_samples.bin");
  std::ofstream(path, std::ios::binary) << policy_sample_header(c.rules, "test", c.seed, samples) << bytes;
  PolicySamples s;
  EXPECT_TRUE(read_policy_samples(path, s, error)) << error;
  std::remove(path.c_str());
  return s;
}

TEST(PolicySamples, ATeacherSetsTheTargetsAndNotTheMoves) {
  PolicySelfplay c;
  c.side0 = c.side1 = agent_spec("random");
  c.deals = 20;
  c.share = 1;
  c.threads = 1;
  const PolicySamples alone = policy_selfplay_samples(c);
  c.has_teacher = true;
  c.teacher = agent_spec("heuristic");
  const PolicySamples taught = policy_selfplay_samples(c);
  // The same deals played, the same decisions kept, the same moves.
  ASSERT_GT(alone.size(), 100);
  ASSERT_EQ(taught.size(), alone.size());
  EXPECT_EQ(taught.played, alone.played);
  EXPECT_EQ(taught.x, alone.x);
  EXPECT_EQ(taught.ids, alone.ids);
  // Alone, the one visit is the move played; taught, the heuristic's
  // choice, which a random player often does not make.
  int64_t differ = 0;
  for (int64_t i = 0; i < alone.size(); ++i) {
    const auto first = alone.offset[static_cast<size_t>(i)];
    const auto played = static_cast<size_t>(first + alone.played[static_cast<size_t>(i)]);
    const auto v = taught.visits.begin() + first;
    const int64_t n = alone.offset[static_cast<size_t>(i) + 1] - first;
    EXPECT_EQ(alone.visits[played], 1U);
    EXPECT_EQ(std::accumulate(v, v + n, uint64_t{0}), 1U);
    differ += taught.visits[played] == 0 ? 1 : 0;
  }
  EXPECT_GT(differ, alone.size() / 4);
  // A search as the teacher: its visits, the same file at 1 and 2 threads.
  c.teacher = agent_spec("ismcts:iters=40");
  c.deals = 4;
  const PolicySamples one = policy_selfplay_samples(c);
  c.threads = 2;
  const PolicySamples two = policy_selfplay_samples(c);
  EXPECT_EQ(one.visits, two.visits);
  EXPECT_GT(std::accumulate(one.visits.begin(), one.visits.end(), uint64_t{0}),
            static_cast<uint64_t>(one.size()) * 20);
}

}  // namespace
}  // namespace canasta::test
