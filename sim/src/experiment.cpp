#include "canasta/experiment.h"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "canasta/agent.h"
#include "canasta/json.h"
#include "canasta/record.h"
#include "canasta/sim.h"

namespace canasta {

namespace {

constexpr double kZ = 1.959963984540054;  // two-sided 95%

// The spec that seat `seat` plays in the original deal.
std::string seat_spec(const ExperimentConfig& c, const Rules& rules, int seat) {
  for (const auto& [named, spec] : c.seats)
    if (named == seat) return spec;
  return rules.team_of(seat) == 0 ? c.side0 : c.side1;
}

// `agents[seat]` plays `seat` in the original deal; in the twin every agent
// moves one seat on, which puts it on the other side.
// The seat whose agent plays `seat` in the twin `swapped`.
int player_of(const Rules& rules, int seat, int swapped) {
  return swapped ? (seat + rules.players - 1) % rules.players : seat;
}

// The agent spec of every seat in the twin `swapped`, as records name them.
std::vector<std::string> seat_specs(const ExperimentConfig& c, const Rules& rules, int swapped) {
  std::vector<std::string> specs;
  for (int seat = 0; seat < rules.players; ++seat)
    specs.push_back(seat_spec(c, rules, player_of(rules, seat, swapped)));
  return specs;
}

// Plays the deal started in `s` to its end with the seats' agents (twin
// `swapped`), counting its events into `row` and its actions into `rec`.
void play_deal(const Rules& rules, int swapped, const std::vector<std::unique_ptr<Agent>>& agents, State& s,
               Rng& rng, DealRow& row, DealRecord* rec) {
  int actions = 0;
  while (!s.over()) {
    const int seat = s.actor();
    const int side = rules.team_of(seat);
    const Action act = agents[static_cast<size_t>(player_of(rules, seat, swapped))]->act(View(s, seat), rng);
    if (rec) rec->actions.emplace_back(seat, act);
    const bool had_melds = s.melds[side].any();
    if (act.type() == ActionType::kTakePile) {
      ++row.pickups;
      row.pickup_cards = static_cast<int16_t>(row.pickup_cards + s.pile_size);
    } else if (act.type() == ActionType::kDiscard) {
      if (is_wild(act.kind()) && !s.pile_frozen) ++row.freezes;
      if (act.kind() == kBlack3) ++row.blocks;
    }
    const int turn = s.turns;
    apply(s, act);
    ++actions;
    if (!had_melds && s.melds[side].any() && row.opening_turn[side] == 0)
      row.opening_turn[side] = static_cast<int16_t>(turn);
  }
  row.end = static_cast<int8_t>(s.end);
  row.out_seat = s.out_seat;
  row.concealed = s.concealed ? 1 : 0;
  row.turns = static_cast<int16_t>(s.turns);
  row.actions = static_cast<int16_t>(std::min(actions, 32767));
  const auto score = deal_score(s);
  for (int t = 0; t < 2; ++t) {
    row.score[t] = score[t].total();
    const int nat = s.melds[t].natural_canastas();
    row.natural_canastas[t] = static_cast<int8_t>(nat);
    row.mixed_canastas[t] = static_cast<int8_t>(s.melds[t].canastas() - nat);
    int reds = 0;
    for (int seat = t; seat < rules.players; seat += rules.teams) reds += s.red3[seat];
    row.red_threes[t] = static_cast<int8_t>(reds);
  }
}

// Plays single deal k (twin `swapped`) into `row`; with `rec`, appends its
// JSON Lines record to `lines`.
void play_row(const Rules& rules, const ExperimentConfig& c, int64_t k, int swapped,
              const std::vector<std::unique_ptr<Agent>>& agents, State& s, DealRow& row, DealRecord* rec,
              std::string* lines) {
  start_single_deal(s, rules, c.seed, k);
  if (rec) {
    begin_single_record(*rec, s, c.seed, k);
    rec->agents = seat_specs(c, rules, swapped);
  }
  Rng rng(derive_seed(c.seed, 6 + static_cast<uint64_t>(swapped), static_cast<uint64_t>(k)));
  row = DealRow{};
  row.deal = k;
  row.swapped = static_cast<int8_t>(swapped);
  play_deal(rules, swapped, agents, s, rng, row, rec);
  if (rec) {
    end_record(*rec, s);
    append_json_line(*lines, *rec);
  }
}

Interval mean_interval(const std::vector<double>& x) {
  const double n = static_cast<double>(x.size());
  if (x.empty()) return {};
  double sum = 0;
  for (double v : x) sum += v;
  const double mean = sum / n;
  double ss = 0;
  for (double v : x) ss += (v - mean) * (v - mean);
  const double half = x.size() > 1 ? kZ * std::sqrt(ss / (n - 1) / n) : 0;
  return {mean, mean - half, mean + half};
}

Interval wilson(double successes, double n) {
  const double p = successes / n;
  const double z2 = kZ * kZ;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = kZ * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {p, centre - half, centre + half};
}

// The rows of the indices that finished (all their twins), in index order.
template <class Row>
void keep_finished(const std::vector<Row>& all, const std::vector<uint8_t>& done, int twins,
                   std::vector<Row>& rows) {
  rows.clear();
  rows.reserve(all.size());
  for (size_t i = 0; i < done.size(); ++i)
    if (done[i])
      for (int t = 0; t < twins; ++t)
        rows.push_back(all[i * static_cast<size_t>(twins) + static_cast<size_t>(t)]);
}

double elo_of(double p) {
  p = std::clamp(p, 1e-9, 1 - 1e-9);
  return -400.0 * std::log10(1.0 / p - 1.0);
}

bool parse_i64(std::string_view s, int64_t& v) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size() && !s.empty();
}

constexpr const char* kCsvHeader =
    "deal,swapped,end,out_seat,concealed,turns,actions,score0,score1,natural_canastas0,natural_canastas1,"
    "mixed_canastas0,mixed_canastas1,red_threes0,red_threes1,opening_turn0,opening_turn1,pickups,"
    "pickup_cards,freezes,blocks";

// Reads a CSV of integers with the given header; `row(values)` takes each line.
template <class Row>
bool read_csv(const std::string& text, const char* name, std::string_view header, int columns,
              std::string& error, const Row& row) {
  size_t pos = 0;
  int64_t line_no = 0;
  std::vector<int64_t> v(static_cast<size_t>(columns));
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    const std::string where = std::string(name) + " line " + std::to_string(++line_no);
    if (line_no == 1) {
      if (line != header) {
        error = std::string("not a ") + name + " of this version (header differs)";
        return false;
      }
      continue;
    }
    if (line.empty()) continue;
    int n = 0;
    size_t start = 0;
    for (;;) {
      const size_t comma = line.find(',', start);
      const std::string_view cell =
          line.substr(start, comma == std::string_view::npos ? line.npos : comma - start);
      if (n == columns || !parse_i64(cell, v[static_cast<size_t>(n++)])) {
        error = where + ": " + std::to_string(columns) + " integer columns expected";
        return false;
      }
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (n != columns) {
      error = where + ": " + std::to_string(columns) + " integer columns expected";
      return false;
    }
    row(v.data());
  }
  return true;
}

std::string interval_json(const Interval& i) {
  char b[160];
  std::snprintf(b, sizeof b, "{\"mean\":%.17g,\"lo\":%.17g,\"hi\":%.17g}", i.mean, i.lo, i.hi);
  return b;
}

std::string per_deal_json(const PerDeal& p) {
  char b[1024];
  std::snprintf(b, sizeof b,
                "{\"went_out\":%.17g,\"concealed\":%.17g,\"stock_out\":%.17g,\"red_three_last\":%.17g,"
                "\"turns\":%.17g,\"actions\":%.17g,\"natural_canastas\":%.17g,\"mixed_canastas\":%.17g,"
                "\"red_threes\":%.17g,\"pickups\":%.17g,\"pickup_size\":%.17g,\"freezes\":%.17g,"
                "\"blocks\":%.17g,\"opening_turn\":%.17g}",
                p.went_out, p.concealed, p.stock_out, p.red_three_last, p.turns, p.actions,
                p.natural_canastas, p.mixed_canastas, p.red_threes, p.pickups, p.pickup_size, p.freezes,
                p.blocks, p.opening_turn);
  return b;
}

// The "config" object of summary.json: what a merge checks the shards agree on.
std::string config_json(const ExperimentConfig& c) {
  std::string seats = "[";
  for (size_t i = 0; i < c.seats.size(); ++i)
    seats += (i ? ",[" : "[") + std::to_string(c.seats[i].first) + "," + json::quote(c.seats[i].second) + "]";
  seats += "]";
  char buf[1024];
  std::snprintf(buf, sizeof buf, "\"seed\":%llu,\"%s\":%lld,\"duplicate\":%s,\"shard\":%d,\"shards\":%d}",
                static_cast<unsigned long long>(c.seed), c.games > 0 ? "games" : "deals",
                static_cast<long long>(c.games > 0 ? c.games : c.deals), c.duplicate ? "true" : "false",
                c.shard, c.shards);
  return "{\"profile\":" + json::quote(c.profile) + ",\"side0\":" + json::quote(c.side0) +
         ",\"side1\":" + json::quote(c.side1) + ",\"seats\":" + seats + "," + buf;
}

// The profile of a run, after checking its agents, named seats and shard.
bool check_config(const ExperimentConfig& c, Rules& rules, std::string& error) {
  if (!parse_profile(c.profile, rules, error)) return false;
  if (rules.teams != 2) {
    error = "experiments need a profile with two sides";
    return false;
  }
  if (!make_agent(c.side0, error) || !make_agent(c.side1, error)) return false;
  for (const auto& [seat, spec] : c.seats) {
    if (seat < 0 || seat >= rules.players) {
      error = "no seat " + std::to_string(seat) + " in a game of " + std::to_string(rules.players);
      return false;
    }
    if (!make_agent(spec, error)) return false;
  }
  if (c.shards < 1 || c.shard < 0 || c.shard >= c.shards) {
    error = "bad shard " + std::to_string(c.shard) + "/" + std::to_string(c.shards);
    return false;
  }
  return true;
}

// Indices recorded per batch: their records wait in memory until the batch ends.
constexpr int64_t kRecordBatch = 4096;

// Plays indices 0 .. count-1 (deal or game c.shard + i * c.shards) on the
// pool in batches of `batch`: `play(i, agents, state, rec, lines)` plays
// every twin of index i, with the seats' agents, appending JSON Lines records
// to `lines` when `rec` is given (only when `records` is set). `done[i]` is set
// when index i finished. After each batch its finished indices' records go to
// `records` in index order, and `after_batch(next)` returning true ends the run.
// Hands batches of records to a sink on a thread of its own, in order, so
// that the next batch plays while one is written; at most two batches wait.
class RecordWriter {
 public:
  explicit RecordWriter(const RecordSink& sink) : sink_(sink) {
    if (sink_) thread_ = std::thread([this] { run(); });
  }
  ~RecordWriter() { finish(); }
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  void push(std::vector<std::string> batch) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return queue_.size() < 2; });
    queue_.push_back(std::move(batch));
    changed_.notify_all();
  }
  // Writes what waits, then stops the thread.
  void finish() {
    {
      const std::lock_guard lock(mutex_);
      closed_ = true;
      changed_.notify_all();
    }
    if (thread_.joinable()) thread_.join();
  }

 private:
  void run() {
    for (;;) {
      std::vector<std::string> batch;
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return closed_ || !queue_.empty(); });
        if (queue_.empty()) return;
        batch = std::move(queue_.front());
        queue_.pop_front();
        changed_.notify_all();
      }
      for (const std::string& lines : batch) sink_(lines);
    }
  }

  const RecordSink& sink_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::vector<std::string>> queue_;
  bool closed_ = false;
};

