// The runner of experiments: indices in batches on the oneTBB pool, each
// index played by the deal loop or the game loop (canasta/runner.h).
#include "canasta/experiment.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <span>
#include <thread>

#include "canasta/parallel.h"
#include "canasta/record.h"
#include "canasta/record_writer.h"
#include "canasta/runner.h"
#include "canasta/stats.h"
#include "canasta/text.h"

namespace canasta {

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

bool parse_shard(std::string_view text, int& index, int& count) {
  const size_t slash = text.find('/');
  return slash != std::string_view::npos && text::to_number(text.substr(0, slash), index) &&
         text::to_number(text.substr(slash + 1), count) && count >= 1 && index >= 0 && index < count;
}

bool sprt_of(std::span<const double> v, SprtConfig& out) {
  if (v.size() != 2 && v.size() != 4) return false;
  const SprtConfig t{v[0], v[1], v.size() == 4 ? v[2] : 0.05, v.size() == 4 ? v[3] : 0.05};
  if (!(t.elo1 > t.elo0) || !std::isfinite(t.elo0) || !std::isfinite(t.elo1) ||
      !(t.alpha > 0 && t.alpha < 0.5) || !(t.beta > 0 && t.beta < 0.5))
    return false;
  out = t;
  return true;
}

bool parse_sprt(std::string_view text, SprtConfig& out) {
  std::vector<double> v;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    double x = 0;
    if (v.size() == 4 ||
        !text::to_number(text.substr(start, comma == std::string_view::npos ? text.npos : comma - start), x))
      return false;
    v.push_back(x);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return sprt_of(v, out);
}

bool check_config(const ExperimentConfig& c, std::string& error) {
  if (c.side2 && c.rules.teams != 3) {
    error = "side 2 needs a table of three sides (spanish-3p, spanish-6p3)";
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

// Counts every deal of a game into its row and writes its records.
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

// A run's positions in the order they are played: ranges of shard
// positions, numbered 0, 1, ... ("sequence numbers").
struct Sequence {
  Ranges ranges;
  std::vector<int64_t> starts;  // the sequence number of each range's first position
  int64_t size = 0;

  explicit Sequence(Ranges r) : ranges(std::move(r)) {
    for (const auto& [b, e] : ranges) {
      starts.push_back(size);
      size += e - b;
    }
  }
  int64_t position(int64_t n) const {
    const size_t i =
        static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), n) - starts.begin()) - 1;
    return ranges[i].first + (n - starts[i]);
  }
  // The positions of sequence numbers [a, b).
  Ranges positions(int64_t a, int64_t b) const {
    Ranges out;
    for (size_t i = 0; i < ranges.size(); ++i) {
      const int64_t lo = std::max(a, starts[i]),
                    hi = std::min(b, starts[i] + ranges[i].second - ranges[i].first);
      if (lo < hi) out.emplace_back(ranges[i].first + lo - starts[i], ranges[i].first + hi - starts[i]);
    }
    return out;
  }
};

// Plays a sequence of positions on the pool, every twin of a position a
// unit of work of its own. Workers take units in order from a counter, a
// chunk at a time (about 2 ms of play, fewer near the end, one for agents
// that take milliseconds), so that every thread has work until the last
// units. Finished positions go out in order: a window of `window` positions
// holds the rows (and records) of those played but not yet handed on, and
// whoever finishes the first of them hands on every finished one from
// there. A stop ends the taking of units; every unit taken is played to its
// end, so that the positions handed on are the sequence's first ones.
template <class Row>
class OrderedRun {
 public:
  // play(position, twin, worker, row, lines): plays a unit into `row`,
  // appending its records to `lines` (when not null).
  using Play = std::function<void(int64_t, int, Worker&, Row&, std::string*)>;
  // flush(rows, lines): the rows of finished positions, in order, and their records.
  using Flush = std::function<void(std::span<const Row>, const std::string&)>;

  OrderedRun(const ExperimentConfig& c, const RunHooks& hooks, std::vector<std::unique_ptr<Worker>>& workers,
             int threads, bool recording, int64_t window)
      : c_(c),
        hooks_(hooks),
        workers_(workers),
        threads_(threads),
        twins_(twin_count(c)),
        window_(window),
        recording_(recording),
        rows_(static_cast<size_t>(window * twins_)),
        done_(new std::atomic<int>[static_cast<size_t>(window)]) {
    for (int64_t i = 0; i < window_; ++i) done_[static_cast<size_t>(i)].store(0, std::memory_order_relaxed);
    if (recording_) lines_.resize(rows_.size());
  }

