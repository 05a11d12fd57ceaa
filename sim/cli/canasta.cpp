// canasta: the command line. Each subcommand is a thin layer over the libraries.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/experiment.h"
#include "canasta/game.h"
#include "canasta/notation.h"
#include "canasta/record.h"
#include "canasta/sim.h"
#include "canasta/tournament.h"

namespace {

using namespace canasta;

constexpr int kBadInput = 2;
constexpr int kDisagree = 1;

// An error the user caused: one line on stderr, exit code 2.
struct InputError {
  std::string message;
};

Rules rules_or_throw(const std::string& spec) {
  Rules r;
  std::string error;
  if (!parse_profile(spec, r, error)) throw InputError{error};
  return r;
}

// Writes `text` to `path` through a temporary file renamed when complete.
void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw InputError{"cannot write '" + path + "'"};
    out << text;
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp);
      throw InputError{"cannot write '" + path + "'"};
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw InputError{"cannot write '" + path + "': " + ec.message()};
  }
}

int cmd_deal(const std::string& profile, uint64_t seed, int deal) {
  const Rules rules = rules_or_throw(profile);
  Game g = new_game(rules, seed);
  for (int i = 0; i < deal; ++i) {
    ++g.deal;
    g.dealer = (g.dealer + 1) % rules.players;
  }
  State s;
  start_next_deal(g, s);
  Deck deck;
  const int n = game_deck(rules, seed, deal, deck);
  std::cout << "# seed " << seed << ", deal " << deal << ", dealer " << int(s.dealer) << "\n";
  std::cout << "# deck: " << deck_to_string(deck, n) << "\n";
  std::cout << position_to_string(s);
  ActionList legal;
  legal_actions(s, legal);
  std::cout << "# seat " << s.actor() << " to move; legal:";
  for (Action a : legal) std::cout << " [" << action_to_string(a) << "]";
  std::cout << "\n";
  return 0;
}

int cmd_play(const std::string& profile, uint64_t seed, const std::string& record_path,
             const std::array<std::string, 2>& sides) {
  const Rules rules = rules_or_throw(profile);
  std::array<std::unique_ptr<Agent>, kMaxSeats> owned;
  std::array<Agent*, kMaxSeats> agents{};
  for (int seat = 0; seat < rules.players; ++seat) {
    std::string error;
    owned[seat] = make_agent(sides[rules.team_of(seat) % 2], error);
    if (!owned[seat]) throw InputError{error};
    agents[seat] = owned[seat].get();
  }
  std::string lines;
  int deals = 0;
  const Game g = play_game(rules, seed, agents, [&](const DealRecord& rec) {
    if (!record_path.empty()) lines += to_json_line(rec) + "\n";
    ++deals;
  });
  if (!record_path.empty()) write_atomically(record_path, lines);
  std::cout << "game seed " << seed << " (" << profile_spec(rules) << "): " << deals << " deals, totals";
  for (int t = 0; t < rules.teams; ++t) std::cout << " " << g.totals[t];
  std::cout << ", " << game_end_name(g.end);
  if (g.end == GameEnd::kWon) std::cout << " by side " << g.winner;
  std::cout << "\n";
  if (!record_path.empty()) std::cout << "record: " << record_path << "\n";
  return 0;
}

int cmd_replay(const std::vector<std::string>& files) {
  RecordChecker checker;
  for (const auto& path : files) {
    std::ifstream in(path);
    if (!in) throw InputError{"cannot read '" + path + "'"};
    std::string line;
    int64_t line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      if (line.empty()) continue;
      const std::string where = path + ":" + std::to_string(line_no);
      DealRecord rec;
      std::string error;
      if (!parse_record(line, rec, error)) throw InputError{where + ": " + error};
      if (!checker.check(rec, error)) {
        std::cerr << where << ": " << error << "\n";
        return kDisagree;
      }
    }
  }
  std::cout << "replayed " << checker.game_deals << " deals of " << checker.games << " games and "
            << checker.single_deals << " single deals, " << checker.actions
            << " actions: all legal, all scores agree\n";
  return 0;
}

std::atomic<bool> g_stop{false};

