// The runner of experiments: indices in batches on the oneTBB pool, each
// index played by the deal loop or the game loop (canasta/runner.h).
#include "canasta/experiment.h"

#include <fmt/format.h>
#include <tbb/info.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <span>
#include <thread>
#include <tuple>

#include "canasta/parallel.h"
#include "canasta/record.h"
#include "canasta/record_writer.h"
#include "canasta/runner.h"
#include "canasta/stats.h"

namespace canasta {

int resolve_threads(int requested) {
  // Every core this process may run on (its affinity mask, as mpirun or taskset set it).
  return requested > 0 ? requested : std::max(1, tbb::info::default_concurrency());
}

const AgentSpec& seat_agent(const ExperimentConfig& c, int seat) {
  for (const SeatAgent& s : c.seats)
    if (s.seat == seat) return s.agent;
  const int side = c.rules.team_of(seat);
  return side == 0 ? c.side0 : side == 2 && c.side2 ? *c.side2 : c.side1;
}

int twin_count(const ExperimentConfig& c) {
  if (!c.duplicate) return 1;
  if (c.rules.teams == 2) return 2;
  return c.side2 && *c.side2 != c.side0 && *c.side2 != c.side1 && c.side0 != c.side1 ? 6 : 3;
}

int player_of(const Rules& rules, int seat, int twin) {
  const int n = rules.players;
  const int mirrored = twin >= rules.teams ? (n - seat) % n : seat;
  return (mirrored + n - twin % rules.teams) % n;
}

bool check_config(const ExperimentConfig& c, std::string& error, int processes) {
  if (c.side2 && c.rules.teams != 3) {
    error = "--side2 needs a table of three sides (spanish-3p, spanish-6p3)";
    return false;
  }
  if (c.sprt && c.rules.teams != 2) {
    error = "the sequential test needs a table of two sides";
    return false;
  }
  for (const SeatAgent& s : c.seats)
    if (s.seat < 0 || s.seat >= c.rules.players) {
      error = "no seat " + std::to_string(s.seat) + " in a game of " + std::to_string(c.rules.players);
      return false;
    }
  if (c.shards < 1 || c.shard < 0 || c.shard >= c.shards) {
    error = "bad shard " + std::to_string(c.shard) + "/" + std::to_string(c.shards);
    return false;
  }
  // The rows stay in memory (for the summary and the files), each process
  // holding its share: refuse a run whose rows cannot fit rather than fail
  // when it is half played.
  const bool games = c.games > 0;
  const double rows =
      static_cast<double>(shard_size(games ? c.games : c.deals, c)) * twin_count(c) / std::max(processes, 1);
  const double need = rows * static_cast<double>(games ? sizeof(GameRow) : sizeof(DealRow));
  const double have =
      static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
  if (have > 0 && need > have) {
    error = fmt::format(
        "{:.0f} {}{} need {:.1f} GB for their rows, more than this machine's {:.1f} GB: play fewer, or "
        "run shards",
        rows, games ? "games" : "deals", processes > 1 ? " a process" : "", need / 1e9, have / 1e9);
    return false;
  }
  return true;
}

void DealCounts::add(const DealRow& r) {
  ++deals;
  went_out += r.end == static_cast<int8_t>(EndReason::kWentOut);
  concealed += r.end == static_cast<int8_t>(EndReason::kWentOut) && r.concealed;
  stock_out += r.end == static_cast<int8_t>(EndReason::kStockOut);
  red_three_last += r.end == static_cast<int8_t>(EndReason::kRedThreeLast);
  turns += r.turns;
  actions += r.actions;
  for (int t = 0; t < kMaxTeams; ++t) {  // sides a table does not have count zero
    natural_canastas += r.natural_canastas[t];
    mixed_canastas += r.mixed_canastas[t];
    red_threes += r.red_threes[t];
    if (r.opening_turn[t] > 0) opening_turns += r.opening_turn[t], ++openings;
  }
  pickups += r.pickups;
  pickup_cards += r.pickup_cards;
  freezes += r.freezes;
  blocks += r.blocks;
}

void DealCounts::add(const DealCounts& o) {
  for (const DealCountField& f : deal_count_fields()) this->*f.member += o.*f.member;
}

namespace {

// Counts a deal's events into its row as the deal loop plays it, and
// collects its actions into a record when there is one.
struct RowCounter : PlayObserver {
  DealRow& row;
  DealRecord* rec;
  bool had_melds = false;
  int side = 0, turn = 0;