  // Plays `seq`; returns how many of its positions were handed on.
  int64_t run(const Sequence& seq, const Play& play, const Flush& flush, std::atomic<int64_t>& rows_done) {
    seq_ = &seq;
    play_ = &play;
    flush_ = &flush;
    rows_done_ = &rows_done;
    units_ = seq.size * twins_;
    next_.store(0);
    flushed_.store(0);
    parallel_workers(threads_, [this](int w) { work(w); });
    while (try_flush()) {
    }
    return flushed_.load();
  }

 private:
  void work(int w) {
    auto& worker = workers_[static_cast<size_t>(w)];
    if (!worker) worker = std::make_unique<Worker>(c_, hooks_);
    double unit_ns = 0;  // this worker's last chunk, per unit
    for (;;) {
      if (hooks_.stop && hooks_.stop->load(std::memory_order_relaxed)) return;
      int64_t first = next_.load(std::memory_order_relaxed);
      if (first >= units_) return;
      // About 2 ms a chunk, and at most a quarter of each thread's share of what is left.
      const int64_t by_time =
          unit_ns > 0 ? std::clamp<int64_t>(static_cast<int64_t>(2e6 / unit_ns), 1, 4096) : 1;
      const int64_t by_end = std::max<int64_t>(1, (units_ - first) / (4 * threads_));
      const int64_t room = (flushed_.load(std::memory_order_acquire) + window_) * twins_;
      const int64_t last = std::min({units_, first + std::min(by_time, by_end), room});
      if (last <= first) {  // the window is full: hand on what is finished, or wait for it
        if (!try_flush()) std::this_thread::sleep_for(std::chrono::microseconds(50));
        continue;
      }
      if (!next_.compare_exchange_weak(first, last, std::memory_order_relaxed)) continue;
      const auto t0 = std::chrono::steady_clock::now();
      bool finished = false;
      for (int64_t u = first; u < last; ++u) {
        const int64_t n = u / twins_;
        const int twin = static_cast<int>(u % twins_);
        const size_t slot = static_cast<size_t>(n % window_);
        const size_t at = slot * static_cast<size_t>(twins_) + static_cast<size_t>(twin);
        std::string* lines = nullptr;
        if (recording_) {
          lines = &lines_[at];
          lines->clear();
        }
        (*play_)(seq_->position(n), twin, *worker, rows_[at], lines);
        finished |= done_[slot].fetch_add(1, std::memory_order_acq_rel) + 1 == twins_;
      }
      unit_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() /
                static_cast<double>(last - first);
      const int64_t rows = rows_done_->fetch_add(last - first) + (last - first);
      if (hooks_.progress) hooks_.progress(rows);
      if (finished) try_flush();
    }
  }

  // Hands on the finished positions from the first not yet handed on;
  // false when another thread is at it or none is finished.
  bool try_flush() {
    const std::unique_lock lock(flush_mutex_, std::try_to_lock);
    if (!lock.owns_lock()) return false;
    const int64_t from = flushed_.load(std::memory_order_relaxed);
    int64_t to = from;
    // At most a window: when every slot is finished, the slot after the
    // window's last is the first's, not yet handed on.
    while (to < seq_->size && to < from + window_ &&
           done_[static_cast<size_t>(to % window_)].load(std::memory_order_acquire) == twins_)
      ++to;
    if (to == from) return false;
    // In one or two spans of the window.
    for (int64_t a = from; a < to;) {
      const int64_t b = std::min(to, (a / window_ + 1) * window_);
      const size_t first = static_cast<size_t>(a % window_) * static_cast<size_t>(twins_);
      const size_t count = static_cast<size_t>(b - a) * static_cast<size_t>(twins_);
      text_.clear();
      if (recording_)
        for (size_t i = first; i < first + count; ++i) text_ += lines_[i];
      (*flush_)(std::span<const Row>(rows_).subspan(first, count), text_);
      a = b;
    }
    for (int64_t n = from; n < to; ++n)
      done_[static_cast<size_t>(n % window_)].store(0, std::memory_order_relaxed);
    flushed_.store(to, std::memory_order_release);
    return true;
  }

  const ExperimentConfig& c_;
  const RunHooks& hooks_;
  std::vector<std::unique_ptr<Worker>>& workers_;
  const int threads_;
  const int64_t twins_, window_;
  const bool recording_;
  std::vector<Row> rows_;
  std::vector<std::string> lines_;
  std::unique_ptr<std::atomic<int>[]> done_;  // twins finished, by slot
  std::mutex flush_mutex_;
  std::string text_;
  const Sequence* seq_ = nullptr;
  const Play* play_ = nullptr;
  const Flush* flush_ = nullptr;
  std::atomic<int64_t>* rows_done_ = nullptr;
  int64_t units_ = 0;
  std::atomic<int64_t> next_{0}, flushed_{0};
};

