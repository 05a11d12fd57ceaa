// Checks of option values that CLI11 (2.1) gets wrong or words badly: it
// reads integers with strtoll's base 0, so "010" is 8 and "0x10" is 16; an
// unsigned option reads "-1" as 2^64 - 1; and NonNegativeNumber and
// PositiveNumber print the range of a double ("not in range 0.000000 to
// 1797...", even for a 0 refused).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace canasta::cli {

// Every integer option of `app` and of its subcommands reads decimal digits
// only, with an optional sign, leading zeros dropped ("010" is 10). Call it
// once every option is added: the check runs before the option's others.
inline void decimal_integers(CLI::App& app) {
  const CLI::Validator decimal(
      [](std::string& s) -> std::string {
        const size_t i = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
        if (i == s.size() || s.find_first_not_of("0123456789", i) != std::string::npos)
          return "must be a whole number in decimal digits, not " + s;
        const size_t first = s.find_first_not_of('0', i);
        s.erase(i, (first == std::string::npos ? s.size() - 1 : first) - i);
        return {};
      },
      "", "decimal");
  for (CLI::Option* o : app.get_options()) {
    const std::string type = o->get_type_name();
    if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0) o->transform(decimal);
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) decimal_integers(*sub);
}

// A whole number from 0 to 2^64 - 1 (the seed and other unsigned options of
// 64 bits), after decimal_integers has checked its digits.
inline CLI::Validator whole_number() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        const std::string max = "18446744073709551615";  // 2^64 - 1
        if (!s.empty() && s[0] == '-') return "must be 0 or more, not " + s;
        const std::string digits = !s.empty() && s[0] == '+' ? s.substr(1) : s;
        if (digits.size() > max.size() || (digits.size() == max.size() && digits > max))
          return "must be at most " + max + ", not " + s;
        return {};
      },
      "", "whole number");
}

// A number above 0.
inline CLI::Validator above_zero() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double v = 0;
        if (CLI::detail::lexical_cast(s, v) && v > 0) return {};
        return "must be a number above 0, not " + s;
      },
      "", "above zero");
}

}  // namespace canasta::cli
