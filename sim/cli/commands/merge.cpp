// canasta merge: shards of one run combined into exactly the single run's files.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "../cli.h"
#include "canasta/input_file.h"
#include "canasta/json.h"
#include "canasta/profile.h"
#include "canasta/results.h"

namespace canasta::cli {

namespace {

// A shard directory's summary, as written, and the tally of its rows from
// run.json (where there is one).
struct ShardSummary {
  ExperimentConfig config;
  std::string text, status;
  int version = 0;  // of the summary format
  std::optional<Tally> tally;
};

// A run.json beside the files lists their sizes and checksums: they must hold.
void check_manifest(const std::string& dir, std::optional<Tally>& tally) {
  std::error_code ec;
  if (std::filesystem::symlink_status(dir + "/run.json", ec).type() == std::filesystem::file_type::not_found)
    return;
  Json v;
  std::string error;
  if (!parse_json(read_file(dir + "/run.json", kMaxJsonFile, "a run manifest"), v, error) || !v.is_object() ||
      !v.contains("files") || !v["files"].is_array())
    throw InputError{dir + "/run.json: not a run manifest" + (error.empty() ? "" : ": " + error)};
  if (Tally t; read_tally(v, t)) tally = t;
  check_listed_files(dir, v);
}

ShardSummary read_summary(const std::string& dir) {
  ShardSummary s;
  check_manifest(dir, s.tally);
  s.text = read_file(dir + "/summary.json", kMaxSummaryFile, "a run's summary");
  std::string error;
  if (!config_from_json(s.text, s.config, error)) throw InputError{dir + "/summary.json: " + error};
  Json v;
  parse_json(s.text, v, error);
  const std::string format = v.value("format", "");
  s.version = format.ends_with("/2") ? 2 : 1;
  s.status = v.value("status", "complete");
  return s;
}

// Merges the shards of one run (Row: DealRow or GameRow) into what the
// single run gives, and prints and writes it: from their rows, or from the
// tallies in their run.json where they kept none (sim --rows none), the
// summary alone.
template <class Row>
struct Merge {
  const char* csv;               // the rows' file
  const char* what;              // in the header line after the agents
  int64_t (*index)(const Row&);  // deal or game index
  bool (*from_csv)(std::string_view, std::vector<Row>&, std::string&, int sides);
  std::string (*to_csv)(std::span<const Row>, int sides);
  Tally (*tally_of)(std::span<const Row>, RunShape shape);

  // A shard's rows: each index of the run and of the shard, each twin of it
  // at most once (a row repeated, or of another run, would count twice).
  void check_indices(const std::string& dir, const ExperimentConfig& c, std::vector<Row>& part) const {
    const int64_t count = c.games > 0 ? c.games : c.deals;
    const int twins = twin_count(c);
    for (const Row& r : part) {
      if (index(r) < 0 || index(r) >= count || r.swapped < 0 || r.swapped >= twins)
        throw InputError{fmt::format("{}: {} holds index {} twin {}, outside the run ({} of {} twins)", dir,
                                     csv, index(r), r.swapped, count, twins)};
      if (index(r) % c.shards != c.shard)
        throw InputError{fmt::format("{}: {} holds index {}, which is not shard {}/{}'s", dir, csv, index(r),
                                     c.shard, c.shards)};
    }
    std::sort(part.begin(), part.end(), [&](const Row& a, const Row& b) {
      return index(a) != index(b) ? index(a) < index(b) : a.swapped < b.swapped;
    });
    for (size_t i = 1; i < part.size(); ++i)
      if (index(part[i]) == index(part[i - 1]) && part[i].swapped == part[i - 1].swapped)
        throw InputError{
            fmt::format("{}: {} holds index {} twin {} twice", dir, csv, index(part[i]), part[i].swapped)};
  }

