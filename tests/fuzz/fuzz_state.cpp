// libFuzzer target: what a run folder or a resume state holds, read as a
// resumed or merged run reads it: a summary's configuration, run.json's
// tally, positions and command (a tuning state holds the same), a shard's
// rows. Whatever a reader takes is then summarised: no overflow (UBSan), no
// crash, whatever the numbers.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/experiment.h"
#include "canasta/json.h"
#include "canasta/results.h"
#include "canasta/run_folder.h"
#include "canasta/stats.h"

using namespace canasta;

namespace {

void summarise(const Tally& t) {
  for (const bool duplicate : {false, true})
    for (const int sides : {2, 3}) {
      [[maybe_unused]] const Summary s = summarize(t, RunShape{duplicate, sides});
      [[maybe_unused]] const GameSummary g = summarize_games(t, RunShape{duplicate, sides});
    }
}

void run_state(std::string_view text) {
  Json v;
  std::string error;
  if (!parse_json(text, v, error)) return;
  Tally t;
  if (read_tally(v, t)) summarise(t);
  Ranges done;
  if (v.is_object() && v.contains("resume") && read_done(v["resume"], done)) ranges_size(done);
  std::vector<std::string> command;
  read_command(v, command);
}

void rows(std::string_view text, int sides) {
  std::vector<DealRow> deals;
  std::vector<GameRow> games;
  std::string error;
  if (rows_from_csv(text, deals, error, sides)) {
    const Tally t = tally(deals, {true, sides});
    if (t.in_range()) summarise(t);
  }
  if (game_rows_from_csv(text, games, error, sides)) {
    const Tally t = tally_games(games, {true, sides});
    if (t.in_range()) summarise(t);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 65536) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      ExperimentConfig c;
      std::string error;
      config_from_json(text, c, error);
      break;
    }
    case 1:
      run_state(text);
      break;
    default:
      rows(text, data[0] % 4 == 2 ? 2 : 3);
      break;
  }
  return 0;
}
