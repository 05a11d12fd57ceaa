// Experiments: reproducible for any thread count, shards merge exactly, and
// a mirror match is even.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "canasta/experiment.h"
#include "canasta/game.h"
#include "canasta/parallel.h"
#include "canasta/random_agent.h"
#include "canasta/record.h"
#include "canasta/replay.h"
#include "canasta/results.h"
#include "canasta/stats.h"
#include "canasta/sweep.h"
#include "canasta/tournament.h"
#include "helpers.h"

namespace canasta::test {
namespace {

std::vector<DealRow> run(ExperimentConfig c) {
  std::vector<DealRow> rows;
  std::string error;
  EXPECT_TRUE(run_deals(c, rows, error)) << error;
  return rows;
}

// Every line of `text` parsed and passed through `checker`, in order.
std::vector<DealRecord> checked_records(const std::string& text, RecordChecker& checker) {
  std::vector<DealRecord> out;
  for (size_t pos = 0; pos < text.size();) {
    const size_t end = text.find('\n', pos);
    EXPECT_NE(end, std::string::npos) << "the last record has no newline";
    if (end == std::string::npos) break;
    DealRecord rec;
    std::string error;
    EXPECT_TRUE(parse_record(std::string_view(text).substr(pos, end - pos), rec, error)) << error;
    EXPECT_TRUE(checker.check(rec, error)) << error;
    out.push_back(std::move(rec));
    pos = end + 1;
  }
  return out;
}

// Bit for bit: every number, doubles with 17 digits (which read back exactly).
bool same(const Summary& a, const Summary& b) {
  return summary_to_json(ExperimentConfig{}, a) == summary_to_json(ExperimentConfig{}, b);
}

// Asked for more threads than the machine has cores, the pool runs that
// many (it did not: TBB kept to the cores and warned): each chunk waits
// until n distinct threads have joined, at most 20 s.
TEST(Pool, RunsAsManyThreadsAsAskedBeyondTheCores) {
  const int n = static_cast<int>(std::max(1U, std::thread::hardware_concurrency())) + 2;
  std::mutex m;
  std::set<std::thread::id> seen;
  const auto joined = [&] {
    std::lock_guard<std::mutex> lock(m);
    return static_cast<int>(seen.size());
  };
  parallel_chunks(n, 0, n, 1, [&](int64_t, int64_t) {
    {
      std::lock_guard<std::mutex> lock(m);
      seen.insert(std::this_thread::get_id());
    }
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (joined() < n && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  EXPECT_EQ(joined(), n);
}

TEST(Experiment, SameRowsOnAnyThreadCount) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.deals = 500;
  c.threads = 1;
  const auto one = run(c);
  c.threads = 2;
  const auto two = run(c);
  EXPECT_EQ(rows_to_csv(one), rows_to_csv(two));
  EXPECT_TRUE(same(summary_of(one, kDuplicate), summary_of(two, kDuplicate)));
}

TEST(Experiment, FourShardsMergeIntoTheSingleRunExactly) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic:take_min=5");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.deals = 777;
  const auto single = run(c);
  std::vector<DealRow> merged;
  c.shards = 4;
  for (int i = 0; i < 4; ++i) {
    c.shard = i;
    // Through the files, as `canasta merge` reads them.
    std::vector<DealRow> part;
    std::string error;
    ASSERT_TRUE(rows_from_csv(rows_to_csv(run(c)), part, error)) << error;
    merged.insert(merged.end(), part.begin(), part.end());
  }
  std::sort(merged.begin(), merged.end(), [](const DealRow& a, const DealRow& b) {
    return a.deal != b.deal ? a.deal < b.deal : a.swapped < b.swapped;
  });
  EXPECT_EQ(rows_to_csv(merged), rows_to_csv(single));
  EXPECT_TRUE(same(summary_of(merged, kDuplicate), summary_of(single, kDuplicate)));
  EXPECT_EQ(summary_of(merged, kDuplicate).rows, 2 * 777);
}

// The records a run streams: one per row, in row order, the same for any
// thread count, each replaying clean and agreeing with its row.
TEST(Experiment, RecordsFollowTheRowsOnAnyThreadCount) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.seats = {{2, agent_spec("heuristic:take_min=5")}};
  c.duplicate = true;
  c.deals = 5000;  // more than one batch of records
  std::string text[2];
  std::vector<DealRow> rows[2];
  for (int threads = 1; threads <= 2; ++threads) {
    c.threads = threads;
    std::string error;
    RunHooks hooks;
    hooks.records = [&](const std::string& lines) { text[threads - 1] += lines; };
    ASSERT_TRUE(run_deals(c, rows[threads - 1], error, hooks)) << error;
  }
  EXPECT_EQ(text[0], text[1]);
  EXPECT_EQ(rows_to_csv(rows[0]), rows_to_csv(run(c)));  // recording does not change the play
  RecordChecker checker;
  const auto recs = checked_records(text[0], checker);
  ASSERT_EQ(recs.size(), rows[0].size());
  for (size_t i = 0; i < recs.size(); ++i) {
    const DealRecord& rec = recs[i];
    const DealRow& row = rows[0][i];
    EXPECT_EQ(rec.deal, row.deal);
    EXPECT_EQ(rec.deal_score[0], row.score[0]);
    EXPECT_EQ(rec.deal_score[1], row.score[1]);
    EXPECT_EQ(rec.agents[2], row.swapped ? "random" : "heuristic:take_min=5");
    EXPECT_EQ(rec.agents[3], row.swapped ? "heuristic:take_min=5" : "random");
  }
  EXPECT_EQ(checker.single_deals, 10000);
}

TEST(Experiment, HeuristicMirrorIntervalContainsHalf) {
  ExperimentConfig c;
  c.side0 = c.side1 = agent_spec("heuristic");
  c.duplicate = true;
  c.deals = 1000;
  const Summary s = summary_of(run(c), kDuplicate);
  EXPECT_LE(s.score.share.lo, 0.5);
  EXPECT_GE(s.score.share.hi, 0.5);
  EXPECT_LE(s.score.elo.lo, 0);
  EXPECT_GE(s.score.elo.hi, 0);
}

TEST(Experiment, DuplicateNarrowsTheMarginInterval) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("heuristic:keep_wilds=0");
  c.duplicate = true;
  c.deals = 1000;
  const Summary s = summary_of(run(c), kDuplicate);
  EXPECT_LT(s.margin.hi - s.margin.lo, s.unpaired_width);
}

// A stop keeps the deals before the first one not started, every twin of
// each, and they are the whole run's first rows; a stop set before the run
// starts plays nothing. RunOutcome says which positions were played.
TEST(Experiment, StopKeepsFinishedDealsOnly) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.deals = 3000;
  c.duplicate = true;
  c.threads = 2;
  std::vector<DealRow> whole;
  std::string error;
  ASSERT_TRUE(run_deals(c, whole, error)) << error;
  ASSERT_EQ(whole.size(), 6000U);
  std::atomic<bool> stop{true};
  RunHooks hooks;
  hooks.stop = &stop;
  std::vector<DealRow> rows;
  ASSERT_TRUE(run_deals(c, rows, error, hooks)) << error;
  EXPECT_TRUE(rows.empty()) << "stopped before the start: nothing played";
  for (const int64_t after : {2, 1000, 4001}) {
    stop = false;
    hooks.progress = [&](int64_t done) {
      if (done >= after) stop = true;
    };
    hooks.deal_rows = [&](std::span<const DealRow> r) { rows.insert(rows.end(), r.begin(), r.end()); };
    rows.clear();
    RunOutcome out;
    ASSERT_TRUE(stream_deals(c, out, error, hooks)) << error;
    EXPECT_TRUE(out.stopped);
    ASSERT_GE(static_cast<int64_t>(rows.size()), after - 2 * c.threads) << "stopped after " << after;
    ASSERT_LT(rows.size(), whole.size());
    ASSERT_EQ(rows.size() % 2, 0U);
    for (size_t i = 0; i < rows.size(); ++i)
      ASSERT_EQ(rows_to_csv(std::span(&rows[i], 1)), rows_to_csv(std::span(&whole[i], 1))) << "row " << i;
    ASSERT_EQ(out.done, (Ranges{{0, static_cast<int64_t>(rows.size() / 2)}}));
  }
}