  template <class Summarize, class Print, class ToJson>
  void run(const std::vector<std::string>& dirs, const std::string& out_dir, bool partial,
           Summarize summarize, Print print, ToJson to_json) const {
    OutDir out(out_dir);
    ExperimentConfig merged;
    std::vector<Row> rows;
    Tally total;
    int with_rows = 0;
    std::map<int, std::string> shard_dirs;  // shard index -> its directory
    for (size_t i = 0; i < dirs.size(); ++i) {
      const std::string& dir = dirs[i];
      const ShardSummary s = read_summary(dir);
      const ExperimentConfig& c = s.config;
      if (i > 0 && !same_run(c, merged))
        throw InputError{dir + ": not a shard of the same run as " + dirs[0]};
      if (i == 0) merged = c;
      if (const auto seen = shard_dirs.find(c.shard); seen != shard_dirs.end())
        throw InputError{fmt::format("{} and {} are both shard {}/{}", seen->second, dir, c.shard, c.shards)};
      shard_dirs[c.shard] = dir;
      std::vector<Row> part;
      std::string error;
      std::error_code ec;
      const bool has_rows = std::filesystem::symlink_status(dir + "/" + csv, ec).type() !=
                            std::filesystem::file_type::not_found;
      with_rows += has_rows ? 1 : 0;
      if (!has_rows && !s.tally)
        throw InputError{printable(dir) + ": neither " + csv + " nor a tally in run.json"};
      if (has_rows && !from_csv(read_file(dir + "/" + csv, rows_file_cap(c), "a table of rows"), part, error,
                                c.rules.teams))
        throw InputError{dir + ": " + error};
      check_indices(dir, c, part);
      // The summary is a function of the configuration and the tally of the
      // rows: files of two runs, or a summary and rows (or tally) that do not
      // belong together, show here.
      const Tally t = has_rows ? tally_of(part, RunShape::of(c)) : *s.tally;
      if (!t.in_range()) throw InputError{fmt::format("{}: {} holds more than a run can", dir, csv)};
      if ((s.version == 2 || !has_rows) && to_json(c, summarize(t, c)) != s.text)
        throw InputError{fmt::format("{}: {} and summary.json do not belong to one run", dir,
                                     has_rows ? csv : "run.json's tally")};
      if (!total.add_in_range(t))
        throw InputError{fmt::format("{}: the shards' tallies add up beyond what a run can hold", dir)};
      if (s.status == "partial" && !partial)
        throw InputError{
            fmt::format("{}: shard {}/{} stopped before its end (merge --partial merges it as it is)", dir,
                        c.shard, c.shards)};
      rows.insert(rows.end(), part.begin(), part.end());
    }
    std::vector<int> missing;
    for (int shard = 0; shard < merged.shards; ++shard)
      if (!shard_dirs.contains(shard)) missing.push_back(shard);
    if (!missing.empty() && !partial)
      throw InputError{fmt::format("shard{} {} of {} missing (merge --partial merges what is there)",
                                   missing.size() > 1 ? "s" : "", fmt::join(missing, ", "), merged.shards)};
    if (with_rows != 0 && with_rows != static_cast<int>(dirs.size()))
      throw InputError{
          fmt::format("some shards kept their rows ({}) and some did not: merge them alike", csv)};
    std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
      return index(a) != index(b) ? index(a) < index(b) : a.swapped < b.swapped;
    });
    merged.shard = 0;
    merged.shards = 1;
    const auto s = summarize(total, merged);
    fmt::print("canasta merge: {} shard directories, {} against {}{}, profile {}, seed {}\n", dirs.size(),
               merged.side0.to_string(), merged.side1.to_string(), what, profile_spec(merged.rules),
               merged.seed);
    for (const SeatAgent& seat : merged.seats)
      fmt::print("  seat {} plays {}\n", seat.seat, seat.agent.to_string());
    print(merged, s);
    if (!missing.empty()) fmt::print("  partial      shards missing: {}\n", fmt::join(missing, ", "));
    if (s.status != "complete" && missing.empty())
      fmt::print("  partial      some shards stopped before their end\n");
    std::vector<std::pair<std::string, std::string>> files{{"summary.json", to_json(merged, s)}};
    if (with_rows > 0) files.emplace_back(csv, to_csv(rows, merged.rules.teams));
    out.commit(files, std::string(s.status), s.rows, {}, [&total](JsonWriter& w) { write_tally(w, total); });
  }
};

}  // namespace

void add_merge(CLI::App& app, int& exit_code) {
  struct Options {
    std::vector<std::string> dirs;
    std::string out_dir;
    bool partial = false;
  };
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("merge", "combine shard outputs into the summary a single run gives");
  sub->add_option("dirs", o->dirs, "shard directories written by sim --out")->required();
  sub->add_option("--out,-o", o->out_dir, "write the merged summary.json and deals.csv here")->check(named());
  sub->add_flag("--partial", o->partial,
                "merge what is there: missing shards and shards stopped before their end (the summary says "
                "\"partial\")");
  sub->callback([o, &exit_code] {
    const auto& dirs = o->dirs;
    std::vector<NamedPath> shards;
    for (const std::string& dir : dirs) shards.push_back({"a shard to merge", dir});
    check_distinct_files({{"--out", o->out_dir}}, shards);
    const ShardSummary first = read_summary(dirs[0]);
    exit_code = 0;
    if (first.config.games > 0) {
      const Merge<GameRow> merge{
          "games.csv",        ", whole games",  [](const GameRow& r) { return r.game; },
          game_rows_from_csv, game_rows_to_csv, tally_games};
      merge.run(
          dirs, o->out_dir, o->partial, [](const Tally& t, const auto& m) { return summarize_games(t, m); },
          print_game_summary, game_summary_to_json);
    } else {
      const Merge<DealRow> merge{"deals.csv",   "",          [](const DealRow& r) { return r.deal; },
                                 rows_from_csv, rows_to_csv, tally};
      merge.run(
          dirs, o->out_dir, o->partial, [](const Tally& t, const auto& m) { return summarize(t, m); },
          print_summary, summary_to_json);
    }
  });
}

}  // namespace canasta::cli
