#include "canasta/policy_agent.h"

#include <array>
#include <string>

namespace canasta {

PolicyAgent::PolicyAgent(const PolicyParams& p)
    : p_(p), policy_(p.model.empty() ? std::string("default") : std::string(p.model.view())) {}

Action PolicyAgent::act(const View& view, Rng& rng) {
  ActionList legal;
  view.legal_actions(legal);
  if (legal.size() == 1) return legal[0];
  const PolicyModel& policy = *policy_.for_game(view.rules());
  if (p_.temperature <= 0) return policy.best(view, legal);
  std::array<float, ActionList::kCapacity> p;
  policy.probabilities(view, legal, p.data(), static_cast<float>(p_.temperature));
  double u = rng.uniform();
  for (int i = 0; i + 1 < legal.size(); ++i)
    if ((u -= p[static_cast<size_t>(i)]) < 0) return legal[i];
  return legal[legal.size() - 1];
}

}  // namespace canasta