// The stop flag set while the workers play (as Ctrl-C does) from a worker's
// progress callback: the run keeps complete duplicate pairs, in order, and
// exactly their records, written by the record thread meanwhile.
TEST(Experiment, StopDuringTheRunKeepsWhatFinished) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.duplicate = true;
  c.deals = 20000;
  c.threads = 2;
  std::atomic<bool> stop{false};
  std::atomic<int64_t> progress_calls{0};
  std::string text;
  RunHooks hooks;
  hooks.stop = &stop;
  hooks.progress = [&](int64_t rows) {
    ++progress_calls;
    if (rows >= 9000) stop = true;
  };
  hooks.records = [&](const std::string& lines) { text += lines; };
  std::vector<DealRow> rows;
  std::string error;
  ASSERT_TRUE(run_deals(c, rows, error, hooks)) << error;
  EXPECT_GE(rows.size(), 9000U);
  EXPECT_LT(rows.size(), 40000U);
  EXPECT_EQ(rows.size() % 2, 0U);
  for (size_t i = 0; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].swapped, static_cast<int8_t>(i % 2));
    if (i > 0) {
      EXPECT_LE(rows[i - 1].deal, rows[i].deal);
    }
  }
  EXPECT_EQ(static_cast<size_t>(std::count(text.begin(), text.end(), '\n')), rows.size());
  EXPECT_GT(progress_calls.load(), 0);
}

