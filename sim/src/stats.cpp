#include "canasta/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "canasta/game.h"

namespace canasta {

namespace {

constexpr double kZ = 1.959963984540054;  // two-sided 95%

// Squares and their sums need 128 bits (GCC and Clang have them).
__extension__ using Int128 = __int128;
__extension__ using Uint128 = unsigned __int128;

// A's share of one deal from its margin: 1 won, 0.5 tied, 0 lost.
double share_of_margin(double m) { return m > 0 ? 1.0 : m < 0 ? 0.0 : 0.5; }

}  // namespace

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

// Normalized Elo of a mean score with the given standard deviation; not a
// number when every deal (or pair) scored alike, where it has no value.
double nelo_of(double share, double sd) {
  return sd > 0 ? (share - 0.5) / sd * kNeloScale : std::numeric_limits<double>::quiet_NaN();
}

// The likelihood of superiority of a mean score with the given standard error.
double los_of(double share, double se) {
  if (se > 0) return normal_cdf((share - 0.5) / se);
  return share > 0.5 ? 1.0 : share < 0.5 ? 0.0 : 0.5;
}

}  // namespace

void Moments::add(int64_t x) {
  const auto sq = static_cast<Uint128>(static_cast<Int128>(x) * x);
  ++n;
  sum += x;
  sq_lo += static_cast<int64_t>(static_cast<uint64_t>(sq) & 0xffffffffu);
  sq_hi += static_cast<int64_t>(sq >> 32) + (sq_lo >> 32);
  sq_lo &= 0xffffffff;
}

namespace {

// n times the sum of squared deviations of a moments' samples: n S2 - S1^2, exact.
Int128 scaled_ss(const Moments& m) {
  const Int128 sq = (static_cast<Int128>(m.sq_hi) << 32) + m.sq_lo;
  return m.n * sq - static_cast<Int128>(m.sum) * m.sum;
}

}  // namespace

double Moments::variance(double unit) const {
  if (n == 0) return 0;
  const double nn = static_cast<double>(n);
  return static_cast<double>(scaled_ss(*this)) / (nn * nn) / (unit * unit);
}

Interval Moments::interval(double unit) const {
  if (n == 0) return {};
  const double nn = static_cast<double>(n);
  const double mean = static_cast<double>(sum) / nn / unit;
  const double ss = static_cast<double>(scaled_ss(*this)) / nn / (unit * unit);
  const double half = n > 1 ? kZ * std::sqrt(ss / (nn - 1) / nn) : 0;
  return {mean, mean - half, mean + half};
}

void Tally::add(const Tally& o) {
  const auto mine = words();
  const auto theirs = o.words();
  for (size_t i = 0; i < mine.size(); ++i) mine[i] += theirs[i];
}

// A tally is int64 words and nothing else.
static_assert(std::is_standard_layout_v<Tally> && std::is_trivially_copyable_v<Tally>);
static_assert(sizeof(Tally) % sizeof(int64_t) == 0 && alignof(Tally) == alignof(int64_t));

