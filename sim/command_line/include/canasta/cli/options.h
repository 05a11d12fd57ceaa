// Options that several commands take, each parsed once from its text into
// the struct the libraries take (CLI11): the program's subcommands, and the
// Python module where it reads a stopped run's command again.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

#include "canasta/agent.h"
#include "canasta/resume.h"
#include "canasta/rules.h"

namespace canasta::cli {

CLI::Option* add_profile_option(CLI::App& sub, Rules& out);
CLI::Option* add_agent_option(CLI::App& sub, const std::string& name, AgentSpec& out,
                              const std::string& help);
CLI::Option* add_seed_option(CLI::App& sub, uint64_t& seed, const std::string& help);
CLI::Option* add_threads_option(CLI::App& sub, int& threads);
// An agent spec as --side0 or --seat takes it; throws CLI::ValidationError.
AgentSpec agent_or_throw(const std::string& option, const std::string& text);

// For the options that name a file or a folder: an empty name is refused
// (it would silently mean none).
inline CLI::Validator named() {
  return CLI::Validator(
      [](const std::string& s) { return s.empty() ? std::string("an empty name") : std::string(); }, "");
}

// Parses a stopped run's command again with `app`, a bare app with the
// subcommand and its options, the thread count given now (`threads`, when
// one was given) in place of the run's. Throws InputError.
void parse_stopped_command(CLI::App& app, const StoppedRun& run, std::optional<int> threads);

}  // namespace canasta::cli
