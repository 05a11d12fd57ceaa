// canasta agents, canasta rules: what the registries hold.
#include <iostream>

#include "../cli.h"
#include "canasta/profile.h"

namespace canasta::cli {

void add_agents(CLI::App& app, int& exit_code) {
  app.add_subcommand("agents", "list the agents and their parameters")->callback([&exit_code] {
    std::cout << agents_help();
    exit_code = 0;
  });
}

void add_rules(CLI::App& app, int& exit_code) {
  app.add_subcommand("rules", "list the profiles and the rule overrides")->callback([&exit_code] {
    std::cout << profile_help();
    exit_code = 0;
  });
}

}  // namespace canasta::cli
