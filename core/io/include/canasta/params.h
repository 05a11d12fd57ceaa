// Named parameters of plain structs, and the spec grammar that sets them.
//
// Rules profiles ("two-player,target=3000") and agents
// ("heuristic:freeze=6,take_min=4") are written the same way: a name, then
// comma-separated key=value items. A struct's parameters are declared once,
// in a table of Param entries (name, member, range, help); reading a spec,
// writing it back canonically and the help of `canasta rules` / `canasta
// agents` all follow from that table.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

namespace canasta {

// The names of an enum's values, for parameters that take a name, in value
// order: CANASTA_CHOICE_NAMES(Enum, "first", "second", ...).
template <class E>
struct ChoiceNames;
#define CANASTA_CHOICE_NAMES(Enum, ...)                        \
  template <>                                                  \
  struct ChoiceNames<Enum> {                                   \
    static constexpr std::string_view names[] = {__VA_ARGS__}; \
  }

// How a parameter's value is read and written.
enum class ParamStyle : uint8_t {
  kInteger,  // a whole number in [lo, hi]
  kReal,     // a finite number in [lo, hi]
  kFlag,     // true or false (also read: 1/0, yes/no, on/off)
  kChoice,   // one of `choices`; the value is the index
  kText,     // text such as a file name (ParamText): no comma, no control character
};

// The value of a text parameter, kept inline so that a parameter struct
// stays trivially copyable: at most kMax bytes, empty when not given.
struct ParamText {
  static constexpr size_t kMax = 255;
  std::array<char, kMax + 1> bytes{};
  std::string_view view() const { return {bytes.data(), std::char_traits<char>::length(bytes.data())}; }
  bool empty() const { return bytes[0] == '\0'; }
  void assign(std::string_view text) {
    bytes.fill('\0');
    text.copy(bytes.data(), std::min(text.size(), kMax));
  }
  friend bool operator==(const ParamText&, const ParamText&) = default;
};

// One parameter of the struct P.
template <class P>
struct Param {
  std::string_view name;
  ParamStyle style;
  double lo, hi;
  std::span<const std::string_view> choices;
  std::string_view help;
  double (*get)(const P&);
  void (*set)(P&, double);
  // Text parameters only.
  std::string_view (*get_text)(const P&) = nullptr;
  void (*set_text)(P&, std::string_view) = nullptr;
};

namespace detail {

template <class M>
struct MemberPointer;
template <class P, class T>
struct MemberPointer<T P::*> {
  using Struct = P;
  using Type = T;
};

template <auto Member>
using StructOf = typename MemberPointer<decltype(Member)>::Struct;
template <auto Member>
using TypeOf = typename MemberPointer<decltype(Member)>::Type;

template <auto Member>
double get_member(const StructOf<Member>& p) {
  using T = TypeOf<Member>;
  if constexpr (std::is_same_v<T, ParamText>)
    return 0;
  else if constexpr (std::is_enum_v<T>)
    return static_cast<double>(static_cast<std::underlying_type_t<T>>(p.*Member));
  else
    return static_cast<double>(p.*Member);
}

template <auto Member>
void set_member(StructOf<Member>& p, double v) {
  using T = TypeOf<Member>;
  if constexpr (std::is_same_v<T, ParamText>)
    (void)p, (void)v;
  else if constexpr (std::is_enum_v<T>)
    p.*Member = static_cast<T>(static_cast<std::underlying_type_t<T>>(v));
  else if constexpr (std::is_same_v<T, bool>)
    p.*Member = v != 0;
  else
    p.*Member = static_cast<T>(v);
}

}  // namespace detail

// A parameter of member `Member`: an enum takes the names ChoiceNames gives
// it, a floating-point member any number in [lo, hi], a ParamText text, any
// other member a whole number in [lo, hi] (a bool: 0 or 1).
template <auto Member>
constexpr Param<detail::StructOf<Member>> param(std::string_view name, double lo, double hi,
                                                std::string_view help) {
  using T = detail::TypeOf<Member>;
  Param<detail::StructOf<Member>> p{
      name, ParamStyle::kInteger, lo, hi, {}, help, &detail::get_member<Member>, &detail::set_member<Member>};
  if constexpr (std::is_same_v<T, ParamText>) {
    p.style = ParamStyle::kText;
    p.get_text = [](const detail::StructOf<Member>& in) { return (in.*Member).view(); };
    p.set_text = [](detail::StructOf<Member>& out, std::string_view text) { (out.*Member).assign(text); };
  } else if constexpr (std::is_enum_v<T>) {
    p.style = ParamStyle::kChoice;
    p.choices = ChoiceNames<T>::names;
    p.lo = 0;
    p.hi = static_cast<double>(std::size(ChoiceNames<T>::names) - 1);
  } else if constexpr (std::is_floating_point_v<T>) {
    p.style = ParamStyle::kReal;
  }
  return p;
}

// A bool member written true or false.
template <auto Member>
constexpr Param<detail::StructOf<Member>> flag(std::string_view name, std::string_view help) {
  auto p = param<Member>(name, 0, 1, help);
  p.style = ParamStyle::kFlag;
  return p;
}

// Reads a spec: its name, which ends at the first `name_end` (',' for
// profiles, ':' for agents), goes to `name`, then each comma-separated
// key=value item to `item`, in order. Either may refuse by returning false
// with `error` set. Returns false with a one-line `error` on a malformed or
// refused spec.
bool parse_spec(std::string_view spec, char name_end, const std::function<bool(std::string_view name)>& name,
                const std::function<bool(std::string_view key, std::string_view value)>& item,
                std::string& error);

// The number of specs parse_spec has read in this process: profiles and
// agents are parsed once, where they enter (the command line, a file).
int64_t spec_parse_count();

// Reads `value` into parameter `p` of `out`. `what` names the parameter in
// errors ("parameter 'freeze' of agent 'heuristic'").
template <class P>
bool read_param(const Param<P>& p, std::string_view value, P& out, std::string_view what, std::string& error);

// The value of `p` in `in` as a spec writes it ("6", "0.7", "true", "heuristic").
template <class P>
std::string write_param(const Param<P>& p, const P& in);

// The range of `p` as help text shows it: "integer 0..100", "0..10", "random|heuristic", "true|false".
template <class P>
std::string param_range(const Param<P>& p);

// Untyped forms behind the templates above.
bool check_text(std::string_view value, std::string_view what, std::string& error);
// The one rule for text in a spec (a text parameter's value, as a record
// holds it too): ASCII letters, digits and _ . + - / only, so that a spec
// reads back from a record, a CSV cell or a terminal as it was given.
bool spec_value_ok(std::string_view value);
bool read_value(ParamStyle style, double lo, double hi, std::span<const std::string_view> choices,
                std::string_view value, double& out, std::string_view what, std::string& error);
std::string write_value(ParamStyle style, std::span<const std::string_view> choices, double v);
std::string range_text(ParamStyle style, double lo, double hi, std::span<const std::string_view> choices);

template <class P>
bool read_param(const Param<P>& p, std::string_view value, P& out, std::string_view what,
                std::string& error) {
  if (p.style == ParamStyle::kText) {
    if (!check_text(value, what, error)) return false;
    p.set_text(out, value);
    return true;
  }
  double v = 0;
  if (!read_value(p.style, p.lo, p.hi, p.choices, value, v, what, error)) return false;
  p.set(out, v);
  return true;
}

template <class P>
std::string write_param(const Param<P>& p, const P& in) {
  if (p.style == ParamStyle::kText) return std::string(p.get_text(in));
  return write_value(p.style, p.choices, p.get(in));
}

template <class P>
std::string param_range(const Param<P>& p) {
  return range_text(p.style, p.lo, p.hi, p.choices);
}

// Text from outside the program (a file, the command line, a person at the
// table) as a terminal may show it: every control character (C0, DEL, C1),
// every character that moves or hides text (bidi controls, zero-width
// characters, line separators) and every byte that is not well-formed UTF-8
// becomes '?', and text beyond `max` characters becomes "...". Errors and
// ordinary output quote such text through it, so that it stays on one line
// and can neither clear the screen nor retitle the window.
std::string printable(std::string_view text, size_t max = 120);
// True when printable() would show all of `text` as it is: the rule for text
// that a reader lets into the program (a parameter, an agent spec, a name in
// a file), so that what is shown later is what was given.
bool plain_text(std::string_view text);
// True for text that a spreadsheet would run as a formula if it began a CSV
// cell: it begins with '=', '+', '-' or '@' and is not a number. Writers of
// CSV refuse such text (or quote it) where it comes from outside.
bool formula_like(std::string_view text);

}  // namespace canasta