template <class Play, class AfterBatch>
void play_indices(const ExperimentConfig& c, const Rules& rules, int64_t count, int64_t batch, int64_t grain,
                  std::vector<uint8_t>& done, const std::atomic<bool>* stop, const RecordSink& records,
                  const Play& play, const AfterBatch& after_batch) {
  const int threads = c.threads > 0 ? c.threads : static_cast<int>(std::thread::hardware_concurrency());
  tbb::task_arena arena(threads);
  RecordWriter writer(records);
  std::vector<std::string> lines;
  for (int64_t first = 0, next = 0; first < count; first = next) {
    next = std::min(count, first + batch);
    if (records) lines.assign(static_cast<size_t>(next - first), std::string());
    arena.execute([&] {
      tbb::parallel_for(tbb::blocked_range<int64_t>(first, next, static_cast<size_t>(grain)),
                        [&](const tbb::blocked_range<int64_t>& r) {
                          std::string ignored;
                          std::vector<std::unique_ptr<Agent>> agents;
                          for (int seat = 0; seat < rules.players; ++seat)
                            agents.push_back(make_agent(seat_spec(c, rules, seat), ignored));
                          State s;
                          DealRecord rec;
                          for (int64_t i = r.begin(); i != r.end(); ++i) {
                            if (stop && stop->load(std::memory_order_relaxed)) return;
                            play(i, agents, s, records ? &rec : nullptr,
                                 records ? &lines[static_cast<size_t>(i - first)] : nullptr);
                            done[static_cast<size_t>(i)] = 1;
                          }
                        });
    });
    if (records) {
      std::vector<std::string> finished;
      finished.reserve(lines.size());
      for (int64_t i = first; i < next; ++i)
        if (done[static_cast<size_t>(i)])
          finished.push_back(std::move(lines[static_cast<size_t>(i - first)]));
      writer.push(std::move(finished));
    }
    if (stop && stop->load()) break;
    if (after_batch(next)) break;
  }
}

}  // namespace

