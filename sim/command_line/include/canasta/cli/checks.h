// Checks of option values that CLI11 (2.1) gets wrong or words badly: it
// reads integers with strtoll's base 0, so "010" is 8 and "0x10" is 16; an
// unsigned option reads "-1" as 2^64 - 1; a signed one of 64 bits reads
// 99999999999999999999 as 2^63 - 1; and NonNegativeNumber and
// PositiveNumber print the range of a double ("not in range 0.000000 to
// 1797...", even for a 0 refused).
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

namespace canasta::cli {

// Every integer option of `app` and of its subcommands reads decimal digits
// only, with an optional sign, leading zeros dropped ("010" is 10), and
// within 64 bits: -2^63 to 2^63 - 1 signed, 0 to 2^64 - 1 unsigned (CLI11
// saturates a longer signed number at the limit and wraps a negative
// unsigned one). An option's own range, checked after, may be narrower.
// Call it once every option is added: the check runs before the others.
inline void decimal_integers(CLI::App& app) {
  // `range`: the option's own range as its help shows it ("[0 - 1024]"),
  // quoted for a number beyond 64 bits; empty when it has none.
  const auto decimal = [](bool is_signed, const std::string& range) {
    return CLI::Validator(
        [is_signed, range](std::string& s) -> std::string {
          const bool minus = !s.empty() && s[0] == '-';
          const size_t i = !s.empty() && (minus || s[0] == '+') ? 1 : 0;
          if (i == s.size() || s.find_first_not_of("0123456789", i) != std::string::npos)
            return "must be a whole number in decimal digits, not " + s;
          const size_t first = s.find_first_not_of('0', i);
          if (first == std::string::npos) return s = "0", std::string();
          const std::string digits = s.substr(first);
          const std::string max = !is_signed ? "18446744073709551615"
                                  : minus    ? "9223372036854775808"
                                             : "9223372036854775807";
          if (minus && !is_signed) return "must be 0 or more, not " + s;
          if (digits.size() > max.size() || (digits.size() == max.size() && digits > max))
            return !range.empty() ? "Value " + s + " not in range " + range
                                  : (minus ? "must be at least -" : "must be at most ") + max + ", not " + s;
          s = (minus ? "-" : "") + digits;
          return {};
        },
        "", "decimal");
  };
  for (CLI::Option* o : app.get_options()) {
    const std::string type = o->get_type_name();  // "INT", or "INT:INT in [0 - 1024]" with a range
    const size_t in = type.find(" in [");
    const std::string range = in == std::string::npos ? std::string() : type.substr(in + 4);
    if (type.rfind("INT", 0) == 0) o->transform(decimal(true, range));
    if (type.rfind("UINT", 0) == 0) o->transform(decimal(false, range));
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) decimal_integers(*sub);
}

// A finite number above 0.
inline CLI::Validator above_zero() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        double v = 0;
        if (CLI::detail::lexical_cast(s, v) && v > 0 && std::isfinite(v)) return {};
        return "must be a finite number above 0, not " + s;
      },
      "", "above zero");
}

}  // namespace canasta::cli
