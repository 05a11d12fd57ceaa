// The program's entry point, apart from cli.h so that main.cpp does not
// compile the command-line library's headers.
#pragma once

namespace canasta::cli {

// Runs the program on its arguments (argv[0] is the program name); returns
// the exit code. Subcommands print to stdout, errors to stderr.
int run(int argc, const char* const* argv);

}  // namespace canasta::cli
