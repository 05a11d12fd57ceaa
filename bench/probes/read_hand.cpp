// How much of the next player's hand the public history reveals, as far as
// the discard needs it: at every discard of the agent, for every natural it
// holds whose take chance the card count leaves open (TakeOdds strictly
// between 0 and 1), the probe records whether the next player could in fact
// take the pile after a discard of it (tried on a copy of the full state)
// and what a player could know then. It fits logistic models of that truth
// on the deals of one seed and scores them on the deals of another:
//   - the card count as it is (TakeOdds),
//   - the card count recalibrated (its log-odds and a constant),
//   - with what the seat's view shows besides: the next player's hand size,
//     the pile's state and size, whether the next side has opened, whether
//     the next player discarded the kind, the unseen wild cards and copies,
//     the cards known in its hand, the turn, the copies the seat holds,
//   - and with the history a player can keep besides: the piles the next
//     player passed on with the kind on top (in the deal, and since it last
//     took one), the turns since it last took the pile and since it last
//     melded, its melds in its last turn, the wild cards it melded, its
//     discards since its last take.
// Each is scored by its log-loss and by its concordance within a discard:
// over the pairs of candidates of one decision of which one could be taken
// and the other not, the share it ranks the right way (0.5: no better than
// a coin; 1: the discard oracle's knowledge, probe_discard_oracle).
//
//   probe_read_hand --agent 'heuristic:out_danger=0,out_lead=0,reserve=8,safety=500' --deals 20000
#include <CLI/CLI.hpp>
#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/heuristic.h"
#include "canasta/runner.h"
#include "probe.h"

using namespace canasta;

namespace {

// The inputs recorded for one candidate discard: the card count, what the
// seat's view shows (kHand to kOwnKind) and what only a record of the deal
// keeps (kPassed on).
enum Feature {
  kP,  // TakeOdds
  kHand,
  kFrozen,
  kOpened,
  kDiscardedKind,
  kUnseenWilds,
  kKnownCards,
  kKnownKind,
  kUnseenKind,
  kTurn,
  kPile,
  kOwnKind,
  kPassed,
  kPassedSinceTake,
  kSinceTake,
  kSinceMeld,
  kMeldsLast,
  kWildsMelded,
  kDiscardsSinceTake,
  kFeatureNb
};

struct Row {
  long decision;
  bool takeable;
  std::array<double, kFeatureNb> x;
};

// The history of each seat of the other side, kept as their actions come.
struct History {
  std::array<std::array<int, kKindNb>, kMaxSeats> passed{}, passed_since_take{};
  std::array<int, kMaxSeats> turns{}, last_take{}, last_meld{}, melds_this{}, melds_last{}, wilds_melded{},
      discards_since_take{};
};

// The agent, recording a row per open candidate at each of its discards.
class Recorder final : public Agent {
 public:
  Recorder(Agent& agent, const State& s, const History& h, std::vector<Row>& rows, long& decision)
      : agent_(agent), s_(s), h_(h), rows_(rows), decision_(decision) {}
  Action act(const View& v, Rng& rng) override {
    const Action act = agent_.act(v, rng);
    const int seat = v.seat();
    if (act.type() != ActionType::kDiscard || s_.hand[seat].total() <= 1) return act;
    const TakeOdds odds(v);
    const int next = (seat + 1) % v.rules().players;
    const TeamMelds& theirs = v.melds(v.rules().team_of(next));
    ++decision_;
    for (int k = kFirstNatural; k <= kLastNatural; ++k) {
      if (!s_.hand[seat].count(k)) continue;
      const double p = odds(k);
      if (p <= 0 || p >= 1) continue;
      Row r{decision_, probe::takeable(s_, Action::make(ActionType::kDiscard, k), scratch_), {}};
      auto& x = r.x;
      x[kP] = p;
      x[kHand] = v.hand_size(next);
      x[kFrozen] = v.pile_frozen();
      x[kOpened] = theirs.any();
      x[kDiscardedKind] = (v.discarded(next) >> k) & 1;
      x[kUnseenWilds] = odds.unseen().wilds();
      x[kKnownCards] = v.known(next).total();
      x[kKnownKind] = v.known(next).count(k);
      x[kUnseenKind] = odds.unseen().count(k);
      x[kTurn] = v.turns();
      x[kPile] = v.pile_size();
      x[kOwnKind] = v.hand().count(k);
      x[kPassed] = h_.passed[next][k];
      x[kPassedSinceTake] = h_.passed_since_take[next][k];
      x[kSinceTake] = h_.turns[next] - h_.last_take[next];
      x[kSinceMeld] = h_.turns[next] - h_.last_meld[next];
      x[kMeldsLast] = h_.melds_last[next];
      x[kWildsMelded] = h_.wilds_melded[next];
      x[kDiscardsSinceTake] = h_.discards_since_take[next];
      rows_.push_back(r);
    }
    return act;
  }

