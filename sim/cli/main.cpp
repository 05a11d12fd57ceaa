// canasta: the command line (sim/cli/cli.h; one file per subcommand in commands/).
#include "cli.h"

int main(int argc, char** argv) { return canasta::cli::run(argc, argv); }
