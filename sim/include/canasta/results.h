// The result files of a run (sim/doc/experiments.md, "Files"): deals.csv or
// games.csv, one line per row, and summary.json. Each CSV is written and
// read through one column table, so writer and reader cannot drift apart.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "canasta/experiment.h"
#include "canasta/stats.h"

namespace canasta {

// The rows file of a run of `c`: deals.csv, or games.csv for whole games.
const char* rows_file_name(const ExperimentConfig& c);

// deals.csv and games.csv have a column per table side of a value per side
// (score0, score1 and, at a table of three sides, score2, ...).
std::string rows_to_csv(std::span<const DealRow> rows, int sides = 2);
bool rows_from_csv(std::string_view text, std::vector<DealRow>& rows, std::string& error, int sides = 2);
// The lines of `rows` without the header, appended to `out` (a run streams its rows).
void append_rows_csv(std::string& out, std::span<const DealRow> rows, int sides = 2);
void append_game_rows_csv(std::string& out, std::span<const GameRow> rows, int sides = 2);
std::string game_rows_to_csv(std::span<const GameRow> rows, int sides = 2);
// One line of deals.csv (games.csv) without the header, as the whole-file
// readers take it: false where it is not one.
bool row_from_csv(std::string_view line, DealRow& row, int sides = 2);
bool row_from_csv(std::string_view line, GameRow& row, int sides = 2);
// The most bytes the rows file of a run (or shard) of `c` can hold: its
// header and a row of at most 2 KiB for each deal (game) and twin.
uint64_t rows_file_cap(const ExperimentConfig& c);
bool game_rows_from_csv(std::string_view text, std::vector<GameRow>& rows, std::string& error, int sides = 2);

// summary.json of a deals run (format canasta-summary/1) and of a games run
// (canasta-games-summary/1): the configuration, then every number of the summary.
std::string summary_to_json(const ExperimentConfig& c, const Summary& s);
std::string game_summary_to_json(const ExperimentConfig& c, const GameSummary& s);
// Reads the configuration of either kind of summary.json (c.games > 0 for a
// games run); its profile and agents are parsed here, once.
bool config_from_json(std::string_view text, ExperimentConfig& c, std::string& error);

// True when two configurations describe shards of the same run (all but the
// shard index and the thread count agree).
bool same_run(const ExperimentConfig& a, const ExperimentConfig& b);

}  // namespace canasta