 private:
  Agent& agent_;
  const State& s_;
  const History& h_;
  std::vector<Row>& rows_;
  long& decision_;
  ActionList scratch_;
};

// The other side's agent, its actions written into the history.
class Historian final : public Agent {
 public:
  Historian(Agent& agent, History& h) : agent_(agent), h_(h) {}
  Action act(const View& v, Rng& rng) override {
    const Action a = agent_.act(v, rng);
    const int s = v.seat();
    const ActionType t = a.type();
    if (v.phase() == Phase::kDraw) {
      ++h_.turns[s];
      h_.melds_last[s] = h_.melds_this[s];
      h_.melds_this[s] = 0;
      if (t == ActionType::kTakePile) {
        h_.last_take[s] = h_.turns[s];
        h_.passed_since_take[s].fill(0);
        h_.discards_since_take[s] = 0;
      } else if (v.top() >= 0 && is_natural(v.top())) {
        ++h_.passed[s][v.top()];
        ++h_.passed_since_take[s][v.top()];
      }
    } else if (t == ActionType::kDiscard) {
      ++h_.discards_since_take[s];
    } else if (t != ActionType::kAsk && t != ActionType::kYes && t != ActionType::kNo) {
      h_.wilds_melded[s] += a.jokers() + a.twos();
      ++h_.melds_this[s];
      h_.last_meld[s] = h_.turns[s];
    }
    return a;
  }

