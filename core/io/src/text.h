// Small text helpers of the io library's readers. Internal.
#pragma once

#include <charconv>
#include <string_view>
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

// A whole decimal integer (an optional minus sign and digits, nothing else).
inline bool to_int(std::string_view v, int& out) {
  v = trim(v);
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc() && p == v.data() + v.size() && !v.empty();
}

}  // namespace canasta::text
