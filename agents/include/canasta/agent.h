// The agent interface and the registry of agents.
//
// An agent decides from its seat's View and a random stream handed to it by
// the caller, so every decision is reproducible. Agents are named by specs
// ("random", "heuristic:freeze=6,take_min=4"), read once into an AgentSpec
// where they enter the program; everything below passes AgentSpec values.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "canasta/basic.h"
#include "canasta/heuristic.h"
#include "canasta/ismcts.h"
#include "canasta/policy_agent.h"
#include "canasta/random_agent.h"
#include "canasta/rng.h"
#include "canasta/user_agent.h"
#include "canasta/value_agent.h"
#include "canasta/view.h"

namespace canasta {

// The parameters of one agent: which agent it is, by the alternative held
// (UserParams: an agent of agents/user/, by its id).
using AgentParams = std::variant<RandomParams, HeuristicParams, BasicParams, IsmctsParams, ValueParams,
                                 PolicyParams, UserParams>;

// An agent and its parameters, as a spec string names them.
struct AgentSpec {
  AgentParams params;  // random by default
  uint64_t given = 0;  // bit i: the agent's i-th parameter was written in the spec

  std::string_view name() const;
  // The canonical spec: the name, then the parameters given, in the order
  // `canasta agents` lists them ("heuristic:take_min=4,freeze=6").
  std::string to_string() const;
  // Two specs are equal when they make the same agent (whatever was written).
  friend bool operator==(const AgentSpec& a, const AgentSpec& b) { return a.params == b.params; }
};

// Reads a spec: a name, optionally ':' and comma-separated name=value
// parameters. Returns false with a one-line error naming the bad part
// (unknown agent, unknown parameter, value out of range).
bool parse_agent_spec(std::string_view text, AgentSpec& out, std::string& error);

// Sets one parameter of `spec` from text ("freeze", "6"), as a spec would.
bool set_agent_param(AgentSpec& spec, std::string_view key, std::string_view value, std::string& error);

// The files an agent of `spec` reads (its text parameters' values other than
// "default": a value model's file), for commands to keep their outputs off them.
std::vector<std::string> files_read(const AgentSpec& spec);

// One parameter of an agent, with its value in a spec.
struct AgentParamInfo {
  std::string_view name;
  ParamStyle style;
  double lo, hi;
  double value;
};
// Every parameter of the agent `spec` names, in table order, with its value
// in `spec` (tuners read ranges and start values here).
std::vector<AgentParamInfo> agent_params(const AgentSpec& spec);

// A new agent as the spec describes.
std::unique_ptr<Agent> make_agent(const AgentSpec& spec);

// The registry as text: every agent, every parameter with its default,
// range and meaning (`canasta agents`).
std::string agents_help();

// The names of the registered agents, in the order agents_help lists them.
std::span<const std::string_view> agent_names();

}  // namespace canasta