bool run_experiment(const ExperimentConfig& c, std::vector<DealRow>& rows, std::string& error,
                    const std::atomic<bool>* stop, const std::function<void(int64_t)>& progress,
                    const RecordSink& records) {
  Rules rules;
  if (!check_config(c, rules, error)) return false;
  const int twins = c.duplicate ? 2 : 1;
  const int64_t count = shard_size(c.deals, c);
  std::vector<DealRow> all(static_cast<size_t>(count * twins));
  std::vector<uint8_t> done(static_cast<size_t>(count), 0);
  std::atomic<int64_t> finished{0};
  // With a sequential test the deals go in fixed batches, so that where the
  // test stops does not depend on the thread count.
  const int64_t batch = c.sprt_on ? 1024 : records ? kRecordBatch : std::max<int64_t>(count, 1);
  play_indices(
      c, rules, count, batch, 64, done, stop, records,
      [&](int64_t i, const std::vector<std::unique_ptr<Agent>>& agents, State& s, DealRecord* rec,
          std::string* lines) {
        for (int t = 0; t < twins; ++t)
          play_row(rules, c, c.shard + i * c.shards, t, agents, s, all[static_cast<size_t>(i * twins + t)],
                   rec, lines);
        const int64_t n = finished.fetch_add(twins) + twins;
        if (progress) progress(n);
      },
      [&](int64_t next) {
        if (!c.sprt_on) return false;
        // Every index before `next` has finished: the prefix of `all` is in order.
        const std::span<const DealRow> so_far(all.data(), static_cast<size_t>(next * twins));
        return sprt(so_far, c.duplicate, c.elo0, c.elo1, c.alpha, c.beta).decision != 0;
      });
  keep_finished(all, done, twins, rows);
  return true;
}

