// A run spread over processes (what MPI ranks do) gives the run of one
// process: K threads stand for K ranks, each playing its block of every
// batch, and their sums go through a barrier. Rows, records, the summary,
// SPSA trajectories and tournaments come out the same, bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "canasta/experiment.h"
#include "canasta/results.h"
#include "canasta/spsa.h"
#include "canasta/stats.h"
#include "canasta/tournament.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// K processes in one: sum() waits until all K have called it, then gives
// each the words added up over all of them (an MPI_Allreduce).
class StandInRanks {
 public:
  explicit StandInRanks(int k) : k_(k) {}
  Processes process(int index) {
    Processes p;
    p.index = index;
    p.count = k_;
    p.sum = [this](std::span<int64_t> words) { sum(words); };
    return p;
  }
  // Runs `body(index)` on K threads, one per process.
  template <class Body>
  void run(const Body& body) {
    std::vector<std::thread> threads;
    for (int i = 0; i < k_; ++i) threads.emplace_back([&body, i] { body(i); });
    for (std::thread& t : threads) t.join();
  }

 private:
  void sum(std::span<int64_t> words) {
    std::unique_lock lock(mutex_);
    if (arrived_ == 0) adding_.assign(words.size(), 0);
    for (size_t i = 0; i < words.size(); ++i) adding_[i] += words[i];
    const int64_t round = round_;
    if (++arrived_ == k_) {
      total_ = adding_;
      arrived_ = 0;
      ++round_;
      done_.notify_all();
    } else {
      done_.wait(lock, [&] { return round_ != round; });
    }
    std::copy(total_.begin(), total_.end(), words.begin());
  }

  int k_;
  std::mutex mutex_;
  std::condition_variable done_;
  int arrived_ = 0;
  int64_t round_ = 0;
  std::vector<int64_t> adding_, total_;
};

bool by_index(const DealRow& a, const DealRow& b) {
  return a.deal != b.deal ? a.deal < b.deal : a.swapped < b.swapped;
}

TEST(Processes, SplitARunIntoTheSameRowsRecordsAndSummary) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic:keep_wilds=0");
  c.side1 = agent_spec("heuristic");
  c.duplicate = true;
  c.deals = 9000;
  c.threads = 1;
  std::vector<DealRow> one;
  std::string one_records, error;
  RunHooks hooks;
  hooks.records = [&](const std::string& lines) { one_records += lines; };
  ASSERT_TRUE(run_deals(c, one, error, hooks)) << error;
  const Summary single = summary_of(one, c);
  for (const int k : {2, 3}) {
    StandInRanks ranks(k);
    std::vector<std::vector<DealRow>> rows(static_cast<size_t>(k));
    std::vector<std::vector<std::string>> records(static_cast<size_t>(k));
    std::vector<Summary> summaries(static_cast<size_t>(k));
    ranks.run([&](int i) {
      RunHooks h;
      h.processes = ranks.process(i);
      auto& mine = records[static_cast<size_t>(i)];
      std::string batch;  // the records of the batch under way
      h.records = [&batch](const std::string& lines) { batch += lines; };
      h.batch_end = [&mine, &batch] {
        mine.push_back(batch);
        batch.clear();
      };
      std::string e;
      EXPECT_TRUE(run_deals(c, rows[static_cast<size_t>(i)], e, h)) << e;
      Tally t = tally(rows[static_cast<size_t>(i)], RunShape{c.duplicate});
      h.processes.add_up(t.words());
      summaries[static_cast<size_t>(i)] = summarize(t, c);
    });
    std::vector<DealRow> all;
    for (const auto& r : rows) {
      EXPECT_TRUE(std::is_sorted(r.begin(), r.end(), by_index));
      EXPECT_GT(r.size(), 0u);
      all.insert(all.end(), r.begin(), r.end());
    }
    std::sort(all.begin(), all.end(), by_index);
    EXPECT_EQ(rows_to_csv(all), rows_to_csv(one)) << k << " processes";
    // The records: batch after batch, the processes' parts in process order.
    std::string joined;
    for (size_t b = 0; b < records[0].size(); ++b)
      for (const auto& mine : records) {
        ASSERT_EQ(mine.size(), records[0].size()) << "every process sees every batch";
        joined += mine[b];
      }
    EXPECT_EQ(joined, one_records) << k << " processes";
    for (const Summary& s : summaries) EXPECT_EQ(summary_to_json(c, s), summary_to_json(c, single));
  }
}

TEST(Processes, SequentialTestStopsAtTheSameBatch) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.deals = 200000;
  c.threads = 1;
  c.sprt = SprtConfig{0, 10};
  std::vector<DealRow> one;
  std::string error;
  ASSERT_TRUE(run_deals(c, one, error)) << error;
  ASSERT_LT(one.size(), 2u * 200000) << "the test decides early";
  StandInRanks ranks(3);
  std::vector<std::vector<DealRow>> rows(3);
  std::vector<Summary> summaries(3);
  ranks.run([&](int i) {
    RunHooks h;
    h.processes = ranks.process(i);
    std::string e;
    EXPECT_TRUE(run_deals(c, rows[static_cast<size_t>(i)], e, h)) << e;
    Tally t = tally(rows[static_cast<size_t>(i)], kDuplicate);
    h.processes.add_up(t.words());
    summaries[static_cast<size_t>(i)] = summarize(t, c);
  });
  EXPECT_EQ(rows[0].size() + rows[1].size() + rows[2].size(), one.size());
  for (const Summary& s : summaries) EXPECT_EQ(summary_to_json(c, s), summary_to_json(c, summary_of(one, c)));
}