 private:
  Agent& agent_;
  History& h_;
};

// The rows of `deals` deals of the run with `seed` (probe.h says which).
std::vector<Row> collect(const AgentSpec& agent, const AgentSpec& vs, int deals, uint64_t seed) {
  const Rules rules = classic_rules();
  const auto a = make_agent(agent), b = make_agent(vs);
  std::vector<Row> rows;
  long decision = 0;
  for (int k = 0; k < deals; ++k) {
    auto [s, play, side] = probe::deal(rules, seed, k);
    History h;
    Recorder recorder(*a, s, h, rows, decision);
    Historian historian(*b, h);
    play_deal(
        s,
        [&, side = side](int seat) -> Agent& {
          return rules.team_of(seat) == side ? static_cast<Agent&>(recorder) : historian;
        },
        play);
  }
  return rows;
}

// The models compared: the card count as it is, and logistic models on
// growing sets of inputs.
enum Model { kCount, kRecalibrated, kView, kHistory, kModelNb };
constexpr const char* kModelNames[kModelNb] = {"the card count (TakeOdds)", "the card count, recalibrated",
                                               "... and what the view shows", "... and a record of the deal"};

double logit(double p) {
  p = std::clamp(p, 1e-4, 1 - 1e-4);
  return std::log(p / (1 - p));
}

// A model's inputs for one row: a constant, the card count's log-odds, and,
// from kView on, the view's features (the next hand's size one-hot to 8,
// counts scaled to about 1, two interactions with the log-odds), from
// kHistory on the history's.
Eigen::VectorXd inputs(const Row& r, Model m) {
  const auto& x = r.x;
  const double l = logit(x[kP]);
  std::vector<double> v{1, l};
  if (m >= kView) {
    const int hand = std::min(8, static_cast<int>(x[kHand]));
    for (int h = 1; h <= 7; ++h) v.push_back(hand == h);
    v.insert(v.end(), {x[kFrozen], x[kOpened], x[kDiscardedKind], x[kUnseenWilds] / 10, x[kKnownCards] / 5,
                       x[kKnownKind], x[kUnseenKind] / 8, x[kTurn] / 60, x[kPile] / 20, x[kOwnKind],
                       x[kFrozen] * l, hand / 8.0 * l});
  }
  if (m >= kHistory) {
    const double since_meld = std::min(10.0, x[kSinceMeld]) / 10;
    v.insert(v.end(), {std::min(3.0, x[kPassed]), std::min(3.0, x[kPassedSinceTake]),
                       std::min(20.0, x[kSinceTake]) / 20, since_meld, std::min(4.0, x[kMeldsLast]),
                       std::min(6.0, x[kWildsMelded]) / 6, std::min(10.0, x[kDiscardsSinceTake]) / 10,
                       x[kSinceMeld] == 0 ? 1.0 : 0.0, since_meld * l});
  }
  return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
}

// Logistic regression by Newton's method, a small ridge keeping it defined.
Eigen::VectorXd fit(const std::vector<Row>& rows, Model m) {
  const Eigen::Index n = inputs(rows.front(), m).size();
  Eigen::VectorXd w = Eigen::VectorXd::Zero(n);
  for (int iter = 0; iter < 30; ++iter) {
    Eigen::VectorXd grad = 1e-3 * w;
    Eigen::MatrixXd hess = 1e-3 * Eigen::MatrixXd::Identity(n, n);
    for (const Row& r : rows) {
      const Eigen::VectorXd x = inputs(r, m);
      const double q = 1 / (1 + std::exp(-w.dot(x)));
      grad += (q - static_cast<double>(r.takeable)) * x;
      hess.selfadjointView<Eigen::Lower>().rankUpdate(x, q * (1 - q));
    }
    const Eigen::VectorXd step = hess.selfadjointView<Eigen::Lower>().ldlt().solve(grad);
    w -= step;
    if (step.lpNorm<Eigen::Infinity>() < 1e-9) break;
  }
  return w;
}

struct Score {
  double log_loss = 0, concordance = 0;
};

// The model's log-loss over `rows` and its concordance within decisions.
Score score(const std::vector<Row>& rows, Model m, const Eigen::VectorXd& w) {
  std::vector<double> q(rows.size());
  Score s;
  for (size_t i = 0; i < rows.size(); ++i) {
    q[i] = m == kCount ? std::clamp(rows[i].x[kP], 1e-4, 1 - 1e-4)
                       : 1 / (1 + std::exp(-w.dot(inputs(rows[i], m))));
    s.log_loss -= rows[i].takeable ? std::log(q[i]) : std::log(1 - q[i]);
  }
  s.log_loss /= static_cast<double>(rows.size());
  double right = 0, pairs = 0;
  for (size_t a = 0, b = 0; a < rows.size(); a = b) {
    while (b < rows.size() && rows[b].decision == rows[a].decision) ++b;
    for (size_t i = a; i < b; ++i)
      for (size_t j = a; j < b; ++j)
        if (rows[i].takeable && !rows[j].takeable) {
          pairs += 1;
          right += q[i] > q[j] ? 1 : q[i] == q[j] ? 0.5 : 0;
        }
  }
  s.concordance = pairs > 0 ? right / pairs : 0.5;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"how well the public history predicts which discards the next player can take"};
  probe::Options o;
  o.deals = 20000;
  uint64_t test_seed = 2;
  probe::add_options(app, o, "the agent whose discards are studied");
  app.add_option("--test-seed", test_seed, "the deals the models are scored on (the fit uses --seed's)")
      ->capture_default_str();
  if (int code = 0; !probe::parse(app, argc, argv, "probe_read_hand", code)) return code;
  if (!probe::read_agents(o, "probe_read_hand")) return 2;
  if (test_seed == o.seed) {
    std::fprintf(
        stderr,
        "probe_read_hand: --test-seed must differ from --seed (the models are scored on other deals)\n");
    return 2;
  }
  const std::vector<Row> train = collect(o.agent, o.vs, o.deals, o.seed);
  const std::vector<Row> test = collect(o.agent, o.vs, o.deals, test_seed);
  if (train.empty() || test.empty()) {
    std::fprintf(stderr, "probe_read_hand: no discard with an open take chance in %d deals\n", o.deals);
    return 1;
  }
  double takeable_share = 0;
  for (const Row& r : test) takeable_share += r.takeable;
  std::printf("%s against %s, %d deals of seed %llu to fit, %d of seed %llu to score\n",
              o.agent.to_string().c_str(), o.vs.to_string().c_str(), o.deals,
              static_cast<unsigned long long>(o.seed), o.deals, static_cast<unsigned long long>(test_seed));
  std::printf("  candidate discards: %zu to fit, %zu to score, %.1f%% of them takeable\n", train.size(),
              test.size(), 100 * takeable_share / static_cast<double>(test.size()));
  std::printf("    %-34s %9s %9s %12s\n", "model", "inputs", "log-loss", "concordance");
  std::printf("    %-34s %9s %9s %12s\n", "", "", "(fitted)", "(scored)");
  for (int m = 0; m < kModelNb; ++m) {
    const auto model = static_cast<Model>(m);
    const Eigen::VectorXd w = model == kCount ? Eigen::VectorXd() : fit(train, model);
    const Score fitted = score(train, model, w), scored = score(test, model, w);
    std::printf("    %-34s %9ld %9.4f %12.4f   (scored: log-loss %.4f)\n", kModelNames[m],
                static_cast<long>(w.size()), fitted.log_loss, scored.concordance, scored.log_loss);
  }
  std::printf(
      "    (concordance: within a discard, the share of pairs of candidates, one takeable and one not, "
      "ranked\n"
      "     the right way; the discard oracle's is 1)\n");
  return 0;
}
