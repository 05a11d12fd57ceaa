#include "helpers.h"

namespace canasta::test {

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