// The first unit of a run slower than all the others: the other thread
// finishes every other position of the window before the first is handed
// on, and the rows still come out once each, in order (a full window was
// once handed on again and again, its slots read as the next positions').
TEST(Experiment, AFullWindowIsHandedOnOnce) {
  // Random play, its very first decision in the process a second late.
  class FirstLate final : public Agent {
   public:
    explicit FirstLate(std::atomic<bool>& late) : late_(late) {}
    Action act(const View& view, Rng& rng) override {
      if (!late_.exchange(true)) std::this_thread::sleep_for(std::chrono::seconds(1));
      return random_.act(view, rng);
    }

   private:
    std::atomic<bool>& late_;
    RandomAgent random_;
  };
  ExperimentConfig c;
  c.side0 = agent_spec("random");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.deals = 6000;  // more than the window of a run with records (4,096 positions)
  c.threads = 2;
  std::atomic<bool> late{false};
  std::vector<DealRow> rows;
  RunHooks hooks;
  hooks.agent_for = [&late](int) { return std::make_unique<FirstLate>(late); };
  hooks.records = [](const std::string&) {};
  hooks.deal_rows = [&](std::span<const DealRow> r) { rows.insert(rows.end(), r.begin(), r.end()); };
  RunOutcome out;
  std::string error;
  ASSERT_TRUE(stream_deals(c, out, error, hooks)) << error;
  ASSERT_TRUE(late.load());
  c.threads = 1;
  EXPECT_EQ(rows_to_csv(rows), rows_to_csv(run(c)));
}

TEST(Experiment, SummaryConfigRoundTripsAnySeed) {
  ExperimentConfig c;
  c.seed = 18446744073709551615ULL;
  c.side0 = agent_spec("heuristic:freeze=6");
  c.duplicate = true;
  c.shard = 2;
  c.shards = 4;
  ExperimentConfig back;
  std::string error;
  ASSERT_TRUE(config_from_json(summary_to_json(c, Summary{}), back, error)) << error;
  EXPECT_EQ(back.seed, c.seed);
  EXPECT_EQ(back.side0, c.side0);
  EXPECT_EQ(back.shard, 2);
  EXPECT_TRUE(back.duplicate);
  EXPECT_EQ(back.games, 0);
  c.games = 30;
  c.seats = {{1, agent_spec("ismcts:iters=50")}, {3, agent_spec("random")}};
  ASSERT_TRUE(config_from_json(game_summary_to_json(c, GameSummary{}), back, error)) << error;
  EXPECT_EQ(back.games, 30);
  EXPECT_EQ(back.seats, c.seats);
}

TEST(Experiment, BadConfigsAreRefused) {
  ExperimentConfig c;
  std::vector<DealRow> rows;
  std::string error;
  c.shard = 4;
  c.shards = 4;
  EXPECT_FALSE(run_deals(c, rows, error));
  c.shard = 0;
  c.shards = 1;
  c.seats = {{4, agent_spec("random")}};
  EXPECT_FALSE(run_deals(c, rows, error));
  EXPECT_NE(error.find("seat 4"), std::string::npos);
  EXPECT_FALSE(rows_from_csv("not,a,header\n", rows, error));
  // A value that does not fit its column is refused, not wrapped.
  std::string csv = rows_to_csv(run([] {
    ExperimentConfig one;
    one.deals = 1;
    return one;
  }()));
  ASSERT_TRUE(rows_from_csv(csv, rows, error)) << error;
  csv.replace(csv.find('\n') + 1, 1, "9999999999999999999999");
  EXPECT_FALSE(rows_from_csv(csv, rows, error));
}

