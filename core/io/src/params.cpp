#include "canasta/params.h"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <utility>

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
    case ParamStyle::kText:
      return check_text(value, what, error);
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
    case ParamStyle::kText:
      break;
  }
  return {};
}

bool spec_value_ok(std::string_view value) {
  if (value.empty()) return false;
  for (const char c : value)
    if (!(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z') && !(c >= '0' && c <= '9') &&
        std::string_view("_.+-/").find(c) == std::string_view::npos)
      return false;
  return true;
}

bool check_text(std::string_view value, std::string_view what, std::string& error) {
  if (value.empty() || value.size() > ParamText::kMax) {
    error = fmt::format("{} wants text of 1 to {} bytes", what, ParamText::kMax);
    return false;
  }
  if (!spec_value_ok(value)) {
    error = fmt::format(
        "{}: '{}' holds other characters than letters, digits and _ . + - / (a file name "
        "such as models/classic.model)",
        what, printable(value));
    return false;
  }
  return true;
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
    case ParamStyle::kText:
      return "text";
  }
  return {};
}

namespace {

// The code point of the UTF-8 sequence at the start of `s` and its length;
// false for a malformed, overlong or surrogate sequence.
bool utf8_at(std::string_view s, char32_t& cp, size_t& len) {
  const auto b = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char u = b(0);
  char32_t min = 0;
  if (u >= 0xc2 && u <= 0xdf) {
    len = 2, cp = u & 0x1fU, min = 0x80;
  } else if (u >= 0xe0 && u <= 0xef) {
    len = 3, cp = u & 0x0fU, min = 0x800;
  } else if (u >= 0xf0 && u <= 0xf4) {
    len = 4, cp = u & 0x07U, min = 0x10000;
  } else {
    return false;
  }
  if (s.size() < len) return false;
  for (size_t i = 1; i < len; ++i) {
    if ((b(i) & 0xc0U) != 0x80) return false;
    cp = cp << 6 | (b(i) & 0x3fU);
  }
  return cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
}

// Characters that move or hide text on a terminal: C1 controls, bidi
// controls, zero-width and other format characters (Unicode's Cf), fillers
// that show as nothing, variation selectors, line and paragraph separators,
// tags.
bool hides_text(char32_t cp) {
  constexpr std::array<std::pair<char32_t, char32_t>, 24> kHidden{{
      {0x00, 0x9f},       {0xad, 0xad},       {0x034f, 0x034f},   {0x0600, 0x0605},   {0x061c, 0x061c},
      {0x06dd, 0x06dd},   {0x070f, 0x070f},   {0x0890, 0x0891},   {0x08e2, 0x08e2},   {0x115f, 0x1160},
      {0x17b4, 0x17b5},   {0x180b, 0x180f},   {0x200b, 0x200f},   {0x2028, 0x202e},   {0x2060, 0x206f},
      {0x3164, 0x3164},   {0xfe00, 0xfe0f},   {0xfeff, 0xfeff},   {0xffa0, 0xffa0},   {0xfff9, 0xfffb},
      {0x1bca0, 0x1bca3}, {0x1d173, 0x1d17a}, {0xe0000, 0xe007f}, {0xe0100, 0xe01ef},
  }};
  for (const auto& [lo, hi] : kHidden)
    if (cp >= lo && cp <= hi) return true;
  return false;
}

}  // namespace

bool plain_text(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x80) {
      if (u < 0x20 || u == 0x7f) return false;
      ++i;
      continue;
    }
    char32_t cp = 0;
    size_t len = 1;
    if (!utf8_at(text.substr(i), cp, len) || hides_text(cp)) return false;
    i += len;
  }
  return true;
}

bool formula_like(std::string_view text) {
  if (text.empty() || std::string_view("=+-@").find(text.front()) == std::string_view::npos) return false;
  double v = 0;
  return !text::to_number(text.front() == '+' ? text.substr(1) : text, v);
}

std::string printable(std::string_view text, size_t max) {
  std::string out;
  size_t i = 0;
  for (size_t shown = 0; i < text.size() && shown < max; ++shown) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u < 0x80) {
      out += u < 0x20 || u == 0x7f ? '?' : text[i];
      ++i;
      continue;
    }
    char32_t cp = 0;
    size_t len = 1;
    const bool utf8 = utf8_at(text.substr(i), cp, len);
    if (utf8 && !hides_text(cp))
      out.append(text.substr(i, len));
    else
      out += '?';  // one for a hidden character, one for each byte of a malformed sequence
    i += utf8 ? len : 1;
  }
  if (i < text.size()) out += "...";
  return out;
}

}  // namespace canasta
