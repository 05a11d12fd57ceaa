// The program's entry point: its subcommands, and what becomes of an error.
#include "cli.h"

#include <iostream>
#include <string_view>

#include "canasta/params.h"
#include "cluster.h"

namespace canasta::cli {

int run(int argc, const char* const* argv) {
  CLI::App app{"canasta: a Canasta rules engine, self-play simulator and AI research bench"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "canasta 0.1.0");
  stop_requested() = false;
  command_line().assign(argv, argv + argc);
  int exit_code = 0;
  add_deal(app, exit_code);
  add_play(app, exit_code);
  add_agents(app, exit_code);
  add_replay(app, exit_code);
  add_show(app, exit_code);
  add_sim(app, exit_code);
  add_merge(app, exit_code);
  add_tune(app, exit_code);
  add_tournament(app, exit_code);
  add_rules(app, exit_code);
  add_selfplay(app, exit_code);
  add_train(app, exit_code);
  // Under mpirun `sim`, `tune` and `tournament` are spread over the ranks;
  // any other subcommand runs on rank 0 alone.
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (cluster().size > 1 && cluster().rank != 0 && command != "sim" && command != "tune" &&
      command != "tournament")
    return 0;
  decimal_integers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "canasta: " << printable(e.what(), 400) << " (see --help)\n";
    return kBadInput;
  } catch (const InputError& e) {
    std::cerr << "canasta: " << printable(e.message, 400) << "\n";
    return kBadInput;
  } catch (const QuietExit& e) {
    return e.code;
  } catch (const std::bad_alloc&) {
    std::cerr << "canasta: out of memory\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "canasta: " << printable(e.what(), 400) << "\n";
    return kBadInput;
  }
  return exit_code;
}

}  // namespace canasta::cli