void DealCounts::add(const DealRow& r) {
  ++deals;
  went_out += r.end == 1;
  concealed += r.end == 1 && r.concealed;
  stock_out += r.end == 2;
  red_three_last += r.end == 3;
  turns += r.turns;
  actions += r.actions;
  natural_canastas += r.natural_canastas[0] + r.natural_canastas[1];
  mixed_canastas += r.mixed_canastas[0] + r.mixed_canastas[1];
  red_threes += r.red_threes[0] + r.red_threes[1];
  pickups += r.pickups;
  pickup_cards += r.pickup_cards;
  freezes += r.freezes;
  blocks += r.blocks;
  for (int t = 0; t < 2; ++t)
    if (r.opening_turn[t] > 0) opening_turns += r.opening_turn[t], ++openings;
}

void DealCounts::add(const DealCounts& o) {
  deals += o.deals;
  went_out += o.went_out;
  concealed += o.concealed;
  stock_out += o.stock_out;
  red_three_last += o.red_three_last;
  turns += o.turns;
  actions += o.actions;
  natural_canastas += o.natural_canastas;
  mixed_canastas += o.mixed_canastas;
  red_threes += o.red_threes;
  pickups += o.pickups;
  pickup_cards += o.pickup_cards;
  freezes += o.freezes;
  blocks += o.blocks;
  opening_turns += o.opening_turns;
  openings += o.openings;
}

PerDeal PerDeal::of(const DealCounts& c) {
  PerDeal p;
  if (c.deals == 0) return p;
  const double n = static_cast<double>(c.deals);
  auto d = [](int64_t x) { return static_cast<double>(x); };
  p.went_out = d(c.went_out) / n;
  p.concealed = d(c.concealed) / n;
  p.stock_out = d(c.stock_out) / n;
  p.red_three_last = d(c.red_three_last) / n;
  p.turns = d(c.turns) / n;
  p.actions = d(c.actions) / n;
  p.natural_canastas = d(c.natural_canastas) / n;
  p.mixed_canastas = d(c.mixed_canastas) / n;
  p.red_threes = d(c.red_threes) / n;
  p.pickups = d(c.pickups) / n;
  p.pickup_size = c.pickups > 0 ? d(c.pickup_cards) / d(c.pickups) : 0;
  p.freezes = d(c.freezes) / n;
  p.blocks = d(c.blocks) / n;
  p.opening_turn = c.openings > 0 ? d(c.opening_turns) / d(c.openings) : 0;
  return p;
}

