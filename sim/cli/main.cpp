// canasta: the command line (sim/cli/program.h, cli.h; one file per subcommand in commands/).
#include "cluster.h"
#include "program.h"

int main(int argc, char** argv) {
  canasta::cli::cluster_start(argc, argv);
  const int code = canasta::cli::run(argc, argv);
  canasta::cli::cluster_stop();
  return code;
}