  RowCounter(DealRow& r, DealRecord* record) : row(r), rec(record) {}

  void before(const State& s, int seat, Action a) {
    if (rec) rec->actions.emplace_back(seat, a);
    side = s.rules.team_of(seat);
    had_melds = s.melds[side].any();
    turn = s.turns;
    if (a.type() == ActionType::kTakePile) {
      ++row.pickups;
      row.pickup_cards = static_cast<int16_t>(row.pickup_cards + s.pile_size);
    } else if (a.type() == ActionType::kDiscard) {
      if (is_wild(a.kind()) && !s.pile_frozen) ++row.freezes;
      if (a.kind() == kBlack3) ++row.blocks;
    }
  }
  void after(const State& s) {
    if (!had_melds && s.melds[side].any() && row.opening_turn[side] == 0)
      row.opening_turn[side] = static_cast<int16_t>(turn);
  }
  // The deal's result, once it is over.
  void finish(const State& s, int actions) {
    row.end = static_cast<int8_t>(s.end);
    row.out_seat = s.out_seat;
    row.concealed = s.concealed ? 1 : 0;
    row.turns = static_cast<int16_t>(s.turns);
    row.actions = static_cast<int16_t>(std::min(actions, 32767));
    const auto score = deal_score(s);
    for (int t = 0; t < s.rules.teams; ++t) {
      row.score[t] = score[t].total();
      const int nat = s.melds[t].natural_canastas();
      row.natural_canastas[t] = static_cast<int8_t>(nat);
      row.mixed_canastas[t] = static_cast<int8_t>(s.melds[t].canastas() - nat);
      row.red_threes[t] = static_cast<int8_t>(team_red_threes(s, t));
    }
  }
};

// What one worker needs: an agent per seat, a state, a record.
struct Worker {
  std::vector<std::unique_ptr<Agent>> agents;
  State s;
  DealRecord rec;

  Worker(const ExperimentConfig& c, const RunHooks& hooks) {
    for (int seat = 0; seat < c.rules.players; ++seat) {
      std::unique_ptr<Agent> a = hooks.agent_for ? hooks.agent_for(seat) : nullptr;
      agents.push_back(a ? std::move(a) : make_agent(seat_agent(c, seat)));
    }
  }
  // The agents of twin `swapped`, by seat.
  auto seats(int swapped, const Rules& rules) const {
    return [this, swapped, &rules](int seat) -> Agent& {
      return *agents[static_cast<size_t>(player_of(rules, seat, swapped))];
    };
  }
};

// The agent specs of every seat in each twin, as records name them.
std::array<std::vector<std::string>, 6> twin_specs(const ExperimentConfig& c) {
  std::array<std::vector<std::string>, 6> specs;
  for (int twin = 0; twin < twin_count(c); ++twin)
    for (int seat = 0; seat < c.rules.players; ++seat)
      specs[twin].push_back(seat_agent(c, player_of(c.rules, seat, twin)).to_string());
  return specs;
}

// The rows of a run: every twin of every index this process plays, and
// which indices finished. They grow batch by batch, by this process's block
// of the batch, so that the memory a run holds is what it has played (a
// sequential test may stop long before the end).
template <class Row>
struct Rows {
  int twins;
  int64_t count;  // indices of the shard
  std::vector<Row> all;
  std::vector<uint8_t> done;
  int64_t begin = 0, end = 0, base = 0;  // the current block and its first slot

