// The program's entry point and exit codes, apart from cli.h so that main.cpp
// does not compile the command-line library's headers.
#pragma once

namespace canasta::cli {

constexpr int kDisagree = 1;  // a record disagrees with the engine
constexpr int kBadInput = 2;  // bad input: one line on stderr
// Stopped by a signal: 128 + its number (130 for Ctrl-C); what finished is kept.

// Runs the program on its arguments (argv[0] is the program name); returns
// the exit code. Subcommands print to stdout, errors to stderr.
int run(int argc, const char* const* argv);

}  // namespace canasta::cli
