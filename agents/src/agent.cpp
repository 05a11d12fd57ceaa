// The registry: each agent's name, summary and parameter table, and the
// spec reading, writing and help that follow from them.
#include "canasta/agent.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <vector>

namespace canasta {

namespace {

// Registered<P>: the agent whose parameters are P, with its name, summary,
// parameter table and factory.
template <class P, class A>
struct Entry {
  using Params = P;
  static std::unique_ptr<Agent> make(const P& p) { return std::make_unique<A>(p); }
};
#define CANASTA_PARAM(name, type, value, lo, hi, help) param<&Params::name>(#name, lo, hi, help),

template <class P>
struct Registered;
template <>
struct Registered<RandomParams> : Entry<RandomParams, RandomAgent> {
  static constexpr std::string_view name = "random";
  static constexpr std::string_view summary = "uniform over the legal actions";
  static constexpr std::array<Param<RandomParams>, 0> params{};
};
template <>
struct Registered<HeuristicParams> : Entry<HeuristicParams, HeuristicAgent> {
  static constexpr std::string_view name = "heuristic";
  static constexpr std::string_view summary =
      "rule-based: melds what it can, takes big piles, discards safely, freezes big piles";
  static constexpr std::array params{CANASTA_HEURISTIC_PARAMS(CANASTA_PARAM)};
};
template <>
struct Registered<IsmctsParams> : Entry<IsmctsParams, IsmctsAgent> {
  static constexpr std::string_view name = "ismcts";
  static constexpr std::string_view summary =
      "single-observer Information Set MCTS over determinizations of the seat's view";
  static constexpr std::array params{CANASTA_ISMCTS_PARAMS(CANASTA_PARAM)};
};
#undef CANASTA_PARAM

constexpr size_t kAgents = std::variant_size_v<AgentParams>;

template <size_t... I>
constexpr std::array<std::string_view, kAgents> names_of(std::index_sequence<I...>) {
  return {Registered<std::variant_alternative_t<I, AgentParams>>::name...};
}
constexpr std::array<std::string_view, kAgents> kNames = names_of(std::make_index_sequence<kAgents>());

// Calls f(Registered<P>{}, P{}) for the agent named `name`; false when none is.
template <class F, size_t I = 0>
bool with_agent_named(std::string_view name, const F& f) {
  if constexpr (I == kAgents) {
    return false;
  } else {
    using P = std::variant_alternative_t<I, AgentParams>;
    if (Registered<P>::name == name) {
      f(Registered<P>{}, P{});
      return true;
    }
    return with_agent_named<F, I + 1>(name, f);
  }
}

template <class P>
bool set_param(P& p, uint64_t& given, std::string_view key, std::string_view value, std::string& error) {
  constexpr auto& table = Registered<P>::params;
  for (size_t i = 0; i < table.size(); ++i) {
    if (table[i].name != key) continue;
    const std::string what = fmt::format("parameter '{}' of agent '{}'", key, Registered<P>::name);
    if (!read_param(table[i], value, p, what, error)) return false;
    given |= uint64_t{1} << i;
    return true;
  }
  error = fmt::format("agent '{}' has no parameter '{}' (see canasta agents)", Registered<P>::name,
                      printable(key));
  return false;
}

}  // namespace

std::string_view AgentSpec::name() const {
  return std::visit([](const auto& p) { return Registered<std::decay_t<decltype(p)>>::name; }, params);
}

std::string AgentSpec::to_string() const {
  return std::visit(
      [&](const auto& p) {
        using P = std::decay_t<decltype(p)>;
        std::string out(Registered<P>::name);
        char sep = ':';
        for (size_t i = 0; i < Registered<P>::params.size(); ++i)
          if (given >> i & 1U) {
            const auto& param = Registered<P>::params[i];
            out += fmt::format("{}{}={}", sep, param.name, write_param(param, p));
            sep = ',';
          }
        return out;
      },
      params);
}

bool parse_agent_spec(std::string_view text, AgentSpec& out, std::string& error) {
  out = AgentSpec{};
  std::vector<std::string_view> seen;
  const auto name = [&](std::string_view n) {
    if (with_agent_named(n, [&](auto, auto p) { out.params = p; })) return true;
    error = fmt::format("unknown agent '{}' (available: {})", printable(n), fmt::join(kNames, ", "));
    return false;
  };
  const auto item = [&](std::string_view key, std::string_view value) {
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      error = fmt::format("parameter '{}' is given twice", printable(key));
      return false;
    }
    seen.push_back(key);
    return set_agent_param(out, key, value, error);
  };
  return parse_spec(text, ':', name, item, error);
}

bool set_agent_param(AgentSpec& spec, std::string_view key, std::string_view value, std::string& error) {
  return std::visit([&](auto& p) { return set_param(p, spec.given, key, value, error); }, spec.params);
}

std::unique_ptr<Agent> make_agent(const AgentSpec& spec) {
  return std::visit([](const auto& p) { return Registered<std::decay_t<decltype(p)>>::make(p); },
                    spec.params);
}

std::span<const std::string_view> agent_names() { return kNames; }

std::string agents_help() {
  std::string out;
  const auto list = [&](auto registered, const auto& defaults) {
    using R = decltype(registered);
    out += fmt::format("{}: {}\n", R::name, R::summary);
    for (const auto& p : R::params)
      out += fmt::format("  {}={}  ({}) {}\n", p.name, write_param(p, defaults), param_range(p), p.help);
  };
  for (const std::string_view name : kNames) with_agent_named(name, list);
  out += "spec: name[:param=value,...], e.g. heuristic:freeze=6,take_min=4\n";
  return out;
}

}  // namespace canasta
