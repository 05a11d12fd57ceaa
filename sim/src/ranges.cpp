// The positions of a shard as sorted, disjoint ranges (canasta/experiment.h).
#include <algorithm>

#include "canasta/experiment.h"

namespace canasta {

Ranges merge_ranges(const Ranges& a, const Ranges& b) {
  Ranges all = a;
  all.insert(all.end(), b.begin(), b.end());
  std::sort(all.begin(), all.end());
  Ranges out;
  for (const auto& r : all) {
    if (r.first >= r.second) continue;
    if (!out.empty() && r.first <= out.back().second)
      out.back().second = std::max(out.back().second, r.second);
    else
      out.push_back(r);
  }
  return out;
}

Ranges missing_ranges(const Ranges& r, int64_t n) {
  Ranges out;
  int64_t at = 0;
  for (const auto& [b, e] : merge_ranges(r, {})) {
    if (b >= n) break;
    if (b > at) out.emplace_back(at, b);
    at = std::max(at, e);
  }
  if (at < n) out.emplace_back(at, n);
  return out;
}

int64_t ranges_size(const Ranges& r) {
  int64_t n = 0;
  for (const auto& [b, e] : r) n += e - b;
  return n;
}

}  // namespace canasta