void print_per_deal(const PerDeal& p) {
  std::printf(
      "  deal ended   went out %.2f%% (concealed %.2f%%), stock ran out %.2f%%, red three last %.2f%%\n",
      100 * p.went_out, 100 * p.concealed, 100 * p.stock_out, 100 * p.red_three_last);
  std::printf(
      "  per deal     %.1f actions, %.1f turns, %.2f natural + %.2f mixed canastas, %.2f red threes\n",
      p.actions, p.turns, p.natural_canastas, p.mixed_canastas, p.red_threes);
  std::printf(
      "  the pile     %.2f pickups per deal of %.1f cards, %.2f freezes by a wild, %.2f black-three blocks;"
      " a side opens on turn %.1f\n",
      p.pickups, p.pickup_size, p.freezes, p.blocks, p.opening_turn);
}

void print_summary(const ExperimentConfig& c, const Summary& s) {
  const bool compare = c.side0 != c.side1 || c.duplicate;
  std::printf("  deals        %lld played%s\n", static_cast<long long>(s.rows),
              c.duplicate ? " (every deal twice, the agents' sides swapped)" : "");
  if (compare) {
    std::printf("  A = %s (side 0%s), B = %s\n", c.side0.c_str(),
                c.duplicate ? ", side 1 in the twin deal" : "", c.side1.c_str());
    std::printf("  deals won    A %lld, B %lld, tied %lld; A's share %.2f%% [%.2f%%, %.2f%%] (Wilson 95%%)\n",
                static_cast<long long>(s.a_won), static_cast<long long>(s.b_won),
                static_cast<long long>(s.tied), 100 * s.a_win_share.mean, 100 * s.a_win_share.lo,
                100 * s.a_win_share.hi);
    std::printf("  margin       %+.1f points per deal for A [%+.1f, %+.1f]%s\n", s.margin.mean, s.margin.lo,
                s.margin.hi, c.duplicate ? " (paired)" : "");
    if (c.duplicate && s.unpaired_width > 0)
      std::printf("  pairing      interval width %.1f paired against %.1f unpaired (%.0f%% narrower)\n",
                  s.margin.hi - s.margin.lo, s.unpaired_width,
                  100 * (1 - (s.margin.hi - s.margin.lo) / s.unpaired_width));
    std::printf("  Elo          %+.1f for A [%+.1f, %+.1f]\n", s.elo.mean, s.elo.lo, s.elo.hi);
  } else {
    std::printf("  mean margin  %+.1f points per deal for side 0 [%+.1f, %+.1f]\n", s.margin.mean,
                s.margin.lo, s.margin.hi);
  }
  print_per_deal(s.per_deal);
}

void write_dir(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError{"cannot create '" + dir + "': " + ec.message()};
  for (const auto& [name, text] : files) write_atomically(dir + "/" + name, text);
  std::printf("  files       ");
  for (const auto& f : files) std::printf(" %s/%s", dir.c_str(), f.first.c_str());
  std::printf("\n");
}

void print_game_summary(const ExperimentConfig& c, const GameSummary& s) {
  std::printf("  games        %lld played%s, %.1f deals per game\n", static_cast<long long>(s.rows),
              c.duplicate ? " (every game twice, the agents' sides swapped)" : "", s.deals);
  std::printf(
      "  games won    A %lld, B %lld, drawn or abandoned %lld; A's share %.2f%% [%.2f%%, %.2f%%] (Wilson "
      "95%%)\n",
      static_cast<long long>(s.a_won), static_cast<long long>(s.b_won), static_cast<long long>(s.other),
      100 * s.a_win_share.mean, 100 * s.a_win_share.lo, 100 * s.a_win_share.hi);
  std::printf("  final margin %+.1f points per game for A [%+.1f, %+.1f]%s\n", s.margin.mean, s.margin.lo,
              s.margin.hi, c.duplicate ? " (paired)" : "");
  std::printf("  Elo          %+.1f for A [%+.1f, %+.1f]\n", s.elo.mean, s.elo.lo, s.elo.hi);
  print_per_deal(s.per_deal);
}