// The window: positions played but not yet handed on. Rows alone are small;
// records take a few kilobytes a deal (tens a game).
int64_t window_of(const ExperimentConfig& c, bool recording, int threads) {
  const int64_t base = c.games > 0 ? (recording ? 256 : 4096) : (recording ? 4096 : 65536);
  return std::max<int64_t>(base, 64 * threads);
}

// The words the processes add up after a batch (Processes::add_up): the
// sequential test's counts, whether a process was stopped, and a word a
// process for what it played of the batch (its own set, the others 0).
struct BatchShare {
  static constexpr size_t kStopped = std::tuple_size_v<SprtCounts>, kPlayed = kStopped + 1;
  std::vector<int64_t> words;

  BatchShare(const SprtCounts& counts, bool stopped, const Processes& procs, int64_t played)
      : words(kPlayed + static_cast<size_t>(procs.count), 0) {
    std::copy(counts.begin(), counts.end(), words.begin());
    words[kStopped] = stopped ? 1 : 0;
    words[kPlayed + static_cast<size_t>(procs.index)] = played;
  }
  int64_t count(size_t q) const { return words[q]; }
  bool stopped() const { return words[kStopped] > 0; }
  int64_t played(int process) const { return words[kPlayed + static_cast<size_t>(process)]; }
};

// Plays the positions of the shard not in hooks.done, in batches
// (batch_size) whose positions every process shares out in blocks; after
// each batch the processes add up the sequential test's counts and whether
// any was stopped. `play` plays a unit, `tally_of` adds rows to a tally.
template <class Row, class TallyOf>
bool play_run(const ExperimentConfig& c, RunOutcome& out, std::string& error, const RunHooks& hooks,
              const typename OrderedRun<Row>::Play& play, const RowSink<Row>& sink, const TallyOf& tally_of) {
  if (!check_config(c, error)) return false;
  const int64_t count = shard_size(c.games > 0 ? c.games : c.deals, c);
  const Ranges todo = missing_ranges(hooks.done, count);
  const int threads = resolve_threads(c.threads);
  const bool recording = static_cast<bool>(hooks.records);
  const Processes& procs = hooks.processes;
  std::vector<std::unique_ptr<Worker>> workers(static_cast<size_t>(threads));
  OrderedRun<Row> runner(c, hooks, workers, threads, recording, window_of(c, recording, threads));
  RecordWriter writer(hooks.records);
  std::atomic<int64_t> rows_done{0};
  std::vector<Outcome> scratch;
  Tally mine, batch_tally;
  SprtCounts tested{};
  if (c.sprt && hooks.done_tally) tested = sprt_counts(*hooks.done_tally, RunShape::of(c));
  out.done = hooks.done;
  out.stopped = false;
  const typename OrderedRun<Row>::Flush flush = [&](std::span<const Row> rows, const std::string& lines) {
    Tally t;
    tally_of(t, rows, scratch);
    mine.add(t);
    batch_tally.add(t);
    if (sink) sink(rows);
    if (recording && !lines.empty()) writer.push(lines);
  };
  // Batches of positions [b, b + batch), the sequential test's from 0 on.
  const int64_t batch = batch_size(c);
  for (int64_t b = 0; b < count; b += batch) {
    Ranges in_batch;
    for (const auto& [lo, hi] : todo)
      if (std::max(lo, b) < std::min(hi, b + batch))
        in_batch.emplace_back(std::max(lo, b), std::min(hi, b + batch));
    const Sequence batch_seq(in_batch);
    // This process's block of the batch.
    const auto [first, next] = procs.block(0, batch_seq.size);
    const Sequence block(batch_seq.positions(first, next));
    batch_tally = Tally{};
    const int64_t played = runner.run(block, play, flush, rows_done);
    writer.drain();
    if (hooks.batch_end) hooks.batch_end();
    // What every process played of the batch (a prefix of its block), the
    // sequential test's counts and whether any was stopped.
    BatchShare shared(c.sprt ? sprt_counts(batch_tally, RunShape::of(c)) : SprtCounts{},
                      hooks.stop && hooks.stop->load(), procs, played);
    procs.add_up(shared.words);
    for (int p = 0; p < procs.count; ++p) {
      const auto [pf, pn] = Processes{p, procs.count, {}}.block(0, batch_seq.size);
      out.done = merge_ranges(out.done, batch_seq.positions(pf, pf + std::min(pn - pf, shared.played(p))));
    }
    if (shared.stopped()) {
      out.stopped = true;
      break;
    }
    if (c.sprt) {
      for (size_t q = 0; q < tested.size(); ++q) tested[q] += shared.count(q);
      if (sprt(tested, *c.sprt).decision != 0) break;
    }
  }
  writer.finish();
  if (out.tally) out.tally->add(mine);
  return true;
}

}  // namespace