// A summary.json holds the longest specs whole (it used to be cut at 4 KB),
// and reads back into the same configuration.
TEST(Experiment, SummaryKeepsLongSpecsWhole) {
  ExperimentConfig c;
  c.side0 = agent_spec(
      "basic:take_min=7,freeze=5,keep_wilds=2,go_out=0,meld_min=3,freeze_hand=4,freeze_unopened=0,"
      "out_margin=250,ask=1,out_cards=6");
  c.side1 = agent_spec("ismcts:iters=77,time_ms=5,c=1.2345678901234567,rollout=random,cutoff=9,reward=win");
  for (int seat = 0; seat < 4; ++seat) c.seats.push_back({seat, seat % 2 ? c.side0 : c.side1});
  c.rules = rules_of("classic,hand=13,target=7000,tie=draw,max_deals=50,one_card_rule=false");
  for (const bool games : {false, true}) {
    c.games = games ? 5 : 0;
    c.deals = games ? 0 : 1000;
    const std::string json = games ? game_summary_to_json(c, GameSummary{}) : summary_to_json(c, Summary{});
    ExperimentConfig back;
    std::string error;
    ASSERT_TRUE(config_from_json(json, back, error)) << error << "\n" << json;
    EXPECT_TRUE(same_run(back, c));
    EXPECT_EQ(back.side1.to_string(), c.side1.to_string());
  }
}

}  // namespace
}  // namespace canasta::test

namespace canasta::test {
namespace {

TEST(Sweep, ExpandsRangesAndLists) {
  std::vector<SweepPoint> p;
  std::string error;
  ASSERT_TRUE(expand_sweep("heuristic:freeze={0..12..2}", p, error)) << error;
  ASSERT_EQ(p.size(), 7U);
  EXPECT_EQ(p[3].agent.to_string(), "heuristic:freeze=6");
  EXPECT_EQ(p[3].values[0], std::make_pair(std::string("freeze"), std::string("6")));
  ASSERT_TRUE(expand_sweep("heuristic:take_min={2,4},freeze={0..1}", p, error)) << error;
  ASSERT_EQ(p.size(), 4U);
  EXPECT_EQ(p[3].agent.to_string(), "heuristic:take_min=4,freeze=1");
  ASSERT_TRUE(expand_sweep("heuristic", p, error));
  EXPECT_EQ(p.size(), 1U);
  EXPECT_FALSE(expand_sweep("heuristic:freeze={5..1}", p, error));
  EXPECT_FALSE(expand_sweep("heuristic:freeze={0..9..0}", p, error));
  EXPECT_FALSE(expand_sweep("heuristic:freeze={0..x}", p, error));
  EXPECT_FALSE(expand_sweep("heuristic:a={1,2},b={1,2},c={1,2}", p, error));
  // A parameter given twice, swept or not, and a value given twice: refused,
  // as a spec refuses a parameter given twice (the last would win unseen).
  EXPECT_FALSE(expand_sweep("heuristic:freeze={0,4},freeze={1,3}", p, error));
  EXPECT_NE(error.find("'freeze' is given twice"), std::string::npos) << error;
  EXPECT_FALSE(expand_sweep("heuristic:freeze=3,freeze={1,3}", p, error));
  EXPECT_FALSE(expand_sweep("heuristic:freeze={4,4,4}", p, error));
  EXPECT_NE(error.find("'4' is given twice"), std::string::npos) << error;
}

}  // namespace
}  // namespace canasta::test

