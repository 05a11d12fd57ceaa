#include "canasta/agent.h"

namespace canasta {

Action RandomAgent::act(const View& view, Rng& rng) {
  view.legal_actions(legal_);
  return legal_[static_cast<int>(rng.below(static_cast<uint32_t>(legal_.size())))];
}

std::unique_ptr<Agent> make_agent(std::string_view spec, std::string& error) {
  if (spec == "random") return std::make_unique<RandomAgent>();
  error = "unknown agent '" + std::string(spec) + "' (available: random)";
  return nullptr;
}

}  // namespace canasta