Summary summarize(const std::vector<DealRow>& rows, bool duplicate) {
  Summary s;
  s.rows = static_cast<int64_t>(rows.size());
  if (rows.empty()) return s;
  std::vector<double> margins, paired;
  margins.reserve(rows.size());
  DealCounts counts;
  for (size_t i = 0; i < rows.size(); ++i) {
    const DealRow& r = rows[i];
    const int a_side = r.swapped;
    const double m = r.score[a_side] - r.score[1 - a_side];
    margins.push_back(m);
    if (m > 0)
      ++s.a_won;
    else if (m < 0)
      ++s.b_won;
    else
      ++s.tied;
    if (duplicate && r.swapped == 1 && i > 0 && rows[i - 1].deal == r.deal && rows[i - 1].swapped == 0)
      paired.push_back((margins[i - 1] + m) / 2);
    counts.add(r);
  }
  const double n = static_cast<double>(rows.size());
  // Wilson score interval for A's share of deals (a tie counts half).
  s.a_win_share = wilson(static_cast<double>(s.a_won) + 0.5 * static_cast<double>(s.tied), n);
  s.elo = {elo_of(s.a_win_share.mean), elo_of(s.a_win_share.lo), elo_of(s.a_win_share.hi)};
  const Interval unpaired = mean_interval(margins);
  s.unpaired_width = unpaired.hi - unpaired.lo;
  s.margin = duplicate && !paired.empty() ? mean_interval(paired) : unpaired;
  s.per_deal = PerDeal::of(counts);
  return s;
}

SprtResult sprt(std::span<const DealRow> rows, bool duplicate, double elo0, double elo1, double alpha,
                double beta) {
  SprtResult r;
  r.lower = std::log(beta / (1 - alpha));
  r.upper = std::log((1 - beta) / alpha);
  std::vector<double> x;
  for (size_t i = 0; i < rows.size(); ++i) {
    const DealRow& d = rows[i];
    const double m = d.score[d.swapped] - d.score[1 - d.swapped];
    const double share = m > 0 ? 1.0 : m < 0 ? 0.0 : 0.5;
    if (!duplicate) {
      x.push_back(share);
    } else if (d.swapped == 1 && i > 0 && rows[i - 1].deal == d.deal) {
      const DealRow& e = rows[i - 1];
      const double m0 = e.score[0] - e.score[1];
      x.push_back((share + (m0 > 0 ? 1.0 : m0 < 0 ? 0.0 : 0.5)) / 2);
    }
  }
  if (x.size() < 2) return r;
  const double n = static_cast<double>(x.size());
  double sum = 0;
  for (double v : x) sum += v;
  const double mean = sum / n;
  double var = 0;
  for (double v : x) var += (v - mean) * (v - mean);
  var /= n;
  if (var <= 0) return r;
  auto share_of = [](double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); };
  const double s0 = share_of(elo0), s1 = share_of(elo1);
  r.llr = (s1 - s0) / var * (sum - n * (s0 + s1) / 2);
  r.decision = r.llr >= r.upper ? 1 : r.llr <= r.lower ? -1 : 0;
  return r;
}

std::string rows_to_csv(const std::vector<DealRow>& rows) {
  std::string out = std::string(kCsvHeader) + "\n";
  char buf[256];
  for (const DealRow& r : rows) {
    std::snprintf(buf, sizeof buf, "%lld,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d\n",
                  static_cast<long long>(r.deal), r.swapped, r.end, r.out_seat, r.concealed, r.turns,
                  r.actions, r.score[0], r.score[1], r.natural_canastas[0], r.natural_canastas[1],
                  r.mixed_canastas[0], r.mixed_canastas[1], r.red_threes[0], r.red_threes[1],
                  r.opening_turn[0], r.opening_turn[1], r.pickups, r.pickup_cards, r.freezes, r.blocks);
    out += buf;
  }
  return out;
}

bool rows_from_csv(const std::string& text, std::vector<DealRow>& rows, std::string& error) {
  rows.clear();
  return read_csv(text, "deals.csv", kCsvHeader, 21, error, [&](const int64_t* v) {
    DealRow r;
    r.deal = v[0];
    r.swapped = static_cast<int8_t>(v[1]);
    r.end = static_cast<int8_t>(v[2]);
    r.out_seat = static_cast<int8_t>(v[3]);
    r.concealed = static_cast<int8_t>(v[4]);
    r.turns = static_cast<int16_t>(v[5]);
    r.actions = static_cast<int16_t>(v[6]);
    r.score[0] = static_cast<int32_t>(v[7]);
    r.score[1] = static_cast<int32_t>(v[8]);
    r.natural_canastas[0] = static_cast<int8_t>(v[9]);
    r.natural_canastas[1] = static_cast<int8_t>(v[10]);
    r.mixed_canastas[0] = static_cast<int8_t>(v[11]);
    r.mixed_canastas[1] = static_cast<int8_t>(v[12]);
    r.red_threes[0] = static_cast<int8_t>(v[13]);
    r.red_threes[1] = static_cast<int8_t>(v[14]);
    r.opening_turn[0] = static_cast<int16_t>(v[15]);
    r.opening_turn[1] = static_cast<int16_t>(v[16]);
    r.pickups = static_cast<int16_t>(v[17]);
    r.pickup_cards = static_cast<int16_t>(v[18]);
    r.freezes = static_cast<int16_t>(v[19]);
    r.blocks = static_cast<int16_t>(v[20]);
    rows.push_back(r);
  });
}

