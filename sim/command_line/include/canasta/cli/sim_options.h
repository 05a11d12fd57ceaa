// The options of `canasta sim`, as the program takes them and as a stopped
// run's run.json stores them (its command): read again by the program and
// by the Python module to resume the run as its command said.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "canasta/agent.h"
#include "canasta/experiment.h"
#include "canasta/resume.h"

namespace canasta::cli {

// Where a sim run's files go.
struct SimFiles {
  std::string out_dir, record;
  bool rows = true;  // deals.csv / games.csv beside summary.json
};

// The options of `canasta sim`, read into `c` and `files`; finish() sets
// what follows from them once parsed (the duplicate default, side 2).
struct SimOptions {
  ExperimentConfig c;
  SimFiles files;
  std::string rows = "all", resume;
  bool duplicate = false;
  AgentSpec side2;
  CLI::Option *duplicate_option = nullptr, *side2_option = nullptr;

  void finish();
};
void add_sim_options(CLI::App& sub, SimOptions& o);

// The options of the stopped sim run `run`: its command read again (with
// `threads` as parse_stopped_command takes it) and finished, its files
// going where the run now is (the records where the resuming command says:
// output_named_now).
SimOptions stopped_sim_options(const StoppedRun& run, std::optional<int> threads);

}  // namespace canasta::cli
