// Your own agent in one file: put it in agents/user/NAME.cpp and end the file
// with one registration line,
//
//   CANASTA_REGISTER_AGENT(NAME, YourAgent, YourParams, YOUR_PARAMS, "what it does");
//
// where NAME is the file's name without .cpp (and the name the agent goes by
// in specs), YourAgent derives from Agent (agent_base.h) and is constructed
// from a YourParams, and YOUR_PARAMS is the X-macro of its parameters in the
// form the built-in agents use (name, type, default, range, meaning; see
// heuristic.h; an agent may have none: `#define YOUR_PARAMS(X)`). The normal
// build compiles every file of agents/user/ and
// registers it: `canasta agents` lists it with its parameters, and `sim`,
// `tune`, `tournament`, `play` and the Python module take its specs
// ("NAME:param=value"). agents/user/greedy.cpp is a complete example;
// agents/doc/your-agent.md walks through it.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "canasta/agent_base.h"
#include "canasta/params.h"

namespace canasta {

// The parameters of a registered agent of agents/user/, as numbers in its
// table's order (what AgentSpec holds for it).
constexpr int kMaxUserParams = 32;
struct UserParams {
  int id = 0;  // the agent's place among the registered ones
  std::array<double, kMaxUserParams> values{};
  friend bool operator==(const UserParams&, const UserParams&) = default;
};

// A registered agent: its name, summary, parameter table over UserParams and factory.
struct UserAgentEntry {
  std::string_view name, summary;
  std::vector<Param<UserParams>> params;
  UserParams defaults;
  std::function<std::unique_ptr<Agent>(const UserParams&)> make;
};

// The registered agents, in file-name order (the build registers them all
// before main runs anything that reads specs).
std::span<const UserAgentEntry> user_agents();

namespace detail {

void add_user_agent(UserAgentEntry entry);

template <size_t I>
double user_get(const UserParams& u) {
  return u.values[I];
}
template <size_t I>
void user_set(UserParams& u, double v) {
  u.values[I] = v;
}
template <size_t... I>
constexpr std::array<std::pair<double (*)(const UserParams&), void (*)(UserParams&, double)>, sizeof...(I)>
user_accessors(std::index_sequence<I...>) {
  return {{{&user_get<I>, &user_set<I>}...}};
}

template <class P, class A, size_t N>
void register_user_agent(std::string_view name, std::string_view summary,
                         const std::array<Param<P>, N>& table) {
  static_assert(N <= kMaxUserParams, "an agent of agents/user/ has at most kMaxUserParams parameters");
  static constexpr auto accessors = user_accessors(std::make_index_sequence<kMaxUserParams>());
  UserAgentEntry e;
  e.name = name;
  e.summary = summary;
  const P defaults{};
  for (size_t i = 0; i < N; ++i) {
    const Param<P>& p = table[i];
    e.params.push_back(
        {p.name, p.style, p.lo, p.hi, p.choices, p.help, accessors[i].first, accessors[i].second});
    e.defaults.values[i] = p.get(defaults);
  }
  e.make = [&table](const UserParams& u) -> std::unique_ptr<Agent> {
    P p{};
    for (size_t i = 0; i < N; ++i) table[i].set(p, u.values[i]);
    return std::make_unique<A>(p);
  };
  add_user_agent(std::move(e));
}

}  // namespace detail
}  // namespace canasta

#define CANASTA_USER_PARAM_ENTRY(name, type, value, lo, hi, help) \
  ::canasta::param<&CanastaUserParams::name>(#name, lo, hi, help),
#define CANASTA_USER_PARAM_COUNT(name, type, value, lo, hi, help) +1

// The registration line (see the top of this file).
#define CANASTA_REGISTER_AGENT(id, AgentClass, ParamsStruct, PARAMS, summary)                              \
  void canasta_register_agent_##id() {                                                                     \
    using CanastaUserParams [[maybe_unused]] = ParamsStruct;                                               \
    static constexpr std::array<::canasta::Param<ParamsStruct>, 0 PARAMS(CANASTA_USER_PARAM_COUNT)> table{ \
        {PARAMS(CANASTA_USER_PARAM_ENTRY)}};                                                               \
    ::canasta::detail::register_user_agent<ParamsStruct, AgentClass>(#id, summary, table);                 \
  }                                                                                                        \
  static_assert(true, "")