std::string summary_to_json(const ExperimentConfig& c, const Summary& s) {
  char buf[4096];
  std::snprintf(buf, sizeof buf,
                "{\"format\":\"canasta-summary/1\",\"config\":%s,"
                "\"rows\":%lld,\"a_won\":%lld,\"b_won\":%lld,\"tied\":%lld,\"a_win_share\":%s,\"margin\":%s,"
                "\"elo\":%s,\"unpaired_margin_width\":%.17g,\"per_deal\":%s}\n",
                config_json(c).c_str(), static_cast<long long>(s.rows), static_cast<long long>(s.a_won),
                static_cast<long long>(s.b_won), static_cast<long long>(s.tied),
                interval_json(s.a_win_share).c_str(), interval_json(s.margin).c_str(),
                interval_json(s.elo).c_str(), s.unpaired_width, per_deal_json(s.per_deal).c_str());
  return buf;
}

bool config_from_json(const std::string& text, ExperimentConfig& c, std::string& error) {
  json::Value v;
  if (!json::parse(text, v, error)) return false;
  const json::Value* cfg = v.get("config");
  if (!cfg || cfg->type != json::Value::Type::kObject) {
    error = "summary.json has no config";
    return false;
  }
  auto str = [&](const char* key, std::string& out) {
    const json::Value* x = cfg->get(key);
    if (!x || x->type != json::Value::Type::kString) return false;
    out = x->text;
    return true;
  };
  auto num = [&](const char* key, int64_t& out) {
    const json::Value* x = cfg->get(key);
    return x && x->type == json::Value::Type::kNumber && parse_i64(x->text, out);
  };
  int64_t count = 0, shard = 0, shards = 0;
  uint64_t seed = 0;
  const json::Value* seed_v = cfg->get("seed");
  const bool seed_ok =
      seed_v && seed_v->type == json::Value::Type::kNumber &&
      std::from_chars(seed_v->text.data(), seed_v->text.data() + seed_v->text.size(), seed).ptr ==
          seed_v->text.data() + seed_v->text.size();
  const json::Value* dup = cfg->get("duplicate");
  const bool games = cfg->get("games") != nullptr;
  if (!str("profile", c.profile) || !str("side0", c.side0) || !str("side1", c.side1) || !seed_ok ||
      !num(games ? "games" : "deals", count) || !num("shard", shard) || !num("shards", shards) || !dup ||
      dup->type != json::Value::Type::kBool) {
    error = "summary.json config is incomplete";
    return false;
  }
  c.seats.clear();
  if (const json::Value* seats = cfg->get("seats")) {
    for (const json::Value& item : seats->items) {
      int64_t seat = -1;
      if (item.type != json::Value::Type::kArray || item.items.size() != 2 ||
          !parse_i64(item.items[0].text, seat) || item.items[1].type != json::Value::Type::kString) {
        error = "summary.json config has bad seats";
        return false;
      }
      c.seats.emplace_back(static_cast<int>(seat), item.items[1].text);
    }
  }
  c.seed = seed;
  c.deals = games ? 0 : count;
  c.games = games ? count : 0;
  c.shard = static_cast<int>(shard);
  c.shards = static_cast<int>(shards);
  c.duplicate = dup->boolean;
  return true;
}

}  // namespace canasta