// A progress line on stderr (only on a terminal): done, rate, time left.
class Progress {
 public:
  Progress(int64_t total, const char* unit) : total_(total), unit_(unit), tty_(::isatty(2) != 0) {}
  ~Progress() { clear(); }
  void operator()(int64_t done) {
    if (!tty_) return;
    const int64_t step = std::max<int64_t>(total_ / 200, 1);
    int64_t prev = last_.load();
    if (done - prev < step || !last_.compare_exchange_strong(prev, done)) return;
    const double rate = static_cast<double>(done) / std::max(seconds(), 1e-9);
    std::fprintf(stderr, "\r%lld/%lld %s, %.0f %s/s, %.0f s left   ", static_cast<long long>(done),
                 static_cast<long long>(total_), unit_, rate, unit_,
                 static_cast<double>(total_ - done) / rate);
  }
  void clear() {
    if (tty_ && last_.load() > 0) std::fprintf(stderr, "\r%*s\r", 78, "");
    last_ = 0;
  }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
  }

 private:
  int64_t total_;
  const char* unit_;
  bool tty_;
  std::atomic<int64_t> last_{0};
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// The JSON Lines records of a run, streamed into a temporary file that is
// renamed to `path` when the run is over (and removed if it fails).
class RecordFile {
 public:
  explicit RecordFile(std::string path) : path_(std::move(path)) {
    if (path_.empty()) return;
    tmp_ = path_ + ".tmp" + std::to_string(::getpid());
    out_.open(tmp_, std::ios::binary);
    if (!out_) throw InputError{"cannot write '" + path_ + "'"};
  }
  ~RecordFile() {
    if (!tmp_.empty()) std::filesystem::remove(tmp_);
  }
  // The sink for run_experiment / run_games; a failed write stops the run.
  RecordSink sink() {
    if (path_.empty()) return {};
    return [this](const std::string& lines) {
      out_ << lines;
      if (!out_) g_stop = true;
    };
  }
  void finish() {
    if (path_.empty()) return;
    out_.close();
    std::error_code ec;
    if (!out_) throw InputError{"cannot write '" + path_ + "'"};
    std::filesystem::rename(tmp_, path_, ec);
    if (ec) throw InputError{"cannot write '" + path_ + "': " + ec.message()};
    tmp_.clear();
  }

 private:
  std::string path_, tmp_;
  std::ofstream out_;
};

// Ctrl-C sets g_stop (the run keeps what finished); a second one ends at once.
struct StopOnCtrlC {
  StopOnCtrlC() {
    std::signal(SIGINT, [](int) {
      g_stop = true;
      std::signal(SIGINT, SIG_DFL);
    });
  }
  ~StopOnCtrlC() { std::signal(SIGINT, SIG_DFL); }
};

// Runs `run(error, progress, sink)` (run_experiment or run_games) over
// `total` rows with a progress line, Ctrl-C and the records file, then
// prints the run's first lines. Returns the seconds it took.
template <class Run>
double run_live(const ExperimentConfig& c, int64_t total, const char* unit, RecordFile& records,
                const Run& run) {
  Progress progress(total, unit);
  std::string error;
  bool ok = false;
  {
    StopOnCtrlC ctrl_c;
    ok = run(error, std::function<void(int64_t)>(std::ref(progress)), records.sink());
  }
  progress.clear();
  if (!ok) throw InputError{error};
  records.finish();
  const std::string shard_note =
      c.shards > 1 ? ", shard " + std::to_string(c.shard) + "/" + std::to_string(c.shards) : "";
  std::printf("canasta sim: %s against %s%s, profile %s, seed %llu%s\n", c.side0.c_str(), c.side1.c_str(),
              c.games > 0 ? ", whole games" : "", c.profile.c_str(), static_cast<unsigned long long>(c.seed),
              shard_note.c_str());
  for (const auto& [seat, spec] : c.seats) std::printf("  seat %d plays %s\n", seat, spec.c_str());
  return progress.seconds();
}

int cmd_games(const ExperimentConfig& c, const std::string& out_dir, const std::string& record_path) {
  RecordFile records(record_path);
  std::vector<GameRow> rows;
  const double seconds =
      run_live(c, shard_size(c.games, c) * (c.duplicate ? 2 : 1), "games", records,
               [&](std::string& error, const std::function<void(int64_t)>& progress, const RecordSink& sink) {
                 return run_games(c, rows, error, &g_stop, progress, sink);
               });
  const GameSummary s = summarize_games(rows, c.duplicate);
  std::printf("  speed        %.1f games/s, %.2f s\n", static_cast<double>(rows.size()) / seconds, seconds);
  print_game_summary(c, s);
  if (g_stop) std::printf("  stopped      by Ctrl-C: the numbers above hold the games that finished\n");
  if (!out_dir.empty())
    write_dir(out_dir, {{"summary.json", game_summary_to_json(c, s)}, {"games.csv", game_rows_to_csv(rows)}});
  if (!record_path.empty()) std::printf("  records      %s\n", record_path.c_str());
  return g_stop ? 130 : 0;
}

