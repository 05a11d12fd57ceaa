// The canasta program: the pieces its subcommands share. Each subcommand
// lives in commands/<name>.cpp as one thin function over the libraries; the
// options it reads are parsed there, once, into the structs the libraries take.
#pragma once

#include <CLI/CLI.hpp>

#include "canasta/cli/checks.h"
#include "canasta/cli/options.h"
#include "canasta/experiment.h"
#include "canasta/files.h"
#include "canasta/input_error.h"
#include "canasta/json.h"
#include "canasta/resume.h"
#include "canasta/run_folder.h"
#include "canasta/stats.h"
#include "program.h"
#include "progress.h"
#include "resume_option.h"
#include "run_files.h"
#include "signals.h"

namespace canasta::cli {

// Each subcommand adds itself to `app`; its callback runs the command and
// sets `exit_code`.
void add_deal(CLI::App& app, int& exit_code);
void add_play(CLI::App& app, int& exit_code);
void add_agents(CLI::App& app, int& exit_code);
void add_replay(CLI::App& app, int& exit_code);
void add_show(CLI::App& app, int& exit_code);
void add_sim(CLI::App& app, int& exit_code);
void add_merge(CLI::App& app, int& exit_code);
void add_tune(CLI::App& app, int& exit_code);
void add_tournament(CLI::App& app, int& exit_code);
void add_rules(CLI::App& app, int& exit_code);
void add_selfplay(CLI::App& app, int& exit_code);
void add_train(CLI::App& app, int& exit_code);

// The summaries as the program prints them.
void print_summary(const ExperimentConfig& c, const Summary& s);
void print_game_summary(const ExperimentConfig& c, const GameSummary& s);

}  // namespace canasta::cli