namespace canasta {

bool expand_sweep(std::string_view spec, std::vector<SweepPoint>& out, std::string& error) {
  out.clear();
  const size_t open = spec.find('{');
  if (open == std::string_view::npos) {
    out.push_back({std::string(spec), {}});
    return true;
  }
  const size_t close = spec.find('}', open);
  const size_t eq = spec.rfind('=', open);
  const size_t start = spec.find_last_of(":,", eq);
  if (close == std::string_view::npos || eq == std::string_view::npos || eq + 1 != open ||
      start == std::string_view::npos) {
    error = "bad sweep in '" + std::string(spec) + "' (write e.g. heuristic:freeze={0..12..2})";
    return false;
  }
  const std::string name(spec.substr(start + 1, eq - start - 1));
  const std::string_view body = spec.substr(open + 1, close - open - 1);
  std::vector<std::string> values;
  const size_t dots = body.find("..");
  if (dots != std::string_view::npos) {
    const std::string_view rest = body.substr(dots + 2);
    const size_t dots2 = rest.find("..");
    double from = 0, to = 0, step = 1;
    auto num = [](std::string_view t, double& v) {
      auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
      return ec == std::errc() && p == t.data() + t.size() && !t.empty();
    };
    if (!num(body.substr(0, dots), from) || !num(rest.substr(0, dots2), to) ||
        (dots2 != std::string_view::npos && !num(rest.substr(dots2 + 2), step)) || step <= 0 || to < from ||
        (to - from) / step > 1000) {
      error = "bad range '{" + std::string(body) + "}' (from..to..step, step > 0, at most 1000 points)";
      return false;
    }
    for (int i = 0; from + i * step <= to + 1e-9; ++i) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", from + i * step);
      values.emplace_back(buf);
    }
  } else {
    size_t p = 0;
    while (p <= body.size()) {
      const size_t comma = body.find(',', p);
      const std::string_view v = body.substr(p, comma == std::string_view::npos ? body.npos : comma - p);
      if (v.empty()) {
        error = "empty value in '{" + std::string(body) + "}'";
        return false;
      }
      values.emplace_back(v);
      if (comma == std::string_view::npos) break;
      p = comma + 1;
    }
  }
  const std::string head(spec.substr(0, open));
  const std::string tail(spec.substr(close + 1));
  for (const auto& v : values) {
    std::vector<SweepPoint> inner;
    if (!expand_sweep(head + v + tail, inner, error)) return false;
    for (auto& point : inner) {
      point.values.insert(point.values.begin(), {name, v});
      out.push_back(std::move(point));
    }
  }
  if (!out.empty() && out.front().values.size() > 2) {
    error = "a sweep varies one or two parameters";
    return false;
  }
  return true;
}

}  // namespace canasta

