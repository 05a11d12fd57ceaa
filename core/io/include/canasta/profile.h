// Rules profiles by name, with overrides: "classic", "two-player,target=3000"
// (core/doc/rules.md). A profile is a Rules value; this is how one is read
// from and written to text.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "canasta/params.h"
#include "canasta/rules.h"

namespace canasta {

// A built-in profile.
struct Profile {
  std::string_view name;
  std::string_view about;
  Rules rules;
};
std::span<const Profile> profiles();

// The rules a spec may override, in the order specs write them.
std::span<const Param<Rules>> rule_params();

// Builds rules from a profile spec: a profile name, optionally followed by
// comma-separated overrides, e.g. "two-player,target=3000,draw=1". Returns
// false and sets `error` to a one-line message on a bad spec.
bool parse_profile(std::string_view spec, Rules& out, std::string& error);

// The canonical spec of `rules`: its profile and the overrides that differ
// from it, in table order ("classic", "two-player,target=3000").
std::string profile_spec(const Rules& rules);

// The profiles and the overrides, for `canasta rules`.
std::string profile_help();

}  // namespace canasta
