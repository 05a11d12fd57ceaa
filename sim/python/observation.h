// What a seat knows, as numbers and as text, for learning agents (the
// Python module's observation_tensor and information_state_string). Read
// through the seat's View only. The layout is documented in sim/doc/python.md.
#pragma once

#include <string>

#include "canasta/view.h"

namespace canasta {

constexpr int kObservationSize = 405;
void observation_tensor(const View& v, float* out);
std::string information_state(const View& v);

}  // namespace canasta
