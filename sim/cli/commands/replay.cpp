// canasta replay: re-runs records through the engine.
#include "canasta/replay.h"

#include <iostream>

#include "../cli.h"
#include "canasta/record.h"

namespace canasta::cli {

void add_replay(CLI::App& app, int& exit_code) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto* sub = app.add_subcommand("replay", "re-run records: check every action and every score");
  sub->add_option("files", *files, "JSON Lines record files")->required();
  sub->callback([files, &exit_code] {
    RecordChecker checker;
    for (const auto& path : *files) {
      check_not_folder(path);
      std::ifstream in(path);
      if (!in) throw InputError{"cannot read '" + path + "'"};
      std::string line;
      int64_t line_no = 0, records = 0;
      while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        ++records;
        const std::string where = path + ":" + std::to_string(line_no);
        DealRecord rec;
        std::string error;
        if (!parse_record(line, rec, error)) throw InputError{where + ": " + error};
        if (!checker.check(rec, error)) {
          std::cerr << where << ": " << error << "\n";
          exit_code = kDisagree;
          return;
        }
      }
      if (records == 0)
        throw InputError{path +
                         (line_no == 0 ? ": no records (an empty file)" : ": no records (blank lines only)")};
    }
    std::cout << "replayed " << checker.game_deals << " deals of " << checker.games << " games and "
              << checker.single_deals << " single deals, " << checker.actions
              << " actions: all legal, all scores agree\n";
    exit_code = 0;
  });
}

}  // namespace canasta::cli
