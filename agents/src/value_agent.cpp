#include "canasta/value_agent.h"

#include <stdexcept>

#include "canasta/engine.h"
#include "canasta/profile.h"

namespace canasta {

ValueAgent::ValueAgent(const ValueParams& p)
    : p_(p), model_(shared_value_model(p.eval.empty() ? "default" : std::string(p.eval.view()))) {
  samples_.reserve(static_cast<size_t>(p_.samples));
}

Action ValueAgent::act(const View& view, Rng& rng) {
  ActionList legal;
  view.legal_actions(legal);
  if (legal.size() == 1) return legal[0];
  const Rules& rules = view.rules();
  if (model_->rules().players != rules.players || model_->rules().teams != rules.teams ||
      model_->inputs() != feature_count(rules))
    throw std::runtime_error("the value model was trained on profile " + profile_spec(model_->rules()) +
                             ", not on " + profile_spec(rules));
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
      if (d.over()) {
        const auto score = deal_score(d);
        double others = 0;
        for (int t = 0; t < rules.teams; ++t)
          if (t != side) others += score[t].total();
        total += score[side].total() - others / (rules.teams - 1);
      } else {
        total += model_->evaluate(View(d, me));
      }
    }
    if (total > best_value) best_value = total, best = a;
  }
  return best;
}

}  // namespace canasta
