// canasta merge: shards of one run combined into exactly the single run's files.
#include <fmt/format.h>

#include <algorithm>

#include "../cli.h"
#include "canasta/profile.h"
#include "canasta/results.h"

namespace canasta::cli {

namespace {

// Reads the shards' rows (Row: DealRow or GameRow, `index` its deal or game),
// checks they belong to one run and do not overlap, and returns them in
// (index, twin) order with the run's configuration.
template <class Row, class Index, class FromCsv>
std::vector<Row> read_shards(const std::vector<std::string>& dirs, const char* csv, Index index,
                             FromCsv from_csv, ExperimentConfig& merged) {
  std::vector<Row> rows;
  for (size_t i = 0; i < dirs.size(); ++i) {
    ExperimentConfig c;
    std::string error;
    if (!config_from_json(read_file(dirs[i] + "/summary.json"), c, error))
      throw InputError{dirs[i] + ": " + error};
    std::vector<Row> part;
    if (!from_csv(read_file(dirs[i] + "/" + csv), part, error)) throw InputError{dirs[i] + ": " + error};
    if (i > 0 && !same_run(c, merged))
      throw InputError{dirs[i] + ": not a shard of the same run as " + dirs[0]};
    if (i == 0) merged = c;
    rows.insert(rows.end(), part.begin(), part.end());
  }
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    return index(a) != index(b) ? index(a) < index(b) : a.swapped < b.swapped;
  });
  for (size_t i = 1; i < rows.size(); ++i)
    if (index(rows[i]) == index(rows[i - 1]) && rows[i].swapped == rows[i - 1].swapped)
      throw InputError{std::string(merged.games > 0 ? "game " : "deal ") + std::to_string(index(rows[i])) +
                       " appears in two shards"};
  merged.shard = 0;
  merged.shards = 1;
  return rows;
}

// Merges the shards' rows (Row: DealRow or GameRow) and prints and writes
// what a single run would have.
template <class Row>
struct Merge {
  const char* csv;               // the rows' file
  const char* what;              // in the header line after the agents
  int64_t (*index)(const Row&);  // deal or game index
  bool (*from_csv)(std::string_view, std::vector<Row>&, std::string&);
  std::string (*to_csv)(const std::vector<Row>&);

  template <class Summarize, class Print, class ToJson>
  void run(const std::vector<std::string>& dirs, const std::string& out_dir, Summarize summarize, Print print,
           ToJson to_json) const {
    ExperimentConfig m;
    const std::vector<Row> rows = read_shards<Row>(dirs, csv, index, from_csv, m);
    const auto s = summarize(rows, m.duplicate);
    fmt::print("canasta merge: {} shard directories, {} against {}{}, profile {}, seed {}\n", dirs.size(),
               m.side0.to_string().c_str(), m.side1.to_string().c_str(), what, profile_spec(m.rules).c_str(),
               static_cast<unsigned long long>(m.seed));
    for (const SeatAgent& seat : m.seats)
      fmt::print("  seat {} plays {}\n", seat.seat, seat.agent.to_string().c_str());
    print(m, s);
    if (!out_dir.empty()) write_dir(out_dir, {{"summary.json", to_json(m, s)}, {csv, to_csv(rows)}});
  }
};

}  // namespace

void add_merge(CLI::App& app, int& exit_code) {
  struct Options {
    std::vector<std::string> dirs;
    std::string out_dir;
  };
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("merge", "combine shard outputs into the summary a single run gives");
  sub->add_option("dirs", o->dirs, "shard directories written by sim --out")->required();
  sub->add_option("--out,-o", o->out_dir, "write the merged summary.json and deals.csv here");
  sub->callback([o, &exit_code] {
    const auto& dirs = o->dirs;
    ExperimentConfig first;
    std::string error;
    if (!config_from_json(read_file(dirs[0] + "/summary.json"), first, error))
      throw InputError{dirs[0] + ": " + error};
    exit_code = 0;
    if (first.games > 0) {
      const Merge<GameRow> merge{"games.csv", ", whole games", [](const GameRow& r) { return r.game; },
                                 game_rows_from_csv, game_rows_to_csv};
      merge.run(dirs, o->out_dir, summarize_games, print_game_summary, game_summary_to_json);
    } else {
      const Merge<DealRow> merge{"deals.csv", "", [](const DealRow& r) { return r.deal; }, rows_from_csv,
                                 rows_to_csv};
      merge.run(dirs, o->out_dir, summarize, print_summary, summary_to_json);
    }
  });
}

}  // namespace canasta::cli
