#include "canasta/sweep.h"

#include <fmt/format.h>

#include <algorithm>

#include "canasta/params.h"
#include "canasta/text.h"

namespace canasta {

namespace {

struct Range {
  std::string name;
  std::vector<std::string> values;
};

// The values of "{from..to..step}", "{from..to}" or "{a,b,c}" (without braces).
bool range_values(std::string_view body, std::vector<std::string>& values, std::string& error) {
  const size_t dots = body.find("..");
  if (dots != std::string_view::npos) {
    const std::string_view rest = body.substr(dots + 2);
    const size_t dots2 = rest.find("..");
    double from = 0, to = 0, step = 1;
    if (!text::to_number(body.substr(0, dots), from) || !text::to_number(rest.substr(0, dots2), to) ||
        (dots2 != std::string_view::npos && !text::to_number(rest.substr(dots2 + 2), step)) || !(step > 0) ||
        !(to >= from) || !((to - from) / step <= 1000)) {
      error =
          fmt::format("bad range '{{{}}}' (from..to..step, step > 0, at most 1000 points)", printable(body));
      return false;
    }
    for (int i = 0; from + i * step <= to + 1e-9; ++i) values.push_back(fmt::format("{:g}", from + i * step));
    return true;
  }
  size_t p = 0;
  for (;;) {
    const size_t comma = body.find(',', p);
    const std::string_view v = body.substr(p, comma == std::string_view::npos ? body.npos : comma - p);
    if (v.empty()) {
      error = fmt::format("empty value in '{{{}}}'", printable(body));
      return false;
    }
    if (std::find(values.begin(), values.end(), v) != values.end()) {
      error = fmt::format("value '{}' is given twice in '{{{}}}'", printable(v), printable(body));
      return false;
    }
    values.emplace_back(v);
    if (comma == std::string_view::npos) return true;
    p = comma + 1;
  }
}

}  // namespace

bool expand_sweep(std::string_view spec, std::vector<SweepPoint>& out, std::string& error) {
  out.clear();
  // The items of the spec, split at the commas outside braces: those with a
  // range are swept, the others make the base spec.
  const size_t colon = spec.find(':');
  std::string base(spec.substr(0, colon));
  std::vector<Range> ranges;
  if (colon != std::string_view::npos) {
    const std::string_view items = spec.substr(colon + 1);
    std::string fixed;
    std::vector<std::string> names;  // of every item, fixed or swept: each once
    size_t start = 0;
    int depth = 0;
    for (size_t i = 0; i <= items.size(); ++i) {
      if (i < items.size() && items[i] == '{') ++depth;
      if (i < items.size() && items[i] == '}') --depth;
      if (i < items.size() && (items[i] != ',' || depth > 0)) continue;
      const std::string_view item = items.substr(start, i - start);
      start = i + 1;
      const size_t eq = item.find('=');
      const std::string name(item.substr(0, eq));
      if (eq != std::string_view::npos && std::find(names.begin(), names.end(), name) != names.end()) {
        error = fmt::format("parameter '{}' is given twice in '{}'", printable(name), printable(spec));
        return false;
      }
      names.push_back(name);
      if (item.find('{') == std::string_view::npos) {
        fixed += (fixed.empty() ? "" : ",") + std::string(item);
        continue;
      }
      if (eq == std::string_view::npos || item.substr(eq + 1, 1) != "{" || item.back() != '}' || eq == 0) {
        error = fmt::format("bad sweep in '{}' (write e.g. heuristic:freeze={{0..12..2}})", printable(spec));
        return false;
      }
      Range r{std::string(item.substr(0, eq)), {}};
      if (!range_values(item.substr(eq + 2, item.size() - eq - 3), r.values, error)) return false;
      ranges.push_back(std::move(r));
    }
    if (depth != 0) {
      error = fmt::format("bad sweep in '{}' (unbalanced braces)", printable(spec));
      return false;
    }
    if (!fixed.empty()) base += ":" + fixed;
  }
  if (ranges.size() > 2) {
    error = "a sweep varies one or two parameters";
    return false;
  }
  AgentSpec agent;
  if (!parse_agent_spec(base, agent, error)) return false;
  // Every combination, the first range outermost.
  std::vector<size_t> at(ranges.size(), 0);
  for (;;) {
    SweepPoint point{agent, {}};
    for (size_t i = 0; i < ranges.size(); ++i) {
      const std::string& value = ranges[i].values[at[i]];
      if (!set_agent_param(point.agent, ranges[i].name, value, error)) return false;
      point.values.emplace_back(ranges[i].name, value);
    }
    out.push_back(std::move(point));
    size_t i = ranges.size();
    while (i > 0 && ++at[i - 1] == ranges[i - 1].values.size()) at[--i] = 0;
    if (i == 0) return true;
  }
}

}  // namespace canasta