namespace canasta::test {
namespace {

TEST(Sprt, StopsEarlyTheSameWayOnAnyThreadCount) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.deals = 50000;
  c.sprt = SprtConfig{0, 20, 0.05, 0.05};
  std::vector<DealRow> one, two;
  std::string error;
  c.threads = 1;
  ASSERT_TRUE(run_deals(c, one, error));
  c.threads = 2;
  ASSERT_TRUE(run_deals(c, two, error));
  EXPECT_EQ(one.size(), two.size());
  EXPECT_LT(one.size(), 2U * 50000);  // decided long before the end
  const SprtCounts counts = sprt_counts(tally(one, kDuplicate), kDuplicate);
  const SprtResult r = sprt(counts, {0, 20, 0.05, 0.05});
  EXPECT_EQ(r.decision, 1);
  EXPECT_GE(r.llr, r.upper);
  // Measured near +420 Elo: "600 better" loses against "500 better".
  EXPECT_EQ(sprt(counts, {500, 600, 0.05, 0.05}).decision, -1);
}

}  // namespace
}  // namespace canasta::test

namespace canasta::test {
namespace {

TEST(Tournament, RanksTheHeuristicAboveRandom) {
  TournamentConfig c;
  c.agents = {agent_spec("random"), agent_spec("heuristic"), agent_spec("heuristic:keep_wilds=0")};
  c.deals = 300;
  TournamentResult r;
  std::string error;
  ASSERT_TRUE(run_tournament(c, r, error)) << error;
  ASSERT_EQ(r.pairs.size(), 3U);
  EXPECT_GT(r.ratings[1].lo, 0);
  EXPECT_GT(r.ratings[2].lo, 0);
  c.agents = {agent_spec("random")};
  EXPECT_FALSE(run_tournament(c, r, error));
}

// A tournament stopped in a match (by its progress, after about 700 deals)
// keeps that match's finished pairs; run again with its state, it ends as the
// tournament that was never stopped. With two agents its rating interval is
// sim's Elo interval over the same pairs, to within a few percent.
TEST(Tournament, StoppedAndResumedEndsAsTheWholeOne) {
  TournamentConfig c;
  c.agents = {agent_spec("random"), agent_spec("basic"), agent_spec("heuristic")};
  c.deals = 400;
  c.threads = 2;
  TournamentResult whole, part;
  std::string error;
  ASSERT_TRUE(run_tournament(c, whole, error)) << error;
  std::atomic<bool> stop{false};
  TournamentHooks hooks;
  hooks.stop = &stop;
  hooks.progress = [&stop](int64_t done) {
    if (done >= 700) stop = true;
  };
  ASSERT_TRUE(run_tournament(c, part, error, hooks)) << error;
  ASSERT_TRUE(part.stopped);
  ASSERT_EQ(part.matches.size(), 3U);
  const int64_t kept = ranges_size(part.matches[0].done) + ranges_size(part.matches[1].done);
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept + ranges_size(part.matches[2].done), 3 * c.deals);
  EXPECT_EQ(ranges_size(part.matches[2].done), 0);
  for (const MatchPlayed& m : part.matches) EXPECT_EQ(m.points.played(), ranges_size(m.done));
  // A state whose pairs one by one are not those its match played: refused.
  TournamentResult changed = part;
  const int64_t unplayed = ranges_size(part.matches[0].done) < c.deals ? c.deals - 1 : 0;
  changed.matches[0].points = PairPoints(c.deals);
  changed.matches[0].points.set(unplayed, 2);
  EXPECT_FALSE(run_tournament(c, changed, error));
  EXPECT_EQ(error, "the stopped tournament's match 1's pairs one by one are not those it played");
  ASSERT_TRUE(run_tournament(c, part, error)) << error;
  EXPECT_FALSE(part.stopped);
  ASSERT_EQ(part.pairs.size(), whole.pairs.size());
  for (size_t p = 0; p < whole.pairs.size(); ++p)
    EXPECT_EQ(summary_to_json({}, part.pairs[p].summary), summary_to_json({}, whole.pairs[p].summary));
  for (size_t i = 0; i < whole.ratings.size(); ++i) {
    EXPECT_EQ(part.ratings[i].elo, whole.ratings[i].elo);
    EXPECT_EQ(part.ratings[i].lo, whole.ratings[i].lo);
    EXPECT_EQ(part.ratings[i].hi, whole.ratings[i].hi);
  }

