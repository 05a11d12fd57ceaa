#include "canasta/stats.h"

#include <algorithm>
#include <cmath>

#include "canasta/game.h"

namespace canasta {

namespace {

constexpr double kZ = 1.959963984540054;  // two-sided 95%

// A's share of one deal from its margin: 1 won, 0.5 tied, 0 lost.
double share_of_margin(double m) { return m > 0 ? 1.0 : m < 0 ? 0.0 : 0.5; }

}  // namespace

Interval mean_interval(std::span<const double> x) {
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

double elo_of(double p) {
  p = std::clamp(p, 1e-9, 1 - 1e-9);
  return -400.0 * std::log10(1.0 / p - 1.0) + 0.0;  // + 0.0: never -0
}

Interval elo_interval(const Interval& share) {
  return {elo_of(share.mean), elo_of(share.lo), elo_of(share.hi)};
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

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

namespace {

constexpr double kNeloScale = 800.0 / 2.302585092994046;  // 800 / ln 10

// Normalized Elo of a mean score with the given standard deviation.
double nelo_of(double share, double sd) { return sd > 0 ? (share - 0.5) / sd * kNeloScale : 0; }

// The likelihood of superiority of a mean score with the given standard error.
double los_of(double share, double se) {
  if (se > 0) return normal_cdf((share - 0.5) / se);
  return share > 0.5 ? 1.0 : share < 0.5 ? 0.0 : 0.5;
}

}  // namespace

ScoreStats score_stats(std::span<const Outcome> outcomes, bool duplicate) {
  ScoreStats st;
  std::vector<double> pair_scores;
  bool every_pair_cancels = true;
  int group = 0;            // twins per duplicate group (2, or 3 or 6 at a table of three sides)
  int64_t even_groups = 0;  // groups scoring exactly 1/2 (three sides)
  bool binary = true;       // every score is 0, 1/2 or 1
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const Outcome& o = outcomes[i];
    (o.score > 0.5 ? st.a_won : o.score < 0.5 ? st.b_won : st.drawn) += 1;
    binary &= o.score == 0 || o.score == 0.5 || o.score == 1;
    if (!duplicate || o.twin == 0 || i == 0 || outcomes[i - 1].index != o.index) continue;
    // The last twin of a complete group: twins 0 .. o.twin of one index.
    const size_t first = i - static_cast<size_t>(o.twin);
    if (i < static_cast<size_t>(o.twin) || outcomes[first].index != o.index || outcomes[first].twin != 0)
      continue;
    if (i + 1 < outcomes.size() && outcomes[i + 1].index == o.index && outcomes[i + 1].twin == o.twin + 1)
      continue;  // more twins follow
    group = o.twin + 1;
    double sum = 0, margins = 0;
    for (size_t j = first; j <= i; ++j) sum += outcomes[j].score, margins += outcomes[j].margin;
    if (group == 2) {
      const double a = outcomes[first].score;
      Pentanomial& p = st.penta;
      (sum == 0     ? p.ll
       : sum == 0.5 ? p.ld
       : sum == 1   ? (a == 0.5 ? p.dd : p.wl)
       : sum == 1.5 ? p.wd
                    : p.ww) += 1;
    }
    even_groups += sum * 2 == group ? 1 : 0;
    pair_scores.push_back(sum / group);
    every_pair_cancels &= margins == 0;
  }
  const double n = static_cast<double>(outcomes.size());
  if (outcomes.empty()) return st;
  st.paired = duplicate && !pair_scores.empty();
  if (st.paired) {
    const double pairs = static_cast<double>(pair_scores.size());
    const Interval mean = mean_interval(pair_scores);
    double var = 0;
    for (double x : pair_scores) var += (x - mean.mean) * (x - mean.mean);
    var /= pairs;
    const double se = std::sqrt(var / pairs), sd = std::sqrt(group * var);
    st.share = {mean.mean, mean.mean - kZ * se, mean.mean + kZ * se};
    st.nelo = {nelo_of(st.share.mean, sd), nelo_of(st.share.lo, sd), nelo_of(st.share.hi, sd)};
    st.los = los_of(st.share.mean, se);
    st.draw_ratio = static_cast<double>(group == 2 ? st.penta.wl + st.penta.dd : even_groups) / pairs;
    st.mirror = every_pair_cancels;
  } else if (!binary) {
    // Three sides: A's score is its share of the pairwise comparisons (0, 1/4, ... 1).
    std::vector<double> scores;
    scores.reserve(outcomes.size());
    for (const Outcome& o : outcomes) scores.push_back(o.score);
    const Interval mean = mean_interval(scores);
    double var = 0;
    for (double x : scores) var += (x - mean.mean) * (x - mean.mean);
    var /= n;
    const double sd = std::sqrt(var);
    st.share = mean;
    st.nelo = {nelo_of(st.share.mean, sd), nelo_of(st.share.lo, sd), nelo_of(st.share.hi, sd)};
    st.los = los_of(st.share.mean, sd / std::sqrt(n));
    st.draw_ratio = static_cast<double>(st.drawn) / n;
  } else {
    double sum = 0;
    for (const Outcome& o : outcomes) sum += o.score;
    const double mean = sum / n;
    double var = 0;
    for (const Outcome& o : outcomes) var += (o.score - mean) * (o.score - mean);
    var /= n;
    const double sd = std::sqrt(var);
    st.share = wilson(static_cast<double>(st.a_won) + 0.5 * static_cast<double>(st.drawn), n);
    st.nelo = {nelo_of(st.share.mean, sd), nelo_of(st.share.lo, sd), nelo_of(st.share.hi, sd)};
    st.los = los_of(st.share.mean, sd / std::sqrt(n));
    st.draw_ratio = static_cast<double>(st.drawn) / n;
  }
  st.elo = elo_interval(st.share);
  return st;
}

namespace {

// A's margin and score from the table sides' scores: against the other side,
// or at a table of three sides against the mean of the others, and its share
// of the pairwise comparisons.
template <class T>
std::pair<double, double> a_result(const T* score, int a, int sides) {
  if (sides == 2) {
    const double m = static_cast<double>(score[a]) - static_cast<double>(score[1 - a]);
    return {m, share_of_margin(m)};
  }
  double others = 0, share = 0;
  for (int o = 0; o < sides; ++o) {
    if (o == a) continue;
    others += static_cast<double>(score[o]);
    share += share_of_margin(static_cast<double>(score[a]) - static_cast<double>(score[o]));
  }
  return {static_cast<double>(score[a]) - others / (sides - 1), share / (sides - 1)};
}

// The mean of each complete duplicate group's margins (rows of one index, twins 0 .. n-1).
template <class Row, class Index>
std::vector<double> grouped(std::span<const Row> rows, const std::vector<double>& margins,
                            const Index& index) {
  std::vector<double> out;
  for (size_t i = 0; i < rows.size();) {
    size_t j = i;
    double sum = 0;
    while (j < rows.size() && index(rows[j]) == index(rows[i]) && rows[j].swapped == static_cast<int>(j - i))
      sum += margins[j++];
    if (j - i >= 2) out.push_back(sum / static_cast<double>(j - i));
    i = std::max(j, i + 1);
  }
  return out;
}

}  // namespace

Summary summarize(std::span<const DealRow> rows, bool duplicate, int sides) {
  Summary s;
  s.rows = static_cast<int64_t>(rows.size());
  if (rows.empty()) return s;
  std::vector<double> margins, paired;
  std::vector<Outcome> outcomes;
  margins.reserve(rows.size());
  outcomes.reserve(rows.size());
  DealCounts counts;
  for (const DealRow& r : rows) {
    const auto [m, share] = a_result(r.score, a_side_of(r.swapped, sides), sides);
    margins.push_back(m);
    outcomes.push_back({r.deal, r.swapped, share, m});
    counts.add(r);
  }
  if (duplicate) paired = grouped(rows, margins, [](const DealRow& r) { return r.deal; });
  s.sides = sides;
  if (sides > 2) {
    std::array<double, kMaxTeams> n{};
    for (const DealRow& r : rows) {
      const int32_t best = *std::max_element(r.score, r.score + sides);
      const auto firsts = std::count(r.score, r.score + sides, best);
      for (int side = 0; side < sides; ++side) {
        const int role = role_of(side, r.swapped, sides);
        n[role] += 1;
        s.agent_score[role] += r.score[side];
        s.agent_first[role] += r.score[side] == best ? 1.0 / static_cast<double>(firsts) : 0.0;
      }
    }
    for (int role = 0; role < sides; ++role)
      if (n[role] > 0) s.agent_score[role] /= n[role], s.agent_first[role] /= n[role];
  }
  s.score = score_stats(outcomes, duplicate);
  s.score.pairwise = sides > 2;
  const Interval unpaired = mean_interval(margins);
  s.unpaired_width = unpaired.hi - unpaired.lo;
  s.margin = duplicate && !paired.empty() ? mean_interval(paired) : unpaired;
  s.per_deal = PerDeal::of(counts);
  return s;
}

GameSummary summarize_games(std::span<const GameRow> rows, bool duplicate, int sides) {
  GameSummary s;
  s.rows = static_cast<int64_t>(rows.size());
  if (rows.empty()) return s;
  std::vector<double> margins, paired;
  std::vector<Outcome> outcomes;
  DealCounts counts;
  for (const GameRow& r : rows) {
    const int a_side = a_side_of(r.swapped, sides);
    const bool won = r.end == static_cast<int8_t>(GameEnd::kWon);
    auto [m, score] = a_result(r.total, a_side, sides);
    // Two sides: a won game counts for its winner, any other as a draw.
    if (sides == 2) score = !won ? 0.5 : r.winner == a_side ? 1.0 : 0.0;
    margins.push_back(m);
    outcomes.push_back({r.game, r.swapped, score, m});
    counts.add(r.counts);
  }
  if (duplicate) paired = grouped(rows, margins, [](const GameRow& r) { return r.game; });
  s.score = score_stats(outcomes, duplicate);
  s.score.pairwise = sides > 2;
  s.margin = duplicate && !paired.empty() ? mean_interval(paired) : mean_interval(margins);
  s.deals = static_cast<double>(counts.deals) / static_cast<double>(rows.size());
  s.per_deal = PerDeal::of(counts);
  return s;
}

namespace {

// "complete" when the run played every row its configuration asks for.
std::string_view status_of(const ExperimentConfig& c, int64_t rows, const std::optional<SprtResult>& t) {
  const int64_t expected = shard_size(c.games > 0 ? c.games : c.deals, c) * twin_count(c);
  if (rows == expected) return "complete";
  return t && t->decision != 0 ? "decided" : "partial";
}

}  // namespace

Summary summarize(std::span<const DealRow> rows, const ExperimentConfig& c) {
  Summary s = summarize(rows, c.duplicate, c.rules.teams);
  if (c.sprt) s.sprt = sprt(rows, c.duplicate, *c.sprt);
  s.status = status_of(c, s.rows, s.sprt);
  return s;
}

GameSummary summarize_games(std::span<const GameRow> rows, const ExperimentConfig& c) {
  GameSummary s = summarize_games(rows, c.duplicate, c.rules.teams);
  s.status = status_of(c, s.rows, std::nullopt);
  return s;
}

SprtCounts sprt_counts(std::span<const DealRow> rows, bool duplicate) {
  SprtCounts c{};
  for (size_t i = 0; i < rows.size(); ++i) {
    const DealRow& d = rows[i];
    const double share = share_of_margin(d.score[d.swapped] - d.score[1 - d.swapped]);
    if (!duplicate) {
      ++c[static_cast<size_t>(share * 4)];  // 0, 2 or 4 quarters
    } else if (d.swapped == 1 && i > 0 && rows[i - 1].deal == d.deal) {
      const DealRow& e = rows[i - 1];
      ++c[static_cast<size_t>((share + share_of_margin(e.score[0] - e.score[1])) * 2)];  // 0 .. 4 quarters
    }
  }
  return c;
}

SprtResult sprt(const SprtCounts& counts, const SprtConfig& test) {
  SprtResult r;
  r.lower = std::log(test.beta / (1 - test.alpha));
  r.upper = std::log((1 - test.beta) / test.alpha);
  int64_t samples = 0;
  for (int64_t k : counts) samples += k;
  if (samples < 2) return r;
  // Sums over the categories (x = 0, 1/4, ... 1): exact and in a fixed order,
  // so that any split of the rows gives the same bits.
  const double n = static_cast<double>(samples);
  double sum = 0;
  for (size_t q = 0; q < counts.size(); ++q)
    sum += static_cast<double>(counts[q]) * (static_cast<double>(q) / 4);
  const double mean = sum / n;
  double var = 0;
  for (size_t q = 0; q < counts.size(); ++q) {
    const double d = static_cast<double>(q) / 4 - mean;
    var += static_cast<double>(counts[q]) * d * d;
  }
  var /= n;
  if (var <= 0) return r;
  auto share_of_elo = [](double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); };
  const double s0 = share_of_elo(test.elo0), s1 = share_of_elo(test.elo1);
  r.llr = (s1 - s0) / var * (sum - n * (s0 + s1) / 2);
  r.decision = r.llr >= r.upper ? 1 : r.llr <= r.lower ? -1 : 0;
  return r;
}

SprtResult sprt(std::span<const DealRow> rows, bool duplicate, const SprtConfig& test) {
  return sprt(sprt_counts(rows, duplicate), test);
}

}  // namespace canasta
