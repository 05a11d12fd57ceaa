// The agent interface: an agent decides from its seat's View and a random
// stream handed to it by the caller, so every decision is reproducible.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "canasta/rng.h"
#include "canasta/view.h"

namespace canasta {

class Agent {
 public:
  virtual ~Agent() = default;
  // The action to play; `view.actor() == view.seat()` and the deal is not over.
  virtual Action act(const View& view, Rng& rng) = 0;
  // The spec that makes this agent again.
  virtual std::string spec() const = 0;
};

// Uniform over the legal actions.
class RandomAgent final : public Agent {
 public:
  Action act(const View& view, Rng& rng) override;
  std::string spec() const override { return "random"; }

 private:
  ActionList legal_;
};

// Makes an agent from a spec ("random"); nullptr and a one-line error on a bad spec.
std::unique_ptr<Agent> make_agent(std::string_view spec, std::string& error);

}  // namespace canasta