  c.agents = {agent_spec("basic"), agent_spec("heuristic")};
  TournamentResult two;
  ASSERT_TRUE(run_tournament(c, two, error)) << error;
  ExperimentConfig e;
  e.side0 = c.agents[1];
  e.side1 = c.agents[0];
  e.deals = c.deals;
  e.duplicate = true;
  std::vector<DealRow> rows;
  ASSERT_TRUE(run_deals(e, rows, error)) << error;
  const Summary s = summary_of(rows, kDuplicate);
  const double sim_width = s.score.elo.hi - s.score.elo.lo;
  const double width = two.ratings[1].hi - two.ratings[1].lo;
  EXPECT_NEAR(two.ratings[1].elo, s.score.elo.mean, 1e-6);
  EXPECT_NEAR(width / sim_width, 1.0, 0.05) << width << " against " << sim_width;
}

}  // namespace
}  // namespace canasta::test

namespace canasta::test {
namespace {

TEST(Experiment, NamedSeatsOverrideTheirSide) {
  ExperimentConfig side;
  side.side0 = agent_spec("heuristic");
  side.side1 = agent_spec("random");
  side.duplicate = true;
  side.deals = 300;
  ExperimentConfig seats = side;
  seats.side0 = agent_spec("random");
  seats.seats = {{0, agent_spec("heuristic")}, {2, agent_spec("heuristic")}};
  std::vector<DealRow> a, b;
  std::string error;
  ASSERT_TRUE(run_deals(side, a, error)) << error;
  ASSERT_TRUE(run_deals(seats, b, error)) << error;
  EXPECT_EQ(rows_to_csv(a), rows_to_csv(b));  // naming both seats of a side is the side's spec
  // One heuristic partner with a random one: between the two.
  ExperimentConfig one = seats;
  one.seats = {{0, agent_spec("heuristic")}};
  std::vector<DealRow> c;
  ASSERT_TRUE(run_deals(one, c, error)) << error;
  const double full = summary_of(a, kDuplicate).margin.mean, half = summary_of(c, kDuplicate).margin.mean;
  EXPECT_GT(half, 0);
  EXPECT_LT(half, full);
  one.seats = {{5, agent_spec("heuristic")}};
  EXPECT_FALSE(run_deals(one, c, error));
}

}  // namespace
}  // namespace canasta::test

namespace canasta::test {
namespace {

TEST(Games, WholeGamesSameOnAnyThreadCount) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.games = 60;
  std::vector<GameRow> one, two;
  std::string error;
  c.threads = 1;
  ASSERT_TRUE(run_games(c, one, error)) << error;
  c.threads = 2;
  ASSERT_TRUE(run_games(c, two, error)) << error;
  EXPECT_EQ(game_rows_to_csv(one), game_rows_to_csv(two));
  ASSERT_EQ(one.size(), 120U);
  for (const GameRow& r : one) {
    EXPECT_NE(r.end, static_cast<int8_t>(GameEnd::kPlaying));
    if (r.end == static_cast<int8_t>(GameEnd::kWon)) {
      EXPECT_GE(r.total[r.winner], 5000);
      EXPECT_GT(r.total[r.winner], r.total[1 - r.winner]);
    }
  }
  const GameSummary s = game_summary_of(one, kDuplicate);
  EXPECT_GT(s.score.share.lo, 0.5);  // the heuristic wins whole games against random play
  c.shard = 3;
  EXPECT_FALSE(run_games(c, one, error));
}

TEST(Games, FourShardsMergeIntoTheSingleRunExactly) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("heuristic:keep_wilds=0");
  c.duplicate = true;
  c.games = 37;
  std::vector<GameRow> single, merged;
  std::string error;
  ASSERT_TRUE(run_games(c, single, error)) << error;
  c.shards = 4;
  for (int i = 0; i < 4; ++i) {
    c.shard = i;
    std::vector<GameRow> part;
    ASSERT_TRUE(run_games(c, part, error)) << error;
    // Through the files, as `canasta merge` reads them.
    ASSERT_TRUE(game_rows_from_csv(game_rows_to_csv(part), part, error)) << error;
    merged.insert(merged.end(), part.begin(), part.end());
  }
  std::sort(merged.begin(), merged.end(), [](const GameRow& a, const GameRow& b) {
    return a.game != b.game ? a.game < b.game : a.swapped < b.swapped;
  });
  EXPECT_EQ(game_rows_to_csv(merged), game_rows_to_csv(single));
  c.shard = 0;
  c.shards = 1;
  EXPECT_EQ(game_summary_to_json(c, game_summary_of(merged, kDuplicate)),
            game_summary_to_json(c, game_summary_of(single, kDuplicate)));
  EXPECT_EQ(merged.size(), 74U);
}

