#include "canasta/value_agent.h"

#include <stdexcept>

#include "canasta/engine.h"

namespace canasta {

ValueAgent::ValueAgent(const ValueParams& p)
    : p_(p), model_(p.eval.empty() ? std::string("default") : std::string(p.eval.view())) {
  samples_.reserve(static_cast<size_t>(p_.samples));
}

Action ValueAgent::act(const View& view, Rng& rng) {
  ActionList legal;
  view.legal_actions(legal);
  if (legal.size() == 1) return legal[0];
  const Rules& rules = view.rules();
  const ValueModel& model = *model_.for_game(rules);
  const int me = view.seat();
  const int side = rules.team_of(me);
  samples_.clear();
  for (int i = 0; i < p_.samples; ++i) samples_.push_back(view.determinize(rng));
  Action best = legal[0];
  double best_value = -1e300;
  for (Action a : legal) {
    double total = 0;
    for (const State& sample : samples_) {
      State d = sample;
      apply(d, a);
      // A finished deal is scored as the model's target is.
      total += d.over() ? ValueModel::target_of(deal_margins(d)[side], model.squash())
                        : model.evaluate(View(d, me));
    }
    if (total > best_value) best_value = total, best = a;
  }
  return best;
}

}  // namespace canasta
