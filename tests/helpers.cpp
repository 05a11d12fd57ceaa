#include "helpers.h"

#include <unistd.h>

#include <fstream>
#include <iterator>

namespace canasta::test {

std::string test_file_path(const std::string& name) {
  return ::testing::TempDir() + "canasta_" + std::to_string(::getpid()) + "_" + name;
}

std::string file_contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

State position(const std::string& text) {
  State s;
  std::string error;
  EXPECT_TRUE(parse_position(text, s, error)) << error << "\n" << text;
  return s;
}

Action action(const std::string& text) {
  Action a{};
  std::string error;
  EXPECT_TRUE(parse_action(text, a, error)) << error;
  return a;
}

bool legal(const State& s, const std::string& text) { return is_legal(s, action(text)); }

void play(State& s, const std::string& text) {
  const Action a = action(text);
  ASSERT_TRUE(is_legal(s, a)) << text << " is not legal; legal: " << legal_list(s) << "\n"
                              << position_to_string(s);
  apply(s, a);
}

void expect_out(State& s, std::initializer_list<const char*> actions, bool concealed, int bonus) {
  for (const char* a : actions) play(s, a);
  ASSERT_EQ(s.end, EndReason::kWentOut);
  EXPECT_EQ(s.concealed != 0, concealed);
  EXPECT_EQ(deal_score(s)[0].going_out, bonus);
}

std::string legal_list(const State& s) {
  ActionList list;
  legal_actions(s, list);
  std::string out;
  for (Action a : list) {
    out += out.empty() ? "" : " | ";
    out += action_to_string(a);
  }
  return out;
}

}  // namespace canasta::test

namespace canasta::test {

Rules rules_of(const std::string& profile) {
  Rules r;
  std::string error;
  EXPECT_TRUE(parse_profile(profile, r, error)) << error;
  return r;
}

AgentSpec agent_spec(const std::string& spec) {
  AgentSpec a;
  std::string error;
  EXPECT_TRUE(parse_agent_spec(spec, a, error)) << error;
  return a;
}

std::unique_ptr<Agent> agent(const std::string& spec) { return make_agent(agent_spec(spec)); }

}  // namespace canasta::test
