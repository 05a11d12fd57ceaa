#include "redraw.h"

#include <fmt/format.h>

#include "canasta/view.h"
#include "deal_trace.h"

namespace canasta {

namespace {

constexpr int kWorldTries = 40;     // worlds drawn at most
constexpr int kKeepAfter = 4;       // worlds a seat's past failed in before it keeps its cards
constexpr int kHistoryTries = 20;   // pasts drawn for a seat, for one world
constexpr int kAnswerTries = 2000;  // hands drawn for an asker who waits for the answer
constexpr int kWalkSteps = 8;       // swaps tried per hidden card of a seat that keeps its cards

// n cards drawn at random from `avail`, without replacement.
bool draw_cards(Counts avail, int n, Rng& rng, Counts& out) {
  out = {};
  int left = total(avail);
  for (int i = 0; i < n; ++i) {
    if (left <= 0) return false;
    int pick = static_cast<int>(rng.below(static_cast<uint32_t>(left)));
    size_t k = 0;
    while (pick >= avail[k]) pick -= avail[k++];
    --avail[k];
    ++out[k];
    --left;
  }
  return true;
}

// One world being drawn: the deal traced, the seat it must look the same
// to, and the seats that keep the cards they had (then shuffled by a walk).
struct World {
  const Trace& tr;
  std::span<const Step> steps;
  int seat;
  uint32_t kept = 0;  // bit q: seat q keeps its cards