namespace canasta {

bool run_games(const ExperimentConfig& c, std::vector<GameRow>& rows, std::string& error,
               const std::atomic<bool>* stop, const std::function<void(int64_t)>& progress,
               const RecordSink& records) {
  Rules rules;
  if (!check_config(c, rules, error)) return false;
  const int twins = c.duplicate ? 2 : 1;
  const int64_t count = shard_size(c.games, c);
  std::vector<GameRow> all(static_cast<size_t>(count * twins));
  std::vector<uint8_t> done(static_cast<size_t>(count), 0);
  const int64_t batch = records ? kRecordBatch / 16 : std::max<int64_t>(count, 1);
  std::atomic<int64_t> finished{0};
  play_indices(
      c, rules, count, batch, 4, done, stop, records,
      [&](int64_t i, const std::vector<std::unique_ptr<Agent>>& agents, State& s, DealRecord* rec,
          std::string* lines) {
        const int64_t g = c.shard + i * c.shards;
        for (int t = 0; t < twins; ++t) {
          Game game = new_game(rules, derive_seed(c.seed, 8, static_cast<uint64_t>(g)));
          DealCounts counts;
          while (game.end == GameEnd::kPlaying) {
            start_next_deal(game, s);
            if (rec) {
              begin_record(*rec, game, s);
              rec->agents = seat_specs(c, rules, t);
            }
            Rng rng(derive_seed(game.seed, 9 + static_cast<uint64_t>(t), static_cast<uint64_t>(game.deal)));
            DealRow deal;
            play_deal(rules, t, agents, s, rng, deal, rec);
            counts.add(deal);
            finish_deal(game, s);
            if (rec) {
              end_record(*rec, s, game);
              append_json_line(*lines, *rec);
            }
          }
          GameRow& row = all[static_cast<size_t>(i * twins + t)];
          row.game = g;
          row.swapped = static_cast<int8_t>(t);
          row.end = static_cast<int8_t>(game.end);
          row.winner = static_cast<int8_t>(game.winner);
          row.total[0] = game.totals[0];
          row.total[1] = game.totals[1];
          row.counts = counts;
        }
        const int64_t n = finished.fetch_add(twins) + twins;
        if (progress) progress(n);
      },
      [](int64_t) { return false; });
  keep_finished(all, done, twins, rows);
  return true;
}

GameSummary summarize_games(const std::vector<GameRow>& rows, bool duplicate) {
  GameSummary s;
  s.rows = static_cast<int64_t>(rows.size());
  if (rows.empty()) return s;
  std::vector<double> margins, paired;
  DealCounts counts;
  for (size_t i = 0; i < rows.size(); ++i) {
    const GameRow& r = rows[i];
    const int a_side = r.swapped;
    if (r.end == static_cast<int8_t>(GameEnd::kWon) && r.winner == a_side)
      ++s.a_won;
    else if (r.end == static_cast<int8_t>(GameEnd::kWon))
      ++s.b_won;
    else
      ++s.other;
    margins.push_back(static_cast<double>(r.total[a_side] - r.total[1 - a_side]));
    if (duplicate && r.swapped == 1 && i > 0 && rows[i - 1].game == r.game)
      paired.push_back((margins[i - 1] + margins[i]) / 2);
    counts.add(r.counts);
  }
  const double n = static_cast<double>(rows.size());
  s.a_win_share = wilson(static_cast<double>(s.a_won) + 0.5 * static_cast<double>(s.other), n);
  s.elo = {elo_of(s.a_win_share.mean), elo_of(s.a_win_share.lo), elo_of(s.a_win_share.hi)};
  s.margin = duplicate && !paired.empty() ? mean_interval(paired) : mean_interval(margins);
  s.deals = static_cast<double>(counts.deals) / n;
  s.per_deal = PerDeal::of(counts);
  return s;
}

constexpr const char* kGameCsvHeader =
    "game,swapped,end,winner,total0,total1,deals,went_out,concealed,stock_out,red_three_last,turns,actions,"
    "natural_canastas,mixed_canastas,red_threes,pickups,pickup_cards,freezes,blocks,opening_turns,openings";

std::string game_rows_to_csv(const std::vector<GameRow>& rows) {
  std::string out = std::string(kGameCsvHeader) + "\n";
  char buf[512];
  for (const GameRow& r : rows) {
    const DealCounts& n = r.counts;
    std::snprintf(
        buf, sizeof buf,
        "%lld,%d,%d,%d,%d,%d,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,"
        "%lld\n",
        static_cast<long long>(r.game), r.swapped, r.end, r.winner, r.total[0], r.total[1],
        static_cast<long long>(n.deals), static_cast<long long>(n.went_out),
        static_cast<long long>(n.concealed), static_cast<long long>(n.stock_out),
        static_cast<long long>(n.red_three_last), static_cast<long long>(n.turns),
        static_cast<long long>(n.actions), static_cast<long long>(n.natural_canastas),
        static_cast<long long>(n.mixed_canastas), static_cast<long long>(n.red_threes),
        static_cast<long long>(n.pickups), static_cast<long long>(n.pickup_cards),
        static_cast<long long>(n.freezes), static_cast<long long>(n.blocks),
        static_cast<long long>(n.opening_turns), static_cast<long long>(n.openings));
    out += buf;
  }
  return out;
}

bool game_rows_from_csv(const std::string& text, std::vector<GameRow>& rows, std::string& error) {
  rows.clear();
  return read_csv(text, "games.csv", kGameCsvHeader, 22, error, [&](const int64_t* v) {
    GameRow r;
    r.game = v[0];
    r.swapped = static_cast<int8_t>(v[1]);
    r.end = static_cast<int8_t>(v[2]);
    r.winner = static_cast<int8_t>(v[3]);
    r.total[0] = static_cast<int32_t>(v[4]);
    r.total[1] = static_cast<int32_t>(v[5]);
    DealCounts& n = r.counts;
    int64_t* fields[] = {&n.deals,          &n.went_out,   &n.concealed,     &n.stock_out,
                         &n.red_three_last, &n.turns,      &n.actions,       &n.natural_canastas,
                         &n.mixed_canastas, &n.red_threes, &n.pickups,       &n.pickup_cards,
                         &n.freezes,        &n.blocks,     &n.opening_turns, &n.openings};
    for (int i = 0; i < 16; ++i) *fields[i] = v[6 + i];
    rows.push_back(r);
  });
}

std::string game_summary_to_json(const ExperimentConfig& c, const GameSummary& s) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "\"rows\":%lld,\"a_won\":%lld,\"b_won\":%lld,\"other\":%lld,",
                static_cast<long long>(s.rows), static_cast<long long>(s.a_won),
                static_cast<long long>(s.b_won), static_cast<long long>(s.other));
  char deals[64];
  std::snprintf(deals, sizeof deals, "%.17g", s.deals);
  return "{\"format\":\"canasta-games-summary/1\",\"config\":" + config_json(c) + "," + buf +
         "\"a_win_share\":" + interval_json(s.a_win_share) + ",\"margin\":" + interval_json(s.margin) +
         ",\"elo\":" + interval_json(s.elo) + ",\"deals_per_game\":" + deals +
         ",\"per_deal\":" + per_deal_json(s.per_deal) + "}\n";
}

}  // namespace canasta
