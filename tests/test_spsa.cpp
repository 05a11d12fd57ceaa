// The SPSA tuner: reproducible from its seed at any thread count, refusing
// bad configurations, and moving a parameter the way the results point.
#include <gtest/gtest.h>

#include "canasta/spsa.h"
#include "helpers.h"

namespace canasta::test {
namespace {

SpsaConfig config(const std::string& agent, std::vector<SpsaParam> params) {
  SpsaConfig c;
  c.agent = agent_spec(agent);
  c.params = std::move(params);
  c.batches = 12;
  c.pairs = 20;
  c.seed = 5;
  return c;
}

std::vector<SpsaStep> run(const SpsaConfig& c) {
  std::vector<SpsaStep> steps;
  std::string error;
  EXPECT_TRUE(run_spsa(
      c, [&](const SpsaStep& s) { steps.push_back(s); }, error))
      << error;
  return steps;
}

TEST(Spsa, SameTrajectoryOnOneAndTwoThreads) {
  SpsaConfig c = config("heuristic", {{"take_min", 1}, {"safety", 30}, {"out_lead", 60}});
  c.threads = 1;
  const auto one = run(c);
  c.threads = 2;
  const auto two = run(c);
  ASSERT_EQ(one.size(), 12U);
  ASSERT_EQ(two.size(), one.size());
  for (size_t i = 0; i < one.size(); ++i) {
    EXPECT_EQ(one[i].theta, two[i].theta) << "batch " << i;
    EXPECT_EQ(one[i].result, two[i].result) << "batch " << i;
    EXPECT_EQ(one[i].plus, two[i].plus) << "batch " << i;
  }
  // Something happened: the perturbed agents differed and the parameters moved.
  EXPECT_NE(one.front().plus, one.front().minus);
  std::vector<double> start;
  for (const SpsaParam& p : c.params)
    for (const AgentParamInfo& info : agent_params(c.agent))
      if (info.name == p.name) start.push_back(info.value);
  ASSERT_EQ(start.size(), 3U);
  EXPECT_NE(one.back().theta, start);
  // Another seed, other deals and signs: another trajectory.
  c.seed = 6;
  EXPECT_NE(run(c).back().theta, one.back().theta);
}

TEST(Spsa, AgainstAFixedOpponentToo) {
  SpsaConfig c = config("greedy", {{"take_min", 1}});
  c.vs = agent_spec("random");
  c.threads = 1;
  const auto one = run(c);
  c.threads = 2;
  const auto two = run(c);
  ASSERT_EQ(one.size(), two.size());
  EXPECT_EQ(one.back().theta, two.back().theta);
}

TEST(Spsa, MovesTowardTheBetterValue) {
  // greedy that never takes a pile of fewer than 60 cards (so, almost never)
  // against random: taking piles pays, so the tuner must lower take_min.
  SpsaConfig c = config("greedy:take_min=60", {{"take_min", 8}});
  c.vs = agent_spec("random");
  c.objective = SpsaObjective::kMargin;
  c.batches = 30;
  c.pairs = 50;
  c.r_end = 0.05;
  const auto steps = run(c);
  ASSERT_FALSE(steps.empty());
  EXPECT_LT(steps.back().theta[0], 40) << spsa_agent(c, steps.back().theta).to_string();
}

TEST(Spsa, RefusesBadConfigurations) {
  // Each refused for its own reason: the message of this call alone.
  const auto refusal = [](const SpsaConfig& c) {
    std::string error;
    EXPECT_FALSE(check_spsa(c, error));
    return error;
  };
  const auto says = [](const std::string& error, const char* words) {
    return error.find(words) != std::string::npos;
  };
  std::string error = refusal(config("heuristic", {}));
  EXPECT_TRUE(says(error, "no parameter to tune")) << error;
  error = refusal(config("heuristic", {{"colour", 1}}));
  EXPECT_TRUE(says(error, "no parameter 'colour'")) << error;
  error = refusal(config("ismcts", {{"rollout", 1}}));
  EXPECT_TRUE(says(error, "not a number")) << error;
  error = refusal(config("heuristic", {{"safety", 0}}));
  EXPECT_TRUE(says(error, "the perturbation of 'safety' must be a number above 0")) << error;
  error = refusal(config("heuristic", {{"safety", 5}, {"safety", 5}}));
  EXPECT_TRUE(says(error, "twice")) << error;
  EXPECT_TRUE(check_spsa(config("ismcts", {{"c", 0.1}}), error)) << error;
}

TEST(Spsa, IntegerParametersAreRoundedAndClamped) {
  const SpsaConfig c = config("heuristic", {{"take_min", 1}, {"safety", 10}});
  EXPECT_EQ(spsa_agent(c, {2.6, -40}).to_string(), "heuristic:take_min=3,safety=0");
  EXPECT_EQ(spsa_agent(c, {1000, 99.4}).to_string(), "heuristic:take_min=100,safety=99");
}

}  // namespace
}  // namespace canasta::test