TEST(Processes, SpsaAndTournamentsSpreadExactly) {
  SpsaConfig s;
  s.agent = agent_spec("heuristic");
  s.params = {{"take_min", 1}, {"safety", 30}};
  s.batches = 6;
  s.pairs = 25;
  s.seed = 3;
  s.threads = 1;
  s.objective = SpsaObjective::kMargin;
  std::vector<SpsaStep> one;
  std::string error;
  ASSERT_TRUE(run_spsa(
      s, [&](const SpsaStep& step) { one.push_back(step); }, error))
      << error;
  StandInRanks ranks(2);
  std::vector<std::vector<SpsaStep>> spread(2);
  ranks.run([&](int i) {
    SpsaConfig mine = s;
    mine.processes = ranks.process(i);
    std::string e;
    EXPECT_TRUE(run_spsa(
        mine, [&](const SpsaStep& step) { spread[static_cast<size_t>(i)].push_back(step); }, e))
        << e;
  });
  for (const auto& steps : spread) {
    ASSERT_EQ(steps.size(), one.size());
    for (size_t b = 0; b < one.size(); ++b) {
      EXPECT_EQ(steps[b].theta, one[b].theta) << "batch " << b;
      EXPECT_EQ(steps[b].result, one[b].result) << "batch " << b;
    }
  }

  TournamentConfig t;
  t.agents = {agent_spec("heuristic"), agent_spec("basic"), agent_spec("random")};
  t.deals = 150;
  t.threads = 1;
  TournamentResult single;
  ASSERT_TRUE(run_tournament(t, single, error)) << error;
  std::vector<TournamentResult> results(3);
  StandInRanks three(3);
  three.run([&](int i) {
    TournamentConfig mine = t;
    mine.processes = three.process(i);
    std::string e;
    EXPECT_TRUE(run_tournament(mine, results[static_cast<size_t>(i)], e)) << e;
  });
  for (const TournamentResult& r : results) {
    ASSERT_EQ(r.ratings.size(), single.ratings.size());
    for (size_t i = 0; i < r.ratings.size(); ++i) EXPECT_EQ(r.ratings[i].elo, single.ratings[i].elo);
    for (size_t p = 0; p < r.pairs.size(); ++p)
      EXPECT_EQ(summary_to_json({}, r.pairs[p].summary), summary_to_json({}, single.pairs[p].summary));
  }
}

// A tally is a sum: any split of the rows by index adds up to the whole.
TEST(Processes, TalliesOfPartsAddUpToTheWhole) {
  ExperimentConfig c;
  c.rules = rules_of("spanish-3p");
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.deals = 300;
  std::vector<DealRow> rows;
  std::string error;
  ASSERT_TRUE(run_deals(c, rows, error)) << error;
  Tally whole = tally(rows, {true, 3}), parts;
  for (size_t from = 0; from < rows.size(); from += 3 * 37)
    parts.add(tally(std::span(rows).subspan(from, std::min<size_t>(3 * 37, rows.size() - from)), {true, 3}));
  EXPECT_EQ(sizeof(Tally), 448u) << "sim/doc/experiments.md gives the bytes ranks exchange";
  EXPECT_EQ(whole.groups, 300);
  EXPECT_EQ(parts.groups, 300);
  EXPECT_EQ(parts.rows, whole.rows);
  EXPECT_EQ(parts.group_margin.sum, whole.group_margin.sum);
  EXPECT_EQ(parts.agent_points, whole.agent_points);
  EXPECT_EQ(parts.counts.turns, whole.counts.turns);
  EXPECT_EQ(summary_to_json(c, summarize(parts, c)), summary_to_json(c, summary_of(rows, c)));
  // Word for word once normalized (run.json's tally), whatever the split.
  const Tally a = whole.normalized(), b = parts.normalized();
  EXPECT_TRUE(std::equal(a.words().begin(), a.words().end(), b.words().begin()));
  EXPECT_FALSE(std::equal(whole.words().begin(), whole.words().end(), parts.words().begin()))
      << "the raw words of this split differ (carries between sq_lo and sq_hi): what normalized() is for";
}

// Sums of squares past 64 bits stay exact.
TEST(Processes, MomentsStayExactPast64Bits) {
  Moments m;
  const int64_t big = int64_t{3} << 40;  // squares of 2^83
  for (int i = 0; i < 1000; ++i) m.add(i % 2 ? big : -big);
  EXPECT_EQ(m.sum, 0);
  EXPECT_DOUBLE_EQ(m.variance(1), static_cast<double>(big) * static_cast<double>(big));
  const Interval mean = m.interval(1);
  EXPECT_DOUBLE_EQ(mean.mean, 0);
  EXPECT_NEAR(mean.hi, 1.959963984540054 * static_cast<double>(big) * std::sqrt(1000.0 / 999 / 1000), 1e3);
}

}  // namespace
}  // namespace canasta::test
