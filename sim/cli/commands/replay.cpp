// canasta replay: re-runs records through the engine.
#include "canasta/replay.h"

#include <iostream>

#include "../cli.h"
#include "canasta/input_file.h"
#include "canasta/params.h"
#include "canasta/record.h"

namespace canasta::cli {

void add_replay(CLI::App& app, int& exit_code) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto* sub = app.add_subcommand("replay", "re-run records: check every action and every score");
  sub->add_option("files", *files, "JSON Lines record files")->required();
  sub->callback([files, &exit_code] {
    RecordChecker checker;
    for (const auto& path : *files) {
      LineReader in;
      std::string line, error, read_error;
      if (!in.open(path, kMaxRecordLine, "a record file", read_error)) throw InputError{read_error};
      int64_t records = 0;
      while (in.next(line, read_error)) {
        if (line.empty()) continue;
        ++records;
        const std::string where = printable(path, 400) + ":" + std::to_string(in.line_number());
        DealRecord rec;
        if (!parse_record(line, rec, error)) throw InputError{where + ": " + error};
        if (!checker.check(rec, error)) {
          std::cerr << where << ": " << printable(error, 400) << "\n";
          exit_code = kDisagree;
          return;
        }
      }
      if (!read_error.empty()) throw InputError{read_error};
      if (records == 0)
        throw InputError{printable(path, 400) + (in.line_number() == 0 ? ": no records (an empty file)"
                                                                       : ": no records (blank lines only)")};
    }
    std::cout << "replayed " << checker.game_deals << " deals of " << checker.games << " games and "
              << checker.single_deals << " single deals, " << checker.actions
              << " actions: all legal, all scores agree\n";
    exit_code = 0;
  });
}

}  // namespace canasta::cli