int cmd_sim(ExperimentConfig c, const std::string& shard, const std::string& out_dir, bool dup_set, bool dup,
            const std::string& record_path) {
  Rules rules = rules_or_throw(c.profile);
  c.profile = profile_spec(rules);
  c.duplicate = dup_set ? dup : c.side0 != c.side1;
  if (!shard.empty()) {
    const size_t slash = shard.find('/');
    int i = -1, n = 0;
    try {
      i = std::stoi(shard.substr(0, slash));
      n = std::stoi(shard.substr(slash + 1));
    } catch (...) {
    }
    if (slash == std::string::npos || n < 1 || i < 0 || i >= n)
      throw InputError{"--shard wants i/n with 0 <= i < n"};
    c.shard = i;
    c.shards = n;
  }
  if (c.games > 0) return cmd_games(c, out_dir, record_path);
  RecordFile records(record_path);
  std::vector<DealRow> rows;
  const double seconds =
      run_live(c, shard_size(c.deals, c) * (c.duplicate ? 2 : 1), "deals", records,
               [&](std::string& error, const std::function<void(int64_t)>& progress, const RecordSink& sink) {
                 return run_experiment(c, rows, error, &g_stop, progress, sink);
               });
  const Summary s = summarize(rows, c.duplicate);
  const int threads = c.threads > 0 ? c.threads : static_cast<int>(std::thread::hardware_concurrency());
  std::printf("  speed        %.0f deals/s on %d threads (%.0f per thread), %.2f s\n",
              static_cast<double>(rows.size()) / seconds, threads,
              static_cast<double>(rows.size()) / seconds / threads, seconds);
  print_summary(c, s);
  if (c.sprt_on) {
    const SprtResult t = sprt(rows, c.duplicate, c.elo0, c.elo1, c.alpha, c.beta);
    std::printf("  SPRT         elo0 %g, elo1 %g, alpha %g, beta %g: LLR %.3f, bounds [%.3f, %.3f]: %s\n",
                c.elo0, c.elo1, c.alpha, c.beta, t.llr, t.lower, t.upper,
                t.decision > 0   ? "H1 accepted (A is elo1 better)"
                : t.decision < 0 ? "H0 accepted"
                                 : "undecided (all deals played)");
  }
  if (g_stop)
    std::printf("  stopped      by Ctrl-C: the numbers above hold the %lld deals that finished\n",
                static_cast<long long>(rows.size()));
  if (!out_dir.empty())
    write_dir(out_dir, {{"summary.json", summary_to_json(c, s)}, {"deals.csv", rows_to_csv(rows)}});
  if (!record_path.empty()) std::printf("  records      %s\n", record_path.c_str());
  return g_stop ? 130 : 0;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError{"cannot read '" + path + "'"};
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

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
    if (i > 0 && (c.profile != merged.profile || c.side0 != merged.side0 || c.side1 != merged.side1 ||
                  c.seats != merged.seats || c.seed != merged.seed || c.deals != merged.deals ||
                  c.games != merged.games || c.duplicate != merged.duplicate || c.shards != merged.shards))
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

int cmd_merge(const std::vector<std::string>& dirs, const std::string& out_dir) {
  ExperimentConfig first;
  std::string error;
  if (!config_from_json(read_file(dirs[0] + "/summary.json"), first, error))
    throw InputError{dirs[0] + ": " + error};
  ExperimentConfig m;
  auto header = [&](const char* what) {
    std::printf("canasta merge: %zu shard directories, %s against %s%s, profile %s, seed %llu\n", dirs.size(),
                m.side0.c_str(), m.side1.c_str(), what, m.profile.c_str(),
                static_cast<unsigned long long>(m.seed));
    for (const auto& [seat, spec] : m.seats) std::printf("  seat %d plays %s\n", seat, spec.c_str());
  };
  if (first.games > 0) {
    const auto rows = read_shards<GameRow>(
        dirs, "games.csv", [](const GameRow& r) { return r.game; }, game_rows_from_csv, m);
    const GameSummary s = summarize_games(rows, m.duplicate);
    header(", whole games");
    print_game_summary(m, s);
    if (!out_dir.empty())
      write_dir(out_dir,
                {{"summary.json", game_summary_to_json(m, s)}, {"games.csv", game_rows_to_csv(rows)}});
    return 0;
  }
  const auto rows = read_shards<DealRow>(
      dirs, "deals.csv", [](const DealRow& r) { return r.deal; }, rows_from_csv, m);
  const Summary s = summarize(rows, m.duplicate);
  header("");
  print_summary(m, s);
  if (!out_dir.empty())
    write_dir(out_dir, {{"summary.json", summary_to_json(m, s)}, {"deals.csv", rows_to_csv(rows)}});
  return 0;
}

int cmd_tune(const std::string& agent, const std::string& vs, ExperimentConfig base, const std::string& out) {
  Rules rules = rules_or_throw(base.profile);
  base.profile = profile_spec(rules);
  std::vector<SweepPoint> points;
  std::string error;
  if (!expand_sweep(agent, points, error)) throw InputError{error};
  for (const auto& p : points)
    if (!make_agent(p.spec, error)) throw InputError{error};
  if (!make_agent(vs, error)) throw InputError{error};
  base.side1 = vs;
  base.duplicate = true;
  std::string csv;
  for (const auto& [name, value] : points.front().values) csv += name + ",";
  csv += "spec,deals,margin,margin_lo,margin_hi,win_share,win_lo,win_hi,elo,elo_lo,elo_hi\n";
  std::printf("canasta tune: %s against %s, %lld deal pairs per point, profile %s, seed %llu\n",
              agent.c_str(), vs.c_str(), static_cast<long long>(base.deals), base.profile.c_str(),
              static_cast<unsigned long long>(base.seed));
  std::printf("  %-44s %26s %26s %22s\n", "spec", "margin per deal [95%]", "deals won [95%]", "Elo [95%]");
  for (const auto& p : points) {
    ExperimentConfig c = base;
    c.side0 = p.spec;
    std::vector<DealRow> rows;
    if (!run_experiment(c, rows, error)) throw InputError{error};
    const Summary s = summarize(rows, true);
    char line[512];
    std::snprintf(line, sizeof line,
                  "  %-44s %+8.1f [%+7.1f, %+7.1f] %6.2f%% [%5.2f%%, %5.2f%%] %+6.0f [%+5.0f, %+5.0f]\n",
                  p.spec.c_str(), s.margin.mean, s.margin.lo, s.margin.hi, 100 * s.a_win_share.mean,
                  100 * s.a_win_share.lo, 100 * s.a_win_share.hi, s.elo.mean, s.elo.lo, s.elo.hi);
    std::fputs(line, stdout);
    std::fflush(stdout);
    for (const auto& [name, value] : p.values) csv += value + ",";
    char row[512];
    std::snprintf(row, sizeof row, "\"%s\",%lld,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,%.6g\n",
                  p.spec.c_str(), static_cast<long long>(s.rows), s.margin.mean, s.margin.lo, s.margin.hi,
                  s.a_win_share.mean, s.a_win_share.lo, s.a_win_share.hi, s.elo.mean, s.elo.lo, s.elo.hi);
    csv += row;
  }
  if (!out.empty()) {
    write_atomically(out, csv);
    std::printf("  table        %s\n", out.c_str());
  }
  return 0;
}

int cmd_tournament(TournamentConfig c) {
  Rules rules = rules_or_throw(c.profile);
  c.profile = profile_spec(rules);
  std::string error;
  for (const auto& a : c.agents)
    if (!make_agent(a, error)) throw InputError{error};
  TournamentResult r;
  if (!run_tournament(c, r, error)) throw InputError{error};
  std::printf(
      "canasta tournament: %zu agents, round robin in duplicate, %lld deal pairs per match, profile %s, "
      "seed %llu\n",
      c.agents.size(), static_cast<long long>(c.deals), c.profile.c_str(),
      static_cast<unsigned long long>(c.seed));
  for (const auto& p : r.pairs)
    std::printf("  %-28s vs %-28s margin %+8.1f [%+7.1f, %+7.1f]  won %6.2f%%\n",
                c.agents[static_cast<size_t>(p.a)].c_str(), c.agents[static_cast<size_t>(p.b)].c_str(),
                p.summary.margin.mean, p.summary.margin.lo, p.summary.margin.hi,
                100 * p.summary.a_win_share.mean);
  std::printf(
      "  ratings (Bradley-Terry, Elo scale, relative to %s; 95%% intervals treat deals as independent)\n",
      c.agents[0].c_str());
  for (size_t i = 0; i < c.agents.size(); ++i)
    std::printf("  %-28s %+7.1f [%+7.1f, %+7.1f]\n", c.agents[i].c_str(), r.ratings[i].elo, r.ratings[i].lo,
                r.ratings[i].hi);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"canasta: a Canasta rules engine, self-play simulator and AI research bench"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "canasta 0.1.0");
  std::string profile = "classic";
  uint64_t seed = 1;
  const std::string profile_doc = "rules profile and overrides, e.g. 'two-player,target=3000'";

  auto* deal = app.add_subcommand("deal", "show a deal: hands, upcard, stock, the first legal actions");
  int deal_index = 0;
  deal->add_option("--seed,-s", seed, "game seed")->check(CLI::NonNegativeNumber)->capture_default_str();
  deal->add_option("--deal", deal_index, "deal index in the game")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  deal->add_option("--profile,-p", profile, profile_doc)->capture_default_str();

  auto* play = app.add_subcommand("play", "play one game (random play by default) and optionally record it");
  std::string record;
  play->add_option("--seed,-s", seed, "game seed")->check(CLI::NonNegativeNumber)->capture_default_str();
  play->add_option("--record,-r", record, "write the game record (JSON Lines) to this file");
  play->add_option("--profile,-p", profile, profile_doc)->capture_default_str();
  std::array<std::string, 2> sides{"random", "random"};
  play->add_option("--side0", sides[0], "agent spec of side 0 (seats 0 and 2)")->capture_default_str();
  play->add_option("--side1", sides[1], "agent spec of side 1 (seats 1 and 3)")->capture_default_str();

  auto* agents = app.add_subcommand("agents", "list the agents and their parameters");

  auto* replay = app.add_subcommand("replay", "re-run records: check every action and every score");
  std::vector<std::string> files;
  replay->add_option("files", files, "JSON Lines record files")->required();

  auto* sim =
      app.add_subcommand("sim", "play many deals with an agent per side, in parallel, with statistics");
  ExperimentConfig ec;
  ec.deals = 200000;
  std::string shard, out_dir;
  bool duplicate = false;
  sim->add_option("--side0", ec.side0, "agent spec of side 0 (seats 0 and 2)")->capture_default_str();
  sim->add_option("--side1", ec.side1, "agent spec of side 1 (seats 1 and 3)")->capture_default_str();
  auto* deals_opt =
      sim->add_option("--deals,-n", ec.deals, "number of deals (each played twice in duplicate)")
          ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
          ->capture_default_str();
  auto* games_opt = sim->add_option("--games,-g", ec.games,
                                    "play this many whole games (to the profile's target) instead of deals")
                        ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
                        ->excludes(deals_opt);
  auto* dup_flag =
      sim->add_flag("--duplicate,!--no-duplicate", duplicate,
                    "play every deal twice with the sides swapped (default: when the agents differ)");
  sim->add_option("--threads,-t", ec.threads, "worker threads (0: all cores)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  sim->add_option("--seed,-s", ec.seed, "simulation seed")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sim->add_option("--profile,-p", profile, profile_doc)->capture_default_str();
  auto* shard_opt =
      sim->add_option("--shard", shard, "run only shard i of n (i/n): deal indices k with k mod n = i");
  sim->add_option("--out,-o", out_dir,
                  "write summary.json and deals.csv (games.csv with --games) into this directory");
  std::string sim_record;
  sim->add_option("--record,-r", sim_record,
                  "write every deal's game record (JSON Lines, canasta replay checks it) to this file");
  std::vector<std::string> seat_specs;
  sim->add_option("--seat", seat_specs,
                  "N=SPEC: seat N plays SPEC instead of its side's agent (repeatable; in duplicate the agent "
                  "moves with its side)");
  std::string sprt_spec;
  sim->add_option(
         "--sprt", sprt_spec,
         "sequential test elo0,elo1[,alpha,beta]: stop as soon as it decides (deals in batches of 1024; not "
         "with --games or --shard)")
      ->excludes(games_opt)
      ->excludes(shard_opt);

  auto* merge = app.add_subcommand("merge", "combine shard outputs into the summary a single run gives");
  std::vector<std::string> merge_dirs;
  std::string merge_out;
  merge->add_option("dirs", merge_dirs, "shard directories written by sim --out")->required();
  merge->add_option("--out,-o", merge_out, "write the merged summary.json and deals.csv here");

  auto* tune = app.add_subcommand("tune", "sweep one or two agent parameters against a fixed opponent");
  std::string tune_agent, tune_vs, tune_out;
  ExperimentConfig tc;
  tc.deals = 2000;
  tune->add_option("--agent", tune_agent,
                   "agent spec with one or two ranges, e.g. 'heuristic:freeze={0..12..2}'")
      ->required();
  tune->add_option("--vs", tune_vs, "the fixed opponent's spec")->required();
  tune->add_option("--deals,-n", tc.deals, "deal pairs per point (duplicate)")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40))
      ->capture_default_str();
  tune->add_option("--threads,-t", tc.threads, "worker threads (0: all cores)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  tune->add_option("--seed,-s", tc.seed, "seed (the same deals for every point)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  tune->add_option("--profile,-p", profile, profile_doc)->capture_default_str();
  tune->add_option("--out,-o", tune_out,
                   "write the table as CSV to this file (scripts/plot_sweep.py draws it)");

  auto* tournament =
      app.add_subcommand("tournament", "round robin of agent specs in duplicate, with ratings");
  TournamentConfig tcfg;
  tournament->add_option("--agents,-a", tcfg.agents, "two or more agent specs")->required()->expected(2, 64);
  tournament->add_option("--deals,-n", tcfg.deals, "deal pairs per match")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40))
      ->capture_default_str();
  tournament->add_option("--threads,-t", tcfg.threads, "worker threads (0: all cores)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  tournament->add_option("--seed,-s", tcfg.seed, "seed")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  tournament->add_option("--profile,-p", profile, profile_doc)->capture_default_str();

  auto* rules = app.add_subcommand("rules", "list the profiles and the rule overrides");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "canasta: " << e.what() << " (see --help)\n";
    return kBadInput;
  }
  try {
    if (*deal) return cmd_deal(profile, seed, deal_index);
    if (*play) return cmd_play(profile, seed, record, sides);
    if (*replay) return cmd_replay(files);
    if (*sim) {
      ec.profile = profile;
      for (const auto& item : seat_specs) {
        const size_t eq = item.find('=');
        int seat = -1;
        try {
          size_t used = 0;
          seat = std::stoi(item.substr(0, eq), &used);
          if (used != eq) seat = -1;
        } catch (const std::exception&) {
        }
        if (eq == std::string::npos || seat < 0)
          throw InputError{"--seat wants N=SPEC, e.g. --seat 2=heuristic"};
        ec.seats.emplace_back(seat, item.substr(eq + 1));
      }
      if (!sprt_spec.empty()) {
        double v[4] = {0, 0, 0.05, 0.05};
        int n = 0;
        std::string rest = sprt_spec;
        try {
          while (!rest.empty() && n < 4) {
            const size_t comma = rest.find(',');
            size_t used = 0;
            v[n++] = std::stod(rest.substr(0, comma), &used);
            if (used != rest.substr(0, comma).size()) throw std::invalid_argument("trailing");
            rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
          }
        } catch (const std::exception&) {
          n = 0;
        }
        if ((n != 2 && n != 4) || !rest.empty() || v[1] <= v[0] || v[2] <= 0 || v[2] >= 0.5 || v[3] <= 0 ||
            v[3] >= 0.5)
          throw InputError{"--sprt wants elo0,elo1[,alpha,beta] with elo0 < elo1 and 0 < alpha, beta < 0.5"};
        ec.sprt_on = true;
        ec.elo0 = v[0];
        ec.elo1 = v[1];
        ec.alpha = v[2];
        ec.beta = v[3];
      }
      return cmd_sim(ec, shard, out_dir, dup_flag->count() > 0, duplicate, sim_record);
    }
    if (*merge) return cmd_merge(merge_dirs, merge_out);
    if (*tournament) {
      tcfg.profile = profile;
      return cmd_tournament(tcfg);
    }
    if (*tune) {
      tc.profile = profile;
      return cmd_tune(tune_agent, tune_vs, tc, tune_out);
    }
    if (*agents) {
      std::cout << agents_help();
      return 0;
    }
    if (*rules) {
      std::cout << profile_help();
      return 0;
    }
  } catch (const InputError& e) {
    std::cerr << "canasta: " << e.message << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "canasta: " << e.what() << "\n";
    return kBadInput;
  }
  return 0;
}
