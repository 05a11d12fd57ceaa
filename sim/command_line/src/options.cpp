#include "canasta/cli/options.h"

#include <algorithm>
#include <vector>

#include "canasta/params.h"
#include "canasta/profile.h"
#include "canasta/run_options.h"

namespace canasta::cli {

CLI::Option* add_profile_option(CLI::App& sub, Rules& out) {
  return sub
      .add_option_function<std::string>(
          "--profile,-p",
          [&out](const std::string& text) {
            std::string error;
            if (text.empty())
              throw CLI::ValidationError("--profile", "an empty name (canasta rules lists them)");
            if (!parse_profile(text, out, error)) throw CLI::ValidationError("--profile", error);
          },
          "rules profile and overrides, e.g. 'two-player,target=3000' (canasta rules lists them)")
      ->type_name("PROFILE")
      ->default_str("classic");
}

AgentSpec agent_or_throw(const std::string& option, const std::string& text) {
  AgentSpec spec;
  std::string error;
  if (!parse_agent_spec(text, spec, error)) throw CLI::ValidationError(option, error);
  return spec;
}

CLI::Option* add_agent_option(CLI::App& sub, const std::string& name, AgentSpec& out,
                              const std::string& help) {
  const std::string flag = name.substr(0, name.find(','));
  return sub
      .add_option_function<std::string>(
          name, [&out, flag](const std::string& text) { out = agent_or_throw(flag, text); }, help)
      ->type_name("SPEC")
      ->default_str(out.to_string());
}

CLI::Option* add_seed_option(CLI::App& sub, uint64_t& seed, const std::string& help) {
  return sub.add_option("--seed,-s", seed, help)->capture_default_str();
}

CLI::Option* add_threads_option(CLI::App& sub, int& threads) {
  return sub.add_option("--threads,-t", threads, "worker threads (0: all cores)")
      ->check(CLI::Range(0, kMaxThreads))
      ->capture_default_str();
}

void parse_stopped_command(CLI::App& app, const StoppedRun& run, std::optional<int> threads) {
  std::vector<std::string> args;
  for (size_t i = 1; i < run.command.size(); ++i) {
    const std::string& a = run.command[i];
    if (threads && (a == "--threads" || a == "-t")) {
      ++i;  // the thread count given now replaces the run's
      continue;
    }
    if (threads && a.starts_with("--threads=")) continue;
    args.push_back(a);
  }
  if (threads) {
    args.push_back("--threads");
    args.push_back(std::to_string(*threads));
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    throw InputError{printable(run.file) + ": its command does not read: " + e.what()};
  }
}

}  // namespace canasta::cli
