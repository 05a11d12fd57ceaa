// libFuzzer target: profile specs, agent specs and sweeps. A spec the reader
// takes writes back canonically to a spec it reads to the same value.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/agent.h"
#include "canasta/profile.h"
#include "canasta/sweep.h"

using namespace canasta;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 256) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::string error;
  switch (data[0] % 3) {
    case 0: {
      Rules r, again;
      if (parse_profile(text, r, error) && (!parse_profile(profile_spec(r), again, error) || again != r))
        std::abort();
      break;
    }
    case 1: {
      AgentSpec a, again;
      if (parse_agent_spec(text, a, error) && (!parse_agent_spec(a.to_string(), again, error) ||
                                               !(again == a) || again.to_string() != a.to_string()))
        std::abort();
      break;
    }
    default: {
      std::vector<SweepPoint> points;
      expand_sweep(text, points, error);
      break;
    }
  }
  return 0;
}