int64_t batch_size(const ExperimentConfig& c) {
  const int64_t count = shard_size(c.games > 0 ? c.games : c.deals, c);
  return c.sprt && c.games == 0 ? kSprtBatch : std::max<int64_t>(count, 1);
}

bool stream_deals(const ExperimentConfig& c, RunOutcome& out, std::string& error, const RunHooks& hooks) {
  const auto specs = twin_specs(c);
  const OrderedRun<DealRow>::Play play = [&](int64_t i, int t, Worker& w, DealRow& row, std::string* lines) {
    const int64_t k = c.shard + i * c.shards;
    row = DealRow{};
    row.deal = k;
    row.swapped = static_cast<int8_t>(t);
    start_single_deal(w.s, c.rules, c.seed, k);
    DealRecord* rec = lines ? &w.rec : nullptr;
    if (rec) {
      begin_single_record(*rec, w.s, c.seed, k);
      rec->agents = specs[static_cast<size_t>(t)];
    }
    Rng rng(derive_seed(c.seed, twin_stream(Stream::kDealPlay, t), static_cast<uint64_t>(k)));
    RowCounter counter(row, rec);
    counter.finish(w.s, play_deal(w.s, w.seats(t, c.rules), rng, counter));
    if (rec) {
      end_record(*rec, w.s);
      append_json_line(*lines, *rec);
    }
  };
  return play_run<DealRow>(c, out, error, hooks, play, hooks.deal_rows,
                           [&](Tally& t, std::span<const DealRow> rows, std::vector<Outcome>& scratch) {
                             add_tally(t, rows, RunShape::of(c), scratch);
                           });
}

bool stream_games(const ExperimentConfig& c, RunOutcome& out, std::string& error, const RunHooks& hooks) {
  const auto specs = twin_specs(c);
  const OrderedRun<GameRow>::Play play = [&](int64_t i, int t, Worker& w, GameRow& row, std::string* lines) {
    const int64_t g = c.shard + i * c.shards;
    row = GameRow{};
    Game game = new_game(c.rules, derive_seed(c.seed, Stream::kGameSeed, static_cast<uint64_t>(g)));
    GameCounter counter(row, lines ? &w.rec : nullptr, lines, specs[static_cast<size_t>(t)]);
    play_game(game, w.s, w.seats(t, c.rules), twin_stream(Stream::kGameDealPlay, t), counter);
    row.game = g;
    row.swapped = static_cast<int8_t>(t);
    row.end = static_cast<int8_t>(game.end);
    row.winner = static_cast<int8_t>(game.winner);
    for (int side = 0; side < c.rules.teams; ++side) row.total[side] = game.totals[side];
  };
  return play_run<GameRow>(c, out, error, hooks, play, hooks.game_rows,
                           [&](Tally& t, std::span<const GameRow> rows, std::vector<Outcome>& scratch) {
                             add_tally_games(t, rows, RunShape::of(c), scratch);
                           });
}

namespace {

// A streamed run whose rows are collected into `rows`, in order.
template <class Row>
bool collect(const ExperimentConfig& c, std::vector<Row>& rows, std::string& error, const RunHooks& hooks,
             RowSink<Row> RunHooks::*sink,
             bool (*stream)(const ExperimentConfig&, RunOutcome&, std::string&, const RunHooks&)) {
  rows.clear();
  RunHooks with_sink = hooks;
  with_sink.*sink = [&rows](std::span<const Row> r) { rows.insert(rows.end(), r.begin(), r.end()); };
  RunOutcome out;
  return stream(c, out, error, with_sink);
}

}  // namespace

bool run_deals(const ExperimentConfig& c, std::vector<DealRow>& rows, std::string& error,
               const RunHooks& hooks) {
  return collect(c, rows, error, hooks, &RunHooks::deal_rows, stream_deals);
}

bool run_games(const ExperimentConfig& c, std::vector<GameRow>& rows, std::string& error,
               const RunHooks& hooks) {
  return collect(c, rows, error, hooks, &RunHooks::game_rows, stream_games);
}

}  // namespace canasta
