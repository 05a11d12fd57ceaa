// The rules of a run's options that both front ends apply, the program
// (canasta sim: --deals, ...) and the Python module (canasta.sim(deals=...)):
// their ranges, the options that exclude each other, and the defaults. An
// option is named here as the module names its argument; the program's flag
// is the name after "--". What depends on the configuration as a whole (a
// third side only at a table of three) is check_config's (experiment.h).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace canasta {

// Deals (or whole games) a run plays: 1 to 2^40.
inline constexpr int64_t kMaxCount = int64_t{1} << 40;
// Worker threads: 0 (every core) to 1024.
inline constexpr int kMaxThreads = 1024;

// The deals a run plays when neither deals nor games is named: the
// program's runs are measurements, the module's a first look from a
// notebook. (ExperimentConfig's own default serves the library's callers.)
inline constexpr int64_t kProgramDeals = 200000;
inline constexpr int64_t kModuleDeals = 10000;

// Two options that a run does not take together; a refusal reads
// "FIRST excludes SECOND" (the program's: "--FIRST excludes --SECOND").
struct Exclusion {
  std::string_view first, second;
};
inline constexpr std::array<Exclusion, 3> kExclusions{{
    {"deals", "games"},  // whole games are counted by games, not deals
    {"games", "sprt"},   // the sequential test runs deals
    {"shard", "sprt"},   // ... in batches over the whole run
}};

}  // namespace canasta
