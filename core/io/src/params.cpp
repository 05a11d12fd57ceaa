#include "canasta/params.h"

#include <fmt/format.h>

#include <atomic>

#include "canasta/text.h"

namespace canasta {

namespace {

std::atomic<int64_t> g_spec_parses{0};

}  // namespace

int64_t spec_parse_count() { return g_spec_parses.load(); }

bool parse_spec(std::string_view spec, char name_end, const std::function<bool(std::string_view)>& name,
                const std::function<bool(std::string_view, std::string_view)>& item, std::string& error) {
  g_spec_parses.fetch_add(1, std::memory_order_relaxed);
  const size_t end = spec.find(name_end);
  if (!name(spec.substr(0, end))) return false;
  if (end == std::string_view::npos) return true;
  std::string_view rest = spec.substr(end + 1);
  if (name_end != ',' && rest.empty()) return true;  // "heuristic:" sets nothing
  for (;;) {
    const size_t comma = rest.find(',');
    const std::string_view entry = rest.substr(0, comma);
    const size_t eq = entry.find('=');
    if (eq == std::string_view::npos) {
      error = entry.empty() ? "empty item in '" + printable(spec) + "'"
                            : "'" + printable(entry) + "' is not key=value";
      return false;
    }
    if (!item(entry.substr(0, eq), entry.substr(eq + 1))) return false;
    if (comma == std::string_view::npos) return true;
    rest = rest.substr(comma + 1);
  }
}

bool read_value(ParamStyle style, double lo, double hi, std::span<const std::string_view> choices,
                std::string_view value, double& out, std::string_view what, std::string& error) {
  switch (style) {
    case ParamStyle::kFlag:
      if (value == "1" || value == "true" || value == "yes" || value == "on") return out = 1, true;
      if (value == "0" || value == "false" || value == "no" || value == "off") return out = 0, true;
      error = fmt::format("{}: '{}' is not true or false", what, printable(value));
      return false;
    case ParamStyle::kChoice:
      for (size_t i = 0; i < choices.size(); ++i)
        if (choices[i] == value) return out = static_cast<double>(i), true;
      error = fmt::format("{} is one of: {} (not '{}')", what, fmt::join(choices, ", "), printable(value));
      return false;
    case ParamStyle::kInteger:
    case ParamStyle::kReal:
      break;
  }
  if (!text::to_number(value, out)) {
    error = fmt::format("{} needs a number (not '{}')", what, printable(value));
    return false;
  }
  // Written so that no NaN can pass.
  if (!(out >= lo && out <= hi) || (style == ParamStyle::kInteger && out != std::floor(out))) {
    error = fmt::format("{}: {} is out of range ({}{})", what, printable(value),
                        style == ParamStyle::kInteger ? "an " : "", range_text(style, lo, hi, choices));
    return false;
  }
  return true;
}

std::string write_value(ParamStyle style, std::span<const std::string_view> choices, double v) {
  switch (style) {
    case ParamStyle::kInteger:
      return fmt::format("{}", static_cast<int64_t>(v));
    case ParamStyle::kReal:
      return fmt::format("{}", v);
    case ParamStyle::kFlag:
      return v != 0 ? "true" : "false";
    case ParamStyle::kChoice:
      return std::string(choices[static_cast<size_t>(v)]);
  }
  return {};
}

std::string range_text(ParamStyle style, double lo, double hi, std::span<const std::string_view> choices) {
  switch (style) {
    case ParamStyle::kInteger:
      return fmt::format("integer {}..{}", lo, hi);
    case ParamStyle::kReal:
      return fmt::format("{}..{}", lo, hi);
    case ParamStyle::kFlag:
      return "true|false";
    case ParamStyle::kChoice:
      return fmt::format("{}", fmt::join(choices, "|"));
  }
  return {};
}

std::string printable(std::string_view text, size_t max) {
  std::string out;
  for (const char c : text.substr(0, max)) {
    const auto u = static_cast<unsigned char>(c);
    out += u < 0x20 || u == 0x7f ? '?' : c;
  }
  if (text.size() > max) out += "...";
  return out;
}

}  // namespace canasta
