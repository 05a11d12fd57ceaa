// The game's bindings: the registry (load_game), the rules' parameters, the
// game type with OpenSpiel's enums, and the Game class (sim/doc/python.md).
#include <fmt/format.h>
#include <pybind11/stl.h>

#include <charconv>
#include <sstream>

#include "bindings.h"
#include "canasta/profile.h"
#include "canasta/text.h"
#include "py_game.h"

namespace canasta::python {

namespace {

constexpr std::string_view kGameName = "canasta";

std::string text_of(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  return py::str(value).cast<std::string>();
}

// The items of "name(key=value,...)", after checking the name.
std::vector<std::pair<std::string, std::string>> game_string_items(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> given;
  std::string name = text;
  if (const size_t open = text.find('('); open != std::string::npos) {
    if (text.back() != ')')
      throw py::value_error("a game string is name(key=value,...): '" + printable(text) + "'");
    name = text.substr(0, open);
    std::stringstream in(text.substr(open + 1, text.size() - open - 2));
    for (std::string item; std::getline(in, item, ',');) {
      const size_t eq = item.find('=');
      if (eq == std::string::npos)
        throw py::value_error("a game parameter is key=value: '" + printable(item) + "'");
      given.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
  }
  if (name != kGameName)
    throw py::value_error("unknown game '" + printable(name) + "' (registered: canasta)");
  return given;
}

// load_game("canasta"), load_game("canasta(profile=two-player,target=3000)"),
// load_game("canasta", {"profile": "spanish", "seed": 5}): `profile` and
// `seed` are the game's parameters; any other is a rule of the profile.
GamePtr load_game(const std::string& text, const py::dict& params) {
  std::vector<std::pair<std::string, std::string>> given = game_string_items(text);
  for (const auto& [key, value] : params) given.emplace_back(text_of(key), text_of(value));
  std::string profile = "classic", overrides;
  uint64_t seed = 1;
  for (const auto& [key, value] : given) {
    if (key == "profile") {
      profile = value;
    } else if (key == "seed") {
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seed);
      if (ec != std::errc() || end != value.data() + value.size())
        throw py::value_error("parameter 'seed' wants a whole number, not '" + printable(value) + "'");
    } else {
      overrides += "," + key + "=" + value;
    }
  }
  return make_game(profile + overrides, seed);
}

const char* style_name(ParamStyle style) {
  switch (style) {
    case ParamStyle::kInteger:
      return "integer";
    case ParamStyle::kReal:
      return "real";
    case ParamStyle::kFlag:
      return "flag";
    case ParamStyle::kChoice:
      return "choice";
    case ParamStyle::kText:
      return "text";
  }
  return "";
}

// The rule overrides of `canasta rules`, one dict each.
py::list rule_parameters() {
  py::list out;
  for (const Param<Rules>& p : rule_params()) {
    py::dict d;
    d["name"] = std::string(p.name);
    d["style"] = style_name(p.style);
    d["lo"] = p.lo;
    d["hi"] = p.hi;
    py::list choices;
    for (std::string_view c : p.choices) choices.append(std::string(c));
    d["choices"] = choices;
    d["help"] = std::string(p.help);
    out.append(d);
  }
  return out;
}

// A profile spec in its canonical form, split: the built-in profile it
// starts from, and each rule it overrides with its value (a whole number,
// 0 or 1 for a flag, a name for a choice).
py::dict profile_parameters(const std::string& spec) {
  const Rules r = rules_or_raise(spec);
  const std::string canonical = profile_spec(r);
  py::dict out;
  out["profile"] = canonical.substr(0, canonical.find(','));
  for (size_t at = canonical.find(','); at != std::string::npos; at = canonical.find(',', at + 1)) {
    const std::string key = canonical.substr(at + 1, canonical.find('=', at) - at - 1);
    for (const Param<Rules>& p : rule_params()) {
      if (p.name != key) continue;
      const double v = p.get(r);
      if (p.style == ParamStyle::kChoice)
        out[py::str(key)] = std::string(p.choices[static_cast<size_t>(v)]);
      else
        out[py::str(key)] = static_cast<int64_t>(v);
    }
  }
  return out;
}

}  // namespace

void bind_game(py::module_& m) {
  m.attr("OBSERVATION_SIZE") = kObservationSize;
  m.attr("TERMINAL") = kTerminalPlayer;
  m.def(
      "load_game", [](const std::string& text, const py::dict& params) { return load_game(text, params); },
      py::arg("name"), py::arg("params") = py::dict(),
      "the game: load_game(\"canasta\"), load_game(\"canasta(profile=two-player)\"), "
      "load_game(\"canasta\", {\"profile\": \"spanish\", \"seed\": 5})");
  m.def("registered_names", [] { return std::vector<std::string>{std::string(kGameName)}; });
  m.def(
      "profiles",
      [] {
        std::vector<std::string> out;
        for (const Profile& p : canasta::profiles()) out.emplace_back(p.name);
        return out;
      },
      "the names of the built-in rules profiles");
  m.def("rule_parameters", &rule_parameters,
        "the rule overrides of `canasta rules`: dicts of name, style (integer, flag, choice), lo, hi, "
        "choices, help");
  m.def("profile_parameters", &profile_parameters, py::arg("spec"),
        "a profile spec in canonical form, split: {'profile': built-in profile, rule: value, ...}");
  bind_types(m);
  bind_game_class(m);
  bind_state_class(m);
  bind_observer(m);
  bind_agents(m);
}

}  // namespace canasta::python