namespace {

constexpr int64_t kMaxRows = int64_t{1} << 43;     // rows, groups and moments' samples
constexpr int64_t kMaxSum = int64_t{1} << 60;      // |sum| of a moments' samples
constexpr int64_t kMaxSquares = int64_t{1} << 48;  // each word of a moments' sum of squares (sq < 2^81)
constexpr int64_t kMaxCount = int64_t{1} << 61;    // other counts and sums (two add up within 64 bits)

bool within(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

bool moments_in_range(const Moments& m) {
  return within(m.n, 0, kMaxRows) && within(m.sum, -kMaxSum, kMaxSum) && within(m.sq_hi, 0, kMaxSquares) &&
         within(m.sq_lo, 0, kMaxSquares);
}

}  // namespace

// With n <= 2^43, |sum| <= 2^60 and sq < 2^81, scaled_ss's n sq and sum^2
// stay below 2^127 even after the rows of a resumed run are added (fewer
// than 2^43 more, each square below 2^38); a pentanomial's six counts,
// below 2^43 each, add up within 64 bits.
bool Tally::in_range() const {
  const std::array<int64_t, 11> rows_bound{rows,       a_won,    b_won,    drawn,    fractional, groups,
                                           group_rows, penta.ll, penta.ld, penta.wl, penta.dd};
  for (const int64_t v : rows_bound)
    if (!within(v, 0, kMaxRows)) return false;
  for (const int64_t v : {penta.wd, penta.ww, even_groups, uneven_margins})
    if (!within(v, 0, kMaxRows)) return false;
  for (const Moments* m : {&score, &margin, &group_score, &group_margin})
    if (!moments_in_range(*m)) return false;
  for (const DealCountField& f : deal_count_fields())
    if (!within(counts.*f.member, 0, kMaxCount)) return false;
  for (int s = 0; s < kMaxTeams; ++s)
    if (!within(agent_rows[s], 0, kMaxRows) || !within(agent_points[s], -kMaxCount, kMaxCount) ||
        !within(agent_first[s], 0, kMaxCount))
      return false;
  return true;
}

bool Tally::add_in_range(const Tally& o) {
  if (!in_range() || !o.in_range()) return false;
  Tally sum = *this;
  sum.add(o);  // words below 2^61 each: no overflow
  sum = sum.normalized();
  if (!sum.in_range()) return false;
  *this = sum;
  return true;
}

std::span<int64_t> Tally::words() {
  return {reinterpret_cast<int64_t*>(this), sizeof(Tally) / sizeof(int64_t)};
}

std::span<const int64_t> Tally::words() const {
  return {reinterpret_cast<const int64_t*>(this), sizeof(Tally) / sizeof(int64_t)};
}

namespace {

// Adds outcomes in (index, twin) order to a tally: every row, and in
// duplicate every complete group (twins 0, 1, ... of one index).
void add_outcomes(Tally& t, std::span<const Outcome> outcomes, RunShape shape) {
  const auto quarters = [](double score) { return static_cast<int64_t>(std::llround(score * 4)); };
  const auto halves = [](double margin) { return static_cast<int64_t>(std::llround(margin * 2)); };
  // Adds one row; returns its score in quarters and margin in halves.
  const auto add_row = [&t, &quarters, &halves](const Outcome& o) {
    const int64_t q = quarters(o.score), h = halves(o.margin);
    ++t.rows;
    (q > 2 ? t.a_won : q < 2 ? t.b_won : t.drawn) += 1;
    t.fractional += q % 2 != 0;
    t.score.add(q);
    t.margin.add(h);
    return std::pair{q, h};
  };
  for (size_t i = 0; i < outcomes.size();) {
    size_t j = i;
    int64_t score_sum = 0, margin_sum = 0;
    while (j < outcomes.size() && outcomes[j].index == outcomes[i].index &&
           outcomes[j].twin == static_cast<int>(j - i)) {
      const auto [q, h] = add_row(outcomes[j++]);
      score_sum += q;
      margin_sum += h;
    }
    if (j == i) {
      add_row(outcomes[j++]);  // a row out of order stands alone
    } else if (shape.duplicate && j - i >= 2) {
      const auto size = static_cast<int64_t>(j - i);
      ++t.groups;
      t.group_rows += size;
      if (size == 2) {
        Pentanomial& p = t.penta;
        const int64_t first = quarters(outcomes[i].score);
        (score_sum == 0   ? p.ll
         : score_sum == 2 ? p.ld
         : score_sum == 4 ? (first == 2 ? p.dd : p.wl)
         : score_sum == 6 ? p.wd
                          : p.ww) += 1;
      }
      t.even_groups += score_sum * 2 == 4 * size;
      t.uneven_margins += margin_sum != 0;
      t.group_score.add(score_sum);
      t.group_margin.add(margin_sum);
    }
    i = j;
  }
}

// The score statistics of a tally.
ScoreStats score_stats_of(const Tally& t, RunShape shape) {
  ScoreStats st;
  st.a_won = t.a_won;
  st.b_won = t.b_won;
  st.drawn = t.drawn;
  st.penta = t.penta;
  if (t.rows == 0) return st;
  const double n = static_cast<double>(t.rows);
  st.paired = shape.duplicate && t.groups > 0;
  if (st.paired) {
    const double pairs = static_cast<double>(t.groups);
    const double group = static_cast<double>(t.group_rows / t.groups);
    const double unit = 4 * group;  // a group's score: the sum of its quarters / (4 x its size)
    const double mean = static_cast<double>(t.group_score.sum) / pairs / unit;
    const double var = t.group_score.variance(unit);
    const double se = std::sqrt(var / pairs), sd = std::sqrt(group * var);
    st.share = {mean, mean - kZ * se, mean + kZ * se};
    st.nelo = {nelo_of(st.share.mean, sd), nelo_of(st.share.lo, sd), nelo_of(st.share.hi, sd)};
    st.los = los_of(st.share.mean, se);
    st.draw_ratio =
        static_cast<double>(t.group_rows == 2 * t.groups ? t.penta.wl + t.penta.dd : t.even_groups) / pairs;
    st.mirror = t.uneven_margins == 0;
  } else {
    const double sd = std::sqrt(t.score.variance(4));
    st.share = t.fractional > 0
                   ? t.score.interval(4)  // three sides: shares of pairwise comparisons
                   : wilson(static_cast<double>(t.a_won) + 0.5 * static_cast<double>(t.drawn), n);
    st.nelo = {nelo_of(st.share.mean, sd), nelo_of(st.share.lo, sd), nelo_of(st.share.hi, sd)};
    st.los = los_of(st.share.mean, sd / std::sqrt(n));
    st.draw_ratio = static_cast<double>(t.drawn) / n;
  }
  // A share lies in [0, 1]: so do its bounds (the normal approximation
  // overshoots on a few pairs, or near a clean sweep).
  st.share.lo = std::max(st.share.lo, 0.0);
  st.share.hi = std::min(st.share.hi, 1.0);
  st.elo = elo_interval(st.share);
  return st;
}

// A's margin: over complete duplicate groups (the mean of each group's margins) or per row.
Interval margin_of(const Tally& t, RunShape shape) {
  if (shape.duplicate && t.groups > 0)
    return t.group_margin.interval(2 * static_cast<double>(t.group_rows / t.groups));
  return t.margin.interval(2);
}

}  // namespace

ScoreStats score_stats(std::span<const Outcome> outcomes, RunShape shape) {
  Tally t;
  add_outcomes(t, outcomes, shape);
  return score_stats_of(t, shape);
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

}  // namespace

void add_tally(Tally& total, std::span<const DealRow> rows, RunShape shape, std::vector<Outcome>& outcomes) {
  const int sides = shape.sides;
  Tally t;
  outcomes.clear();
  for (const DealRow& r : rows) {
    const auto [m, share] = a_result(r.score, a_side_of(r.swapped, sides), sides);
    outcomes.push_back({r.deal, r.swapped, share, m});
    t.counts.add(r);
    if (sides > 2) {
      const int32_t best = *std::max_element(r.score, r.score + sides);
      const auto firsts = std::count(r.score, r.score + sides, best);
      for (int side = 0; side < sides; ++side) {
        const auto role = static_cast<size_t>(role_of(side, r.swapped, sides));
        ++t.agent_rows[role];
        t.agent_points[role] += r.score[side];
        t.agent_first[role] += r.score[side] == best ? 6 / firsts : 0;
      }
    }
  }
  add_outcomes(t, outcomes, shape);
  total.add(t);
}

void add_tally_games(Tally& total, std::span<const GameRow> rows, RunShape shape,
                     std::vector<Outcome>& outcomes) {
  const int sides = shape.sides;
  Tally t;
  outcomes.clear();
  for (const GameRow& r : rows) {
    const int a_side = a_side_of(r.swapped, sides);
    auto [m, score] = a_result(r.total, a_side, sides);
    // Two sides: a won game counts for its winner, any other as a draw.
    if (sides == 2)
      score = r.end != static_cast<int8_t>(GameEnd::kWon) ? 0.5 : r.winner == a_side ? 1.0 : 0.0;
    outcomes.push_back({r.game, r.swapped, score, m});
    t.counts.add(r.counts);
  }
  add_outcomes(t, outcomes, shape);
  total.add(t);
}

namespace {

// The tally of `rows` alone, by `add` (add_tally or add_tally_games).
template <class Row>
Tally tally_alone(std::span<const Row> rows, RunShape shape,
                  void (*add)(Tally&, std::span<const Row>, RunShape, std::vector<Outcome>&)) {
  Tally t;
  std::vector<Outcome> outcomes;
  outcomes.reserve(rows.size());
  add(t, rows, shape, outcomes);
  return t;
}

}  // namespace

Tally tally(std::span<const DealRow> rows, RunShape shape) { return tally_alone(rows, shape, add_tally); }

Tally tally_games(std::span<const GameRow> rows, RunShape shape) {
  return tally_alone(rows, shape, add_tally_games);
}

Summary summarize(const Tally& t, RunShape shape) {
  const int sides = shape.sides;
  Summary s;
  s.rows = t.rows;
  if (t.rows == 0) return s;
  s.sides = sides;
  for (size_t role = 0; role < static_cast<size_t>(sides > 2 ? sides : 0); ++role)
    if (t.agent_rows[role] > 0) {
      const double n = static_cast<double>(t.agent_rows[role]);
      s.agent_score[role] = static_cast<double>(t.agent_points[role]) / n;
      s.agent_first[role] = static_cast<double>(t.agent_first[role]) / 6 / n;
    }
  s.score = score_stats_of(t, shape);
  s.score.pairwise = sides > 2;
  const Interval unpaired = t.margin.interval(2);
  s.unpaired_width = unpaired.hi - unpaired.lo;
  s.margin = margin_of(t, shape);
  s.per_deal = PerDeal::of(t.counts);
  return s;
}

GameSummary summarize_games(const Tally& t, RunShape shape) {
  GameSummary s;
  s.rows = t.rows;
  if (t.rows == 0) return s;
  s.score = score_stats_of(t, shape);
  s.score.pairwise = shape.sides > 2;
  s.margin = margin_of(t, shape);
  s.deals = static_cast<double>(t.counts.deals) / static_cast<double>(t.rows);
  s.per_deal = PerDeal::of(t.counts);
  return s;
}

namespace {

// "complete" when the run played every row its configuration asks for;
// "decided" when its sequential test decided at the end of a batch (where
// the runner looks at it), "partial" when it stopped before its end.
std::string_view status_of(const ExperimentConfig& c, int64_t rows, const std::optional<SprtResult>& t) {
  const int64_t expected = shard_size(c.games > 0 ? c.games : c.deals, c) * twin_count(c);
  if (rows == expected) return "complete";
  return t && t->decision != 0 && rows % (kSprtBatch * twin_count(c)) == 0 ? "decided" : "partial";
}

}  // namespace

Summary summarize(const Tally& t, const ExperimentConfig& c) {
  Summary s = summarize(t, RunShape::of(c));
  if (c.sprt) s.sprt = sprt(sprt_counts(t, RunShape::of(c)), *c.sprt);
  s.status = status_of(c, s.rows, s.sprt);
  return s;
}

GameSummary summarize_games(const Tally& t, const ExperimentConfig& c) {
  GameSummary s = summarize_games(t, RunShape::of(c));
  s.status = status_of(c, s.rows, std::nullopt);
  return s;
}

SprtCounts sprt_counts(const Tally& t, RunShape shape) {
  // A pair's share by its pentanomial class, or a deal's by its result.
  const Pentanomial& p = t.penta;
  return shape.duplicate ? SprtCounts{p.ll, p.ld, p.wl + p.dd, p.wd, p.ww}
                         : SprtCounts{t.b_won, 0, t.drawn, 0, t.a_won};
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

}  // namespace canasta