  Rows(const ExperimentConfig& c, int64_t n) : twins(twin_count(c)), count(shard_size(n, c)) {}
  // Room for the block of indices begin .. end-1.
  void grow(std::pair<int64_t, int64_t> block) {
    base = static_cast<int64_t>(done.size());
    std::tie(begin, end) = block;
    done.resize(static_cast<size_t>(base + end - begin), 0);
    all.resize(done.size() * static_cast<size_t>(twins));
  }
  size_t slot(int64_t index) const { return static_cast<size_t>(base + index - begin); }
  Row& at(int64_t index, int twin) {
    return all[slot(index) * static_cast<size_t>(twins) + static_cast<size_t>(twin)];
  }
  bool finished(int64_t index) const { return done[slot(index)] != 0; }
  // The rows of the indices that finished (all their twins), in index order.
  void keep_finished(std::vector<Row>& rows) const {
    rows.clear();
    rows.reserve(all.size());
    for (size_t i = 0; i < done.size(); ++i)
      if (done[i])
        for (int t = 0; t < twins; ++t)
          rows.push_back(all[i * static_cast<size_t>(twins) + static_cast<size_t>(t)]);
  }
};

// Indices recorded per batch: their records wait in memory until the batch ends.
constexpr int64_t kRecordBatch = 4096;

// Plays indices 0 .. count-1 on the pool in batches of `batch_size`, this
// process its block of each: `play(i, worker, lines)` plays every twin of
// index i, appending its JSON Lines records to `lines` when it is not null
// (only when records are wanted). `out.done` marks the indices that
// finished. After each batch its finished indices' records go to the record
// writer in index order, and `after_batch()` gives this process's counts of
// the block for a sequential test, which are summed over the processes and
// go to `decided(counts)`: true ends the run. A stop ends it too, after the
// sum, so that every process stops at the same batch. Progress counts rows.
template <class Row, class Play, class AfterBatch, class Decided>
void play_indices(const ExperimentConfig& c, Rows<Row>& out, int64_t grain, const RunHooks& hooks,
                  const Play& play, const AfterBatch& after_batch, const Decided& decided) {
  const int64_t count = out.count;
  const int64_t twins = twin_count(c);
  std::atomic<int64_t> rows_done{0};
  RecordWriter writer(hooks.records);
  const bool recording = static_cast<bool>(hooks.records);
  const int64_t batch = batch_size(c, recording);
  const int threads = resolve_threads(c.threads);
  std::vector<std::string> lines;
  for (int64_t first = 0, next = 0; first < count; first = next) {
    next = std::min(count, first + batch);
    out.grow(hooks.processes.block(first, next));
    if (recording) lines.assign(static_cast<size_t>(out.end - out.begin), std::string());
    parallel_chunks(threads, out.begin, out.end, grain, [&](int64_t begin, int64_t end) {
      Worker worker(c, hooks);
      for (int64_t i = begin; i != end; ++i) {
        if (hooks.stop && hooks.stop->load(std::memory_order_relaxed)) return;
        play(i, worker, recording ? &lines[static_cast<size_t>(i - out.begin)] : nullptr);
        out.done[out.slot(i)] = 1;
        const int64_t n = rows_done.fetch_add(twins) + twins;
        if (hooks.progress) hooks.progress(n);
      }
    });
    if (recording) {
      std::string finished;
      for (int64_t i = out.begin; i < out.end; ++i)
        if (out.finished(i)) finished += lines[static_cast<size_t>(i - out.begin)];
      writer.push(std::move(finished));
    }
    // This process's counts of the batch for the sequential test, and whether it was stopped.
    const SprtCounts counts = after_batch();
    std::array<int64_t, 6> shared{counts[0], counts[1], counts[2],
                                  counts[3], counts[4], hooks.stop && hooks.stop->load() ? 1 : 0};
    hooks.processes.add_up(shared);
    if (shared[5] > 0 || decided(SprtCounts{shared[0], shared[1], shared[2], shared[3], shared[4]})) break;
  }
}

}  // namespace

int64_t batch_size(const ExperimentConfig& c, bool recording) {
  const int64_t count = shard_size(c.games > 0 ? c.games : c.deals, c);
  if (c.games > 0) return recording ? kRecordBatch / 16 : std::max<int64_t>(count, 1);
  return c.sprt ? kSprtBatch : recording ? kRecordBatch : std::max<int64_t>(count, 1);
}

bool run_deals(const ExperimentConfig& c, std::vector<DealRow>& rows, std::string& error,
               const RunHooks& hooks) {
  if (!check_config(c, error, hooks.processes.count)) return false;
  Rows<DealRow> out(c, c.deals);
  const int twins = out.twins;
  const auto specs = twin_specs(c);
  // With a sequential test the deals go in fixed batches (batch_size), so
  // that where the test stops does not depend on the thread count (nor on the
  // processes).
  SprtCounts tested{};
  play_indices(
      c, out, 64, hooks,
      [&](int64_t i, Worker& w, std::string* lines) {
        const int64_t k = c.shard + i * c.shards;
        for (int t = 0; t < twins; ++t) {
          DealRow& row = out.at(i, t);
          row = DealRow{};
          row.deal = k;
          row.swapped = static_cast<int8_t>(t);
          start_single_deal(w.s, c.rules, c.seed, k);
          DealRecord* rec = lines ? &w.rec : nullptr;
          if (rec) {
            begin_single_record(*rec, w.s, c.seed, k);
            rec->agents = specs[t];
          }
          Rng rng(derive_seed(c.seed, twin_stream(Stream::kDealPlay, t), static_cast<uint64_t>(k)));
          RowCounter counter(row, rec);
          counter.finish(w.s, play_deal(w.s, w.seats(t, c.rules), rng, counter));
          if (rec) {
            end_record(*rec, w.s);
            append_json_line(*lines, *rec);
          }
        }
      },
      [&] {
        SprtCounts counts{};
        if (!c.sprt) return counts;
        // This process's finished rows of the batch, in order.
        std::vector<DealRow> batch_rows;
        for (int64_t i = out.begin; i < out.end; ++i)
          if (out.finished(i))
            for (int t = 0; t < twins; ++t) batch_rows.push_back(out.at(i, t));
        return sprt_counts(tally(batch_rows, c.duplicate), c.duplicate);
      },
      [&](const SprtCounts& played) {
        if (!c.sprt) return false;
        for (size_t q = 0; q < tested.size(); ++q) tested[q] += played[q];
        return sprt(tested, *c.sprt).decision != 0;
      });
  out.keep_finished(rows);
  return true;
}

bool run_games(const ExperimentConfig& c, std::vector<GameRow>& rows, std::string& error,
               const RunHooks& hooks) {
  if (!check_config(c, error, hooks.processes.count)) return false;
  Rows<GameRow> out(c, c.games);
  const int twins = out.twins;
  const auto specs = twin_specs(c);

  // Counts every deal of the game into its row and writes its records.
  struct GameCounter : PlayObserver {
    GameRow& game_row;
    DealRecord* rec;
    std::string* lines;
    const std::vector<std::string>& agents;
    DealRow deal;
    RowCounter counter{deal, nullptr};
    int actions = 0;

    GameCounter(GameRow& r, DealRecord* record, std::string* out, const std::vector<std::string>& specs)
        : game_row(r), rec(record), lines(out), agents(specs) {
      counter.rec = rec;
    }
    void deal_started(const Game& g, const State& s) {
      deal = DealRow{};
      actions = 0;
      if (rec) {
        begin_record(*rec, g, s);
        rec->agents = agents;
      }
    }
    void before(const State& s, int seat, Action a) {
      counter.before(s, seat, a);
      ++actions;
    }
    void after(const State& s) { counter.after(s); }
    void deal_finished(const Game& g, const State& s) {
      counter.finish(s, actions);
      game_row.counts.add(deal);
      if (rec) {
        end_record(*rec, s, g);
        append_json_line(*lines, *rec);
      }
    }
  };

  play_indices(
      c, out, 4, hooks,
      [&](int64_t i, Worker& w, std::string* lines) {
        const int64_t g = c.shard + i * c.shards;
        for (int t = 0; t < twins; ++t) {
          GameRow& row = out.at(i, t);
          row = GameRow{};
          Game game = new_game(c.rules, derive_seed(c.seed, Stream::kGameSeed, static_cast<uint64_t>(g)));
          GameCounter counter(row, lines ? &w.rec : nullptr, lines, specs[t]);
          play_game(game, w.s, w.seats(t, c.rules), twin_stream(Stream::kGameDealPlay, t), counter);
          row.game = g;
          row.swapped = static_cast<int8_t>(t);
          row.end = static_cast<int8_t>(game.end);
          row.winner = static_cast<int8_t>(game.winner);
          for (int side = 0; side < c.rules.teams; ++side) row.total[side] = game.totals[side];
        }
      },
      [] { return SprtCounts{}; }, [](const SprtCounts&) { return false; });
  out.keep_finished(rows);
  return true;
}

}  // namespace canasta
