// Parameter sweeps for `canasta tune`.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "canasta/agent.h"

namespace canasta {

// One point of a sweep: the agent and the values that made it.
struct SweepPoint {
  AgentSpec agent;
  std::vector<std::pair<std::string, std::string>> values;  // (parameter, value)
};

// Reads a spec with one or two ranges, "{from..to..step}", "{from..to}" or
// "{a,b,c}", into its points: "heuristic:freeze={0..12..2}" gives 7 agents.
// The spec without its ranges is parsed once; each point sets the swept
// parameters on it.
bool expand_sweep(std::string_view spec, std::vector<SweepPoint>& out, std::string& error);

}  // namespace canasta