  bool redrawn(int q) const { return q != seat && !(kept >> q & 1U); }
  int players() const { return tr.start().rules.players; }
};

// The hands now. With every other seat drawing, View::determinize's; else
// the unseen cards less the kept seats' hidden ones, dealt at random (red
// threes to the stock), an asker waiting for the answer holding a hand it
// could ask with.
bool hands_now(const World& w, Rng& rng, State& drawn) {
  const State& now = w.tr.now();
  if (w.kept == 0) {
    drawn = View(now, w.seat).determinize(rng);
    return true;
  }
  CardSet unseen = View(now, w.seat).unseen();
  for (int q = 0; q < w.players(); ++q)
    if (q != w.seat && !w.redrawn(q)) unseen = unseen - (now.hand[q] - now.known[q]);
  Counts pool = counts_of(unseen);
  pool[kRed3] = 0;
  const bool waits = now.phase == Phase::kAnswer && w.redrawn(now.seat);
  for (int i = 0; i < (waits ? kAnswerTries : 1); ++i) {
    drawn = now;
    Counts left = pool, got;
    for (int q = 0; q < w.players(); ++q) {
      if (!w.redrawn(q)) continue;
      if (!draw_cards(left, now.hand[q].total() - now.known[q].total(), rng, got)) return false;
      for (size_t k = 0; k < kKindNb; ++k) left[k] -= got[k];
      drawn.hand[q] = now.known[q] + set_of(got);
    }
    if (!waits || View::answer_consistent(drawn)) return true;
  }
  return false;
}

// A past for seat `q` whose hand is `now` at the end: going back step by
// step, its hand before each step is the hand after it less the public change
// and less the cards it drew then, drawn at random among those it holds and
// could have drawn (no red three, no card it was known to hold). Each action
// of the seat must be legal with the hand it held. `out[0]` is the hand dealt,
// `out[t]` the cards drawn at step t.
bool redraw_past(const World& w, const Receipts& truth, int q, CardSet now, Rng& rng, Receipts& out) {
  const Trace& tr = w.tr;
  Counts hand = counts_of(now);
  for (size_t t = w.steps.size(); t >= 1; --t) {
    const State& before = tr.after[t - 1];
    const Counts change = tr.public_change(q, t, truth[t]), known = counts_of(before.known[q]);
    Counts avail{};
    for (size_t k = 0; k < kKindNb; ++k)
      avail[k] = k == kRed3 ? 0 : std::max(0, hand[k] - change[k] - known[k]);
    if (!draw_cards(avail, total(truth[t]), rng, out[t])) return false;
    for (size_t k = 0; k < kKindNb; ++k) {
      hand[k] -= change[k] + out[t][k];
      if (hand[k] < known[k]) return false;
    }
    if (w.steps[t - 1].seat == q) {
      State probe = before;
      probe.hand[q] = set_of(hand);
      if (!is_legal(probe, w.steps[t - 1].action)) return false;
    }
  }
  out[0] = hand;
  return total(hand) == tr.start().hand[q].total();
}

// The deck with every redrawn seat's hidden receipts replaced by its new
// ones and the stock by what is left, each group in random order.
bool fill_deck(const World& w, const std::vector<Receipts>& past, Rng& rng, Deck& out) {
  const Trace& tr = w.tr;
  const State& start = tr.start();
  const auto open = [&](int pos) {
    const int owner = tr.got[static_cast<size_t>(pos)].owner;
    return tr.hidden_from(w.seat, pos) && (owner == kStock || w.redrawn(owner));
  };
  Counts left{};
  for (int pos = 0; pos < start.deck_size; ++pos)
    if (open(pos)) ++left[start.deck[static_cast<size_t>(pos)]];
  std::vector<Receipts> todo = past;
  out = start.deck;
  for (int pos = 0; pos < start.deck_size; ++pos) {
    if (!open(pos)) continue;
    const Receipt& g = tr.got[static_cast<size_t>(pos)];
    Counts& from = g.owner == kStock ? left : todo[static_cast<size_t>(g.owner)][static_cast<size_t>(g.when)];
    Counts one;
    if (!draw_cards(from, 1, rng, one)) return false;
    size_t k = 0;
    while (one[k] == 0) ++k;
    out[static_cast<size_t>(pos)] = static_cast<uint8_t>(k);
    --from[k];
    if (g.owner != kStock && --left[k] < 0) return false;
  }
  return total(left) == 0;
}

// Whether kept seat `q` could have played its actions with the cards `deck`
// gives it: its hand, going forward, never short of a card it plays or was
// known to hold, and each of its actions legal with it.
bool past_holds(const World& w, const std::vector<Receipts>& truth, int q, const Deck& deck) {
  const Trace& tr = w.tr;
  Receipts got(tr.after.size(), Counts{});
  for (int pos = 0; pos < tr.start().deck_size; ++pos)
    if (tr.got[static_cast<size_t>(pos)].owner == q && tr.hidden_from(w.seat, pos))
      ++got[static_cast<size_t>(tr.got[static_cast<size_t>(pos)].when)][deck[static_cast<size_t>(pos)]];
  Counts hand = got[0];
  for (size_t t = 1; t <= w.steps.size(); ++t) {
    if (w.steps[t - 1].seat == q) {
      State probe = tr.after[t - 1];
      probe.hand[q] = set_of(hand);
      if (!is_legal(probe, w.steps[t - 1].action)) return false;
    }
    const Counts change = tr.public_change(q, t, truth[static_cast<size_t>(q)][t]);
    const Counts known = counts_of(tr.after[t].known[q]);
    for (size_t k = 0; k < kKindNb; ++k) {
      hand[k] += change[k] + got[t][k];
      if (hand[k] < known[k]) return false;
    }
  }
  return true;
}

// A random walk for a kept seat: swaps of one of its hidden cards with one
// of the stock (never a red three), each kept only when its past still holds.
void walk(const World& w, const std::vector<Receipts>& truth, int q, Rng& rng, Deck& deck) {
  std::vector<int> mine, stock;
  for (int pos = 0; pos < w.tr.start().deck_size; ++pos) {
    if (!w.tr.hidden_from(w.seat, pos) || deck[static_cast<size_t>(pos)] == kRed3) continue;
    const int owner = w.tr.got[static_cast<size_t>(pos)].owner;
    if (owner == q) mine.push_back(pos);
    if (owner == kStock) stock.push_back(pos);
  }
  if (mine.empty() || stock.empty()) return;
  for (size_t i = 0; i < kWalkSteps * mine.size(); ++i) {
    uint8_t& a = deck[static_cast<size_t>(mine[rng.below(static_cast<uint32_t>(mine.size()))])];
    uint8_t& b = deck[static_cast<size_t>(stock[rng.below(static_cast<uint32_t>(stock.size()))])];
    if (a == b) continue;
    std::swap(a, b);
    if (!past_holds(w, truth, q, deck)) std::swap(a, b);
  }
}

// The deck replayed: every action legal, the red threes shown and the stock
// the same at every step, the seat's view the same at the end.
bool replays(const World& w, const Deck& deck) {
  const Trace& tr = w.tr;
  const State& start = tr.start();
  State s;
  start_deal(s, start.rules, deck, start.deck_size, start.dealer, start.score_before);
  for (size_t t = 0;; ++t) {
    if (s.red3 != tr.after[t].red3 || s.stock_pos != tr.after[t].stock_pos) return false;
    if (t == w.steps.size()) break;
    if (s.over() || !is_legal(s, w.steps[t].action)) return false;
    apply(s, w.steps[t].action);
  }
  return View(s, w.seat) == View(tr.now(), w.seat);
}

// One world: the hands now, a past for each seat that draws, a walk for each
// that keeps its cards. `failures` counts, by seat, the worlds whose draws
// for it did not hold.
bool try_world(const World& w, const std::vector<Receipts>& truth, Rng& rng, Deck& deck,
               std::array<int, kMaxSeats>& failures) {
  State drawn;
  if (!hands_now(w, rng, drawn)) {
    ++failures[static_cast<size_t>(w.tr.now().seat)];
    return false;
  }
  std::vector<Receipts> past(static_cast<size_t>(w.players()), Receipts(w.tr.after.size(), Counts{}));
  for (int q = 0; q < w.players(); ++q) {
    if (!w.redrawn(q)) continue;
    bool found = false;
    for (int i = 0; i < kHistoryTries && !found; ++i)
      found =
          redraw_past(w, truth[static_cast<size_t>(q)], q, drawn.hand[q], rng, past[static_cast<size_t>(q)]);
    if (!found) {
      ++failures[static_cast<size_t>(q)];
      return false;
    }
  }
  Deck out;
  if (!fill_deck(w, past, rng, out)) return false;
  for (int q = 0; q < w.players(); ++q)
    if (q != w.seat && !w.redrawn(q)) walk(w, truth, q, rng, out);
  if (!replays(w, out)) return false;
  deck = out;
  return true;
}

}  // namespace

bool redraw_deal(const State& start, std::span<const Step> steps, int seat, Rng& rng, Deck& deck,
                 std::string& error) {
  Trace tr;
  if (!trace_deal(start, steps, tr)) {
    error = "the deal's draws could not be traced (a state not reached by play from its deal)";
    return false;
  }
  const std::vector<Receipts> truth = hidden_receipts(tr, seat, start.deck);
  World w{tr, steps, seat};
  std::array<int, kMaxSeats> failures{};
  // Every seat draws; a seat whose draws did not hold in kKeepAfter worlds
  // keeps its cards; at last every seat keeps its cards (the deal played
  // always holds).
  for (int i = 0; i < kWorldTries; ++i) {
    if (try_world(w, truth, rng, deck, failures)) return true;
    for (int q = 0; q < w.players(); ++q)
      if (failures[static_cast<size_t>(q)] >= kKeepAfter) w.kept |= 1U << q;
  }
  w.kept = ((1U << w.players()) - 1) & ~(1U << seat);
  if (try_world(w, truth, rng, deck, failures)) return true;
  error = fmt::format("no redrawn deal found for seat {}", seat);
  return false;
}

}  // namespace canasta