TEST(Games, RecordsReplayAsGames) {
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.games = 6;
  c.threads = 2;
  std::vector<GameRow> rows;
  std::string error, text;
  RunHooks hooks;
  hooks.records = [&](const std::string& lines) { text += lines; };
  ASSERT_TRUE(run_games(c, rows, error, hooks));
  RecordChecker checker;
  const auto recs = checked_records(text, checker);
  ASSERT_FALSE(recs.empty());
  const int64_t deals = static_cast<int64_t>(recs.size());
  const GameEnd last = recs.back().game_end;
  EXPECT_EQ(checker.games, 12);
  int64_t want = 0;
  for (const GameRow& r : rows) want += r.counts.deals;
  EXPECT_EQ(deals, want);
  EXPECT_NE(last, GameEnd::kPlaying);
}

}  // namespace
}  // namespace canasta::test

namespace canasta::test {
namespace {

// --- Tables of three sides (spanish-3p, spanish-6p3) -------------------------

// The twins of a table of three sides put each agent on every side: three
// rotations (A, B, B) or all six orders (A, B, C), each side's agents kept
// together, A's side as a_side_of says.
TEST(ThreeSides, TwinsRotateTheAgentsRoundTheSides) {
  for (const char* profile : {"spanish-3p", "spanish-6p3"}) {
    ExperimentConfig c;
    c.rules = rules_of(profile);
    c.duplicate = true;
    c.side0 = agent_spec("heuristic");
    c.side1 = agent_spec("random");
    EXPECT_EQ(twin_count(c), 3);
    c.side2 = agent_spec("basic");
    EXPECT_EQ(twin_count(c), 6);
    std::vector<std::array<int, 3>> seen;
    for (int t = 0; t < 6; ++t) {
      std::array<int, 3> role{-1, -1, -1};  // table side -> the side whose agents play it
      for (int seat = 0; seat < c.rules.players; ++seat) {
        const int side = c.rules.team_of(seat), from = c.rules.team_of(player_of(c.rules, seat, t));
        if (role[side] < 0) role[side] = from;
        EXPECT_EQ(role[side], from) << profile << " twin " << t << ": a side's seats split";
      }
      std::array<int, 3> sorted = role;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(sorted, (std::array<int, 3>{0, 1, 2}));
      EXPECT_EQ(role[a_side_of(t, 3)], 0) << profile << " twin " << t;
      EXPECT_EQ(std::count(seen.begin(), seen.end(), role), 0) << "twin " << t << " repeats an order";
      seen.push_back(role);
    }
  }
}

TEST(ThreeSides, RowsAreTheSameOnAnyThreadCountAndMergeExactly) {
  ExperimentConfig c;
  c.rules = rules_of("spanish-3p");
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.side2 = agent_spec("basic");
  c.duplicate = true;
  c.deals = 60;
  c.threads = 1;
  const auto one = run(c);
  ASSERT_EQ(one.size(), 6u * 60);
  c.threads = 2;
  const auto two = run(c);
  EXPECT_EQ(rows_to_csv(one, 3), rows_to_csv(two, 3));
  const std::string csv = rows_to_csv(one, 3);
  EXPECT_EQ(csv.substr(0, csv.find('\n')).find("score2") != std::string::npos, true);
  // Two shards, through their CSV files, give the single run's rows and summary.
  std::vector<DealRow> merged;
  for (int shard = 0; shard < 2; ++shard) {
    ExperimentConfig part = c;
    part.shard = shard;
    part.shards = 2;
    std::vector<DealRow> rows;
    std::string error;
    ASSERT_TRUE(rows_from_csv(rows_to_csv(run(part), 3), rows, error, 3)) << error;
    merged.insert(merged.end(), rows.begin(), rows.end());
  }
  std::stable_sort(merged.begin(), merged.end(), [](const DealRow& a, const DealRow& b) {
    return a.deal != b.deal ? a.deal < b.deal : a.swapped < b.swapped;
  });
  EXPECT_EQ(rows_to_csv(merged, 3), csv);
  EXPECT_EQ(summary_to_json(c, summary_of(merged, c)), summary_to_json(c, summary_of(one, c)));
  // Every agent plays every side equally often: A's margin is its mean score
  // less the mean of B's and C's.
  const Summary s = summary_of(one, c);
  EXPECT_NEAR(s.margin.mean, s.agent_score[0] - (s.agent_score[1] + s.agent_score[2]) / 2, 1e-9);
  EXPECT_NEAR(s.agent_first[0] + s.agent_first[1] + s.agent_first[2], 1.0, 1e-9);
  // A reads a three-side file only as one.
  std::vector<DealRow> rows;
  std::string error;
  EXPECT_FALSE(rows_from_csv(csv, rows, error, 2));
}

// A's margin is its score less the mean of the other two; its score in a
// deal its share of the two comparisons.
TEST(ThreeSides, MarginAndScoreAgainstTheOtherTwo) {
  DealRow r;
  r.deal = 0;
  r.swapped = 0;
  r.score[0] = 300;
  r.score[1] = 100;
  r.score[2] = 500;
  const std::vector<DealRow> rows{r};
  const Summary s = summary_of(rows, RunShape{.sides = 3});
  EXPECT_DOUBLE_EQ(s.margin.mean, 0.0);  // 300 - (100 + 500) / 2
  EXPECT_DOUBLE_EQ(s.score.share.mean, 0.5);
  EXPECT_TRUE(s.score.pairwise);
  DealRow t = r;
  t.swapped = 2;  // A on side 2 (twin 2)
  const std::vector<DealRow> rows2{t};
  EXPECT_DOUBLE_EQ(summary_of(rows2, RunShape{.sides = 3}).margin.mean, 300.0);  // 500 - (300 + 100) / 2
  EXPECT_DOUBLE_EQ(summary_of(rows2, RunShape{.sides = 3}).score.share.mean, 1.0);
}

// Random against random at a table of three sides: even, as it must be.
TEST(ThreeSides, RandomAgainstRandomIsEven) {
  ExperimentConfig c;
  c.rules = rules_of("spanish-6p3");
  c.duplicate = true;
  c.deals = 1500;
  const Summary s = summary_of(run(c), c);
  EXPECT_LT(s.margin.lo, 0.0);
  EXPECT_GT(s.margin.hi, 0.0);
  EXPECT_LT(s.score.share.lo, 0.5);
  EXPECT_GT(s.score.share.hi, 0.5);
}

TEST(ThreeSides, WhatNeedsTwoSidesIsRefused) {
  std::string error;
  ExperimentConfig c;
  c.side2 = agent_spec("basic");
  EXPECT_FALSE(check_config(c, error));  // classic has two sides
  EXPECT_NE(error.find("three sides"), std::string::npos) << error;
  ExperimentConfig t;
  t.rules = rules_of("spanish-3p");
  t.sprt = SprtConfig{};
  EXPECT_FALSE(check_config(t, error));
  TournamentConfig tc;
  tc.rules = t.rules;
  tc.agents = {agent_spec("random"), agent_spec("basic")};
  TournamentResult tr;
  EXPECT_FALSE(run_tournament(tc, tr, error));
  EXPECT_NE(error.find("two sides"), std::string::npos) << error;
}

// Whole games at a table of three sides: every twin, a total per side.
TEST(ThreeSides, Games) {
  ExperimentConfig c;
  c.rules = rules_of("spanish-3p");
  c.side0 = agent_spec("heuristic");
  c.side1 = agent_spec("random");
  c.duplicate = true;
  c.games = 4;
  c.deals = 0;
  std::vector<GameRow> rows;
  std::string error;
  ASSERT_TRUE(run_games(c, rows, error)) << error;
  ASSERT_EQ(rows.size(), 12u);
  // A won game's winner is the side with the highest total; some games
  // are won (else the check would check nothing).
  int won = 0;
  for (const GameRow& g : rows) {
    if (g.end != static_cast<int8_t>(GameEnd::kWon)) continue;
    ++won;
    EXPECT_EQ(g.winner, static_cast<int>(std::max_element(g.total, g.total + 3) - g.total));
  }
  EXPECT_GT(won, 0);
  std::vector<GameRow> back;
  ASSERT_TRUE(game_rows_from_csv(game_rows_to_csv(rows, 3), back, error, 3)) << error;
  EXPECT_EQ(game_rows_to_csv(back, 3), game_rows_to_csv(rows, 3));
}

}  // namespace
}  // namespace canasta::test
