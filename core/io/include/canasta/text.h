// Small text helpers of the readers of the io library and of the programs.
#pragma once

#include <charconv>
#include <cmath>
#include <string_view>
#include <type_traits>
#include <vector>

namespace canasta::text {

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The parts of `s` between separators (empty parts included).
inline std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  while (true) {
    const size_t i = s.find(sep);
    out.push_back(s.substr(0, i));
    if (i == std::string_view::npos) break;
    s = s.substr(i + 1);
  }
  return out;
}

// The space-separated words of `s`.
inline std::vector<std::string_view> words(std::string_view s) {
  std::vector<std::string_view> out;
  for (auto w : split(trim(s), ' '))
    if (!trim(w).empty()) out.push_back(trim(w));
  return out;
}

// A number read from the whole of `s`, nothing around it: an integer in
// decimal with an optional minus sign, or a finite floating-point number.
template <class T>
bool to_number(std::string_view s, T& out) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (s.empty() || ec != std::errc() || p != s.data() + s.size()) return false;
  if constexpr (std::is_floating_point_v<T>) return std::isfinite(out);
  return true;
}

}  // namespace canasta::text
