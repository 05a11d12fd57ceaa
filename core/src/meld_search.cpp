// Profiles with wild melds or closed canastas: an exact dynamic programme over
// the ranks (feasible.h: greedy_max_dp, meld_all_dp, OutAfterMeld). For each
// natural rank the turn melds x of the hand's naturals and
// changes the meld's wild cards by d (d < 0: cleaning frees -d wild cards);
// the wild meld takes y more wild cards. Wild cards are interchangeable for
// feasibility, so the ranks interact only through D = the sum of the d's: the
// hand places P = D + y of its wild cards, 0 <= P <= its wild cards. A new
// wild meld is started with three wild cards from the hand (P >= 3); freed
// wild cards join existing melds, new melds with a natural pair, or the wild
// meld. Every plan that satisfies these counts can be played in some order
// (naturals first, then cleanings, then wild cards), so the programme is exact.
#include <algorithm>
#include <array>
#include <bit>
#include <iterator>
#include <limits>

#include "feasible.h"

namespace canasta::detail {

namespace {

constexpr int kDMin = -kCanastaSize;  // net wild cards freed, at most what the wild meld absorbs
constexpr int kDMax = 18;             // net wild cards placed, at most the hand's (12 twos, 6 jokers)
constexpr int kDSpan = kDMax - kDMin + 1;

// One way to play rank k this turn.
struct RankMove {
  int x;  // naturals melded from the hand
  int d;  // change of the meld's wild cards
};

// The changes d of the wild cards of a meld of `nat0` naturals and `w0` wild
// cards that a turn may make when `x` naturals of the hand join it, as bits
// d + kMaxChange: those after which the meld is not a canasta (low byte) and
// those after which it is one (high byte).
constexpr int kMaxChange = 3;  // Rules::max_wilds is 1 to 3 (check_rules)
constexpr uint16_t change_masks(int nat0, int w0, int x, bool closed, bool le, int max_wilds) {
  const int nat_cap = closed ? kClosedNaturalMax : 99;
  const int nat = nat0 + x;
  if (nat0 == 0) {
    if (x == 0) return 1U << kMaxChange;  // no meld
    if (x < 2) return 0;                  // a new meld takes two naturals or more
  }
  uint16_t masks = 0;
  for (int d = -w0; d <= max_wilds - w0; ++d) {
    const int w = w0 + d, size = nat + w;
    if (size < 3 || (le && w > nat)) continue;
    if (d < 0) {
      // Cleaning: the meld reaches seven, then naturals replace wild cards.
      if (!closed || size < kCanastaSize || size > (w > 0 ? kCanastaSize : nat_cap)) continue;
    } else if (x > 0 || d > 0) {
      if (closed && size > (w > 0 ? kCanastaSize : nat_cap)) continue;
    }
    masks |= static_cast<uint16_t>(1U << (d + kMaxChange + (size >= kCanastaSize ? 8 : 0)));
  }
  return masks;
}

// change_masks for every (nat0, w0, x) up to 15, 3 and 15, for each set of
// the rules it depends on (closed canastas, wilds at most naturals, 1 to 3
// wild cards a meld), built at compile time.
constexpr int change_index(bool closed, bool le, int max_wilds, int nat0, int w0, int x) {
  return ((((closed * 2 + le) * 3 + max_wilds - 1) * 16 + nat0) * 4 + w0) * 16 + x;
}
constexpr auto kChangeMasks = [] {
  std::array<uint16_t, 2 * 2 * 3 * 16 * 4 * 16> t{};
  for (int closed = 0; closed < 2; ++closed)
    for (int le = 0; le < 2; ++le)
      for (int mw = 1; mw <= 3; ++mw)
        for (int nat0 = 0; nat0 < 16; ++nat0)
          for (int w0 = 0; w0 < 4; ++w0)
            for (int x = 0; x < 16; ++x)
              t[change_index(closed, le, mw, nat0, w0, x)] = change_masks(nat0, w0, x, closed, le, mw);
  return t;
}();

// Sets of net wild changes D, bit D - kDMin (kDSpan bits). A change d of
// one rank moves every D to D + d, dropping those that leave the span (d is
// at most a meld's wild cards, 3, either way): meld_all_levels.
using Cells = uint32_t;
constexpr Cells kAllCells = (Cells{1} << kDSpan) - 1;

// The changes a meld of rank `k` allows when `x` naturals of the hand join
// it (change_masks), from the table; the rules' part of the index once per
// table (ChangeTable), for a search that reads many ranks.
static_assert(change_index(true, true, 3, 5, 2, 7) ==
              change_index(true, true, 3, 0, 0, 0) + (5 * 4 + 2) * 16 + 7);
struct ChangeTable {
  const uint16_t* masks;
  explicit ChangeTable(const Rules& r)
      : masks(kChangeMasks.data() +
              change_index(r.closed_canastas, r.wilds_le_naturals, r.max_wilds, 0, 0, 0)) {}
  // A meld of `nat0` naturals and `w0` wild cards that `x` naturals join.
  uint16_t at(int nat0, int w0, int x) const { return masks[(nat0 * 4 + w0) * 16 + x]; }
  uint16_t operator()(const TeamMelds& m, int k, int x) const {
    return at(m.naturals.count(k), m.wilds(k), x);
  }
};
uint16_t changes_of(const TeamMelds& m, int k, int x, const Rules& r) { return ChangeTable(r)(m, k, x); }

// The moves worth trying on rank `k` with `n` naturals in hand when melding
// the most value: for each change d of the meld's wild cards, the most
// naturals that can join with it (at the same d, one natural more is more
// value and changes nothing else). Returns how many were written.
int best_moves(const TeamMelds& m, int k, int n, const Rules& r, RankMove* out) {
  std::array<int, 2 * kMaxChange + 1> most;
  most.fill(-1);
  for (int x = 0; x <= n; ++x) {
    const uint16_t masks = changes_of(m, k, x, r);
    for (uint32_t d = (masks | masks >> 8) & 0xFFU; d; d &= d - 1)
      most[static_cast<size_t>(std::countr_zero(d))] = x;
  }
  int cnt = 0;
  for (int i = 0; i < static_cast<int>(most.size()); ++i)
    if (most[static_cast<size_t>(i)] >= 0) out[cnt++] = {most[static_cast<size_t>(i)], i - kMaxChange};
  return cnt;
}

// Largest y the wild meld can take, and whether a new one must be started.
struct WildMeld {
  int have;  // cards in the side's wild meld
  int room;  // most it can take (0 without wild melds)
};
WildMeld wild_meld_of(const TeamMelds& m, const Rules& r) {
  const int have = m.wild_meld();
  return {have, r.wild_melds ? kCanastaSize - have : 0};
}
bool wild_meld_ok(const WildMeld& wm, int y, int placed) {
  if (y == 0) return true;
  if (y > wm.room) return false;
  return wm.have > 0 || (y >= 3 && placed >= 3);
}

int wild_value(int placed, int jokers) {
  const int j = std::min(placed, jokers);
  return card_value(kJoker) * j + card_value(kTwo) * (placed - j);
}

// The search of meld_all_dp proper. at_least[c]: the net wild changes D
// reachable with c or more canastas of natural ranks (each set holds the
// next), for c up to `enough`, all held side by side in one word, set c in
// the 32 bits from bit 32c, cell D at bit D - kDMin + kMaxChange of its lane:
// the kMaxChange bits below the cells let a move by d be a left shift by
// d + kMaxChange for every lane at once; what leaves the span falls into the
// bits around the cells of its lane, which are then cleared.
__extension__ using Levels4 = unsigned __int128;  // four lanes: enough up to 3
// A word of lanes: its type, the bits of a lane, the cells of a lane (D from
// kDMin on). The narrow one holds three lanes in 64 bits, for searches where
// no D above its top (7) can lead to the end (narrow_enough).
template <class W, int LaneBits, int Span>
struct Layout {
  using Word = W;
  static constexpr int kBits = LaneBits;
  static constexpr Cells kCells = (Cells{1} << Span) - 1;
  static_assert(Span <= kDSpan && Span + 2 * kMaxChange <= LaneBits);
};
using Wide = Layout<Levels4, 32, kDSpan>;
using Wide2 = Layout<uint64_t, 32, kDSpan>;         // two lanes: enough 1
constexpr int kNarrowSpan = 15;                     // D from -7 to 7
using Narrow3 = Layout<uint64_t, 21, kNarrowSpan>;  // three lanes: enough up to 2
static_assert(3 * Narrow3::kBits <= 64);
template <class L>
typename L::Word lanes(int n, Cells cells) {
  typename L::Word w = 0;
  for (int c = 0; c < n; ++c) w |= typename L::Word{cells & L::kCells} << (L::kBits * c + kMaxChange);
  return w;
}
template <class Word>
Word moved_lanes(Word at, uint32_t changes, Word cells) {  // changes: bit d + kMaxChange
  Word out = 0;
  for (; changes; changes &= changes - 1) out |= at << std::countr_zero(changes);
  return (out >> kMaxChange) & cells;
}
// The move of a whole search by one rank's changes without and with a
// canasta: at_least[c] becomes plain(at_least[c]) | can(at_least[c - 1]);
// lane 0 (a canasta or not, at least 0) and the top lane (it keeps the
// canastas beyond `enough`) also take what the canasta brings to them
// (`edges`).
template <class L, class Word = typename L::Word>
Word forward(Word at, uint16_t masks, Word cells, Word edges) {
  const Word plain = moved_lanes(at, masks & 0xFFU, cells), can = moved_lanes(at, masks >> 8U, cells);
  return (plain | can << L::kBits | (can & edges)) & cells;
}
// The end of the search: the net changes D from which every wild card of
// the hand is placed, y = wilds - D of them on the wild meld (`ok`), and
// those of them that make the wild meld a canasta (`wild_canasta`).
void end_cells(int wilds, const WildMeld& wm, Cells& ok, Cells& wild_canasta) {
  // y = 0 is cell `top`; y from ylo to yhi (wild_meld_ok) the cells below it.
  const int top = wilds - kDMin;
  const int yhi = std::min(wm.room, top);
  const int ylo = wm.have > 0 ? 1 : wilds >= 3 ? 3 : yhi + 1;
  const auto ys = [top](int a, int b) {
    return a > b ? Cells{0} : (Cells{2} << (top - a)) - (Cells{1} << (top - b));
  };
  ok = (Cells{1} << top | ys(ylo, yhi)) & kAllCells;
  wild_canasta =
      ((wm.have >= kCanastaSize ? Cells{1} << top : 0) | ys(std::max(ylo, kCanastaSize - wm.have), yhi)) &
      kAllCells;
}
// The lanes of a search for `enough` canastas: its cells, the lanes that
// take a canasta's move as well (forward), and the start (D = 0, lane 0).
template <class L>
struct Search {
  using Word = typename L::Word;
  Word cells, edges;
  static constexpr Word kStart = Word{1} << (-kDMin + kMaxChange);
  explicit Search(int enough)
      : cells(lanes<L>(enough + 1, kAllCells)),
        edges(lanes<L>(1, kAllCells) | lanes<L>(1, kAllCells) << (L::kBits * enough)) {}
};
template <class L>
MeldAll meld_all_levels(CardSet hand, const TeamMelds& m, const Rules& r, int enough) {
  using Word = typename L::Word;
  const Search<L> search(enough);
  const Word cells = search.cells, edges = search.edges, lane0 = lanes<L>(1, kAllCells);
  Word at = Search<L>::kStart;
  const ChangeTable changes(r);
  for (uint64_t ranks = ~(hand.none_bits() & m.naturals.none_bits()) & kNaturalBits; ranks;
       ranks &= ranks - 1) {
    const int k = std::countr_zero(ranks) >> 2;
    at = forward<L>(at, changes(m, k, hand.count(k)), cells, edges);
    if ((at & lane0) == 0) return {false, 0};
  }
  Cells ok, wild_canasta;
  end_cells(hand.wilds(), wild_meld_of(m, r), ok, wild_canasta);
  for (int c = enough; c >= 0; --c) {
    const Cells reached = static_cast<Cells>(at >> (L::kBits * c + kMaxChange)) & L::kCells;
    if (reached & wild_canasta) return {true, std::min(c + 1, enough)};
    // c here, or c + 1 with the wild canasta from a level below: none below
    // can give more than c.
    if (reached & ok) return {true, c};
  }
  return {false, 0};
}

// Whether the search of meld_all can drop every D above 7: a D reached
// before a rank ends, after the ranks that follow, at most at the hand's
// wild cards, less what cleanings free on the way, and a cleaning frees
// at most the wild cards of its meld, one a natural of the hand.
bool narrow_enough(CardSet hand, const TeamMelds& m) {
  return hand.wilds() + m.cleanable_wilds(hand) <= kDMin + kNarrowSpan - 1;
}

// The lanes a search for `enough` canastas (1 to 3) over `hand` runs in: 1
// Wide2 (one canasta), 2 Narrow3 (two, where narrow_enough), 0 Wide.
int layout_for(CardSet hand, const TeamMelds& m, int enough) {
  return enough == 1 ? 1 : enough == 2 && narrow_enough(hand, m) ? 2 : 0;
}
// Runs f with the layout of layout_for.
template <class F>
decltype(auto) with_layout(int layout, F&& f) {
  switch (layout) {
    case 1:
      return f(Wide2{});
    case 2:
      return f(Narrow3{});
    default:
      return f(Wide{});
  }
}

// The search of meld_all_levels in reverse: from the cells of the end, the
// cells before a rank from which its changes lead there. A cell D before the
// rank reaches D + d after it, so each change d is a shift right by d (a
// left shift by kMaxChange - d, then the common shift back); with a canasta
// the rank's count moves up a lane, the top lane keeping its own.
template <class Word>
Word moved_back(Word at, uint32_t changes, Word cells) {  // changes: bit d + kMaxChange
  Word out = 0;
  for (; changes; changes &= changes - 1) out |= at << (2 * kMaxChange - std::countr_zero(changes));
  return (out >> kMaxChange) & cells;
}

// The end of a search read backwards: the cells `ok` in the lane of `enough`
// canastas, and `wild_canasta` in the lane below (the wild meld adds one).
template <class L>
typename L::Word end_lanes(Cells ok, Cells wild_canasta, int enough) {
  using W = typename L::Word;
  return W{ok & L::kCells} << (L::kBits * enough + kMaxChange) |
         W{wild_canasta & L::kCells} << (L::kBits * (enough - 1) + kMaxChange);
}

}  // namespace

// A mixed canasta of seven frees a wild card for a natural (change_masks).
bool cleaning_may_free(CardSet hand, const TeamMelds& m, const Rules& r) {
  if (!r.closed_canastas) return false;
  // A rank's meld with a wild card, its size and the hand's naturals of it
  // above seven, one byte per rank (the kinds of one parity a word).
  const auto over = [&](uint64_t (*bytes)(CardSet), uint64_t naturals) {
    const uint64_t wild = bytes(m.jokers) + bytes(m.twos);
    return at_least_bytes(bytes(m.naturals) + wild + bytes(hand), kCanastaSize + 1) &
           at_least_bytes(wild, 1) & naturals;
  };
  return (over(even_bytes, kNaturalTops[0]) | over(odd_bytes, kNaturalTops[1])) != 0;
}

// The search of meld_all_dp only grows with the changes a rank allows (a
// change with a canasta gives at least what the same change without one
// gives), and leaving a natural out changes nothing else it reads.
bool no_better_with_one_less(const TeamMelds& m, int k, int n, const Rules& r) {
  const uint16_t with_n = changes_of(m, k, n, r), with_less = changes_of(m, k, n - 1, r);
  const uint16_t plain = with_n & 0xFF, can = with_n >> 8;
  return ((with_less & 0xFF) & ~(plain | can)) == 0 && ((with_less >> 8) & ~can) == 0;
}

Greedy greedy_max_dp(CardSet hand, const TeamMelds& m, const Rules& r) {
  // The ranks in play, their moves, and the least and most net wild change
  // of the ranks after each (after_lo[i], after_hi[i]: ranks i and on).
  struct RankPlay {
    int value;  // card value of one natural of the rank
    int cnt;
    RankMove moves[2 * kMaxChange + 1];
  };
  std::array<RankPlay, kLastNatural - kFirstNatural + 1> play;
  int ranks = 0;
  for (int k = kFirstNatural; k <= kLastNatural; ++k) {
    const int n = hand.count(k);
    if (n == 0 && !m.has(k)) continue;
    play[ranks].value = card_value(k);
    play[ranks].cnt = best_moves(m, k, n, r, play[ranks].moves);
    ++ranks;
  }
  std::array<int, kLastNatural - kFirstNatural + 2> after_lo{}, after_hi{};
  for (int i = ranks - 1; i >= 0; --i) {
    int lo = kMaxChange, hi = -kMaxChange;
    for (int c = 0; c < play[i].cnt; ++c) {
      lo = std::min(lo, play[i].moves[c].d);
      hi = std::max(hi, play[i].moves[c].d);
    }
    after_lo[i] = after_lo[i + 1] + lo;
    after_hi[i] = after_hi[i + 1] + hi;
  }
  // The net change D ends between -room (every freed card on the wild meld)
  // and the hand's wild cards (all of them placed): cells from which no
  // choice of the later ranks gets there are dropped.
  const int wilds = hand.wilds(), jokers = hand.count(kJoker);
  const WildMeld wm = wild_meld_of(m, r);
  // best[D - kDMin]: the most natural value, then the fewest naturals, with
  // net wild change D, as one key: value * kPer - naturals melded.
  constexpr int kPer = 256;  // more than the cards of any deal
  constexpr int kNone = std::numeric_limits<int>::min() / 2;
  // Two rows in turn; a row is read only between lo and hi, and written
  // only where the previous row's cells can move, which is cleared first.
  std::array<int, kDSpan> rows[2];
  int* best = rows[0].data();
  int* next = rows[1].data();
  int lo = -kDMin, hi = -kDMin;  // the cells that can be reached
  best[lo] = 0;
  for (int i = 0; i < ranks; ++i) {
    const int jmin = std::max(0, -wm.room - after_hi[i + 1] - kDMin);
    const int jmax = std::min(kDSpan - 1, wilds - after_lo[i + 1] - kDMin);
    const int clear_lo = std::max(jmin, lo + after_lo[i] - after_lo[i + 1]);
    const int clear_hi = std::min(jmax, hi + after_hi[i] - after_hi[i + 1]);
    for (int j = clear_lo; j <= clear_hi; ++j) next[j] = kNone;
    int nlo = kDSpan, nhi = -1;
    for (int c = 0; c < play[i].cnt; ++c) {
      const RankMove mv = play[i].moves[c];
      const int gain = mv.x * (play[i].value * kPer - 1);
      for (int from = std::max(lo, jmin - mv.d), to = std::min(hi, jmax - mv.d); from <= to; ++from) {
        if (best[from] == kNone) continue;
        const int j = from + mv.d;
        next[j] = std::max(next[j], best[from] + gain);
        nlo = std::min(nlo, j);
        nhi = std::max(nhi, j);
      }
    }
    std::swap(best, next);
    lo = nlo;
    hi = nhi;
  }
  int key = 0;  // melding nothing
  for (int i = lo; i <= hi; ++i) {
    if (best[i] == kNone) continue;
    const int diff = i + kDMin;
    for (int y = 0; y <= wm.room; ++y) {
      const int placed = diff + y;
      if (placed < 0 || placed > wilds || !wild_meld_ok(wm, y, placed)) continue;
      key = std::max(key, best[i] + wild_value(placed, jokers) * kPer - placed);
    }
  }
  const int value = (key + kPer - 1) / kPer;
  return {value, value * kPer - key};
}

MeldAll meld_all_dp(CardSet hand, const TeamMelds& m, const Rules& r, int enough) {
  // A single natural of a rank the side has not melded can never go: the
  // common answer, found before any table is built.
  if (hand.single_bits() & m.naturals.none_bits() & kNaturalBits) return {false, 0};
  // Nor can more natural pairs of such ranks than there are wild cards, each
  // pair taking one, where no cleaning frees any.
  // (Bits at 4k read as counters of one: their total is how many.)
  if (CardSet(hand.two_bits() & m.naturals.none_bits() & kNaturalBits).total() > hand.wilds() &&
      !cleaning_may_free(hand, m, r))
    return {false, 0};
  enough = std::clamp(enough, 1, 3);  // Rules::canastas_to_go_out is 1 to 3 (check_rules)
  return with_layout(layout_for(hand, m, enough),
                     [&](auto layout) { return meld_all_levels<decltype(layout)>(hand, m, r, enough); });
}

void OutAfterMeld::start() {
  started_ = true;
  const CardSet hand = c_.hand;
  const TeamMelds& m = c_.melds;
  // out_with: a lone natural of a rank the side has not melded, or a lone
  // black three, can only be the discard; with two such cards nothing goes.
  // The meld asked about is on a natural rank, so the hand keeps them.
  const int stuck_kind = stuck_card(hand, m);
  if (stuck_kind == kTwoStuck) {
    dead_ = true;
    return;
  }
  stuck_ = stuck_kind != kNoneStuck;
  hand_ = hand;
  if (stuck_) hand_.remove(stuck_kind);
  no_plan_ = !black_threes_meld(hand_.count(kBlack3), m);
  if (no_plan_) return;
  enough_ = std::clamp(static_cast<int>(r_.canastas_to_go_out), 1, 3);
  wilds_ = hand_.wilds();
  // Every hand asked about after a meld or a cleaning can free at most what
  // this one can (narrow_enough), so the narrow lanes hold for all of them.
  layout_ = static_cast<uint8_t>(layout_for(hand_, m, enough_));
  std::fill(std::begin(index_), std::end(index_), static_cast<int8_t>(-1));
  with_layout(layout_, [&](auto layout) {
    using L = decltype(layout);
    const Search<L> search(enough_);
    cells_ = search.cells;
    edges_ = search.edges;
    const ChangeTable changes(r_);
    typename L::Word at = Search<L>::kStart;
    n_ = 0;
    for (uint64_t ranks = ~(hand_.none_bits() & m.naturals.none_bits()) & kNaturalBits; ranks;
         ranks &= ranks - 1) {
      const int k = std::countr_zero(ranks) >> 2;
      index_[k] = static_cast<int8_t>(n_);
      masks_[n_] = changes(m, k, hand_.count(k));
      fwd_[n_] = at;
      at = forward<L>(at, masks_[n_], search.cells, search.edges);
      ++n_;
    }
  });
}

void OutAfterMeld::back(int placed) {
  back_ready_ = static_cast<uint8_t>(back_ready_ | 1U << placed);
  Cells ok, wild_canasta;
  end_cells(wilds_ - placed, wild_meld_of(c_.melds, r_), ok, wild_canasta);
  with_layout(layout_, [&](auto layout) {
    using L = decltype(layout);
    using W = typename L::Word;
    const W cells = static_cast<W>(cells_);
    // Canastas enough with the wild meld's own, or one short of it and the
    // wild meld a canasta.
    W b = end_lanes<L>(ok, wild_canasta, enough_);
    back_[placed][n_] = b;
    const W top = lanes<L>(1, kAllCells) << (L::kBits * enough_);
    for (int i = n_ - 1; i >= 0; --i) {
      const W plain = moved_back(b, masks_[i] & 0xFFU, cells), can = moved_back(b, masks_[i] >> 8U, cells);
      b = (plain | can >> L::kBits | (can & top)) & cells;
      back_[placed][i] = b;
    }
  });
}

int OutAfterMeld::after(int k, int x, int j, int t) {
  if (c_.hand.total() == x + j + t) return -1;  // going out by this meld: finishes() says
  if (!started_) start();
  if (dead_) return 0;
  // Without a way to meld the rest, only a discard to choose could help.
  if (no_plan_ || index_[k] < 0) return stuck_ ? 0 : -1;
  const int placed = j + t;
  if (placed > kMaxPlaced) return -1;
  if (!(back_ready_ >> placed & 1U)) back(placed);
  const int i = index_[k];
  // The rank's changes after the meld, from its new meld with the hand's
  // naturals left: the same net change D at the end as before it, where the
  // hand then holds `placed` wild cards fewer.
  const TeamMelds& m = c_.melds;
  const uint16_t masks = ChangeTable(r_).at(m.naturals.count(k) + x, m.wilds(k) + placed, hand_.count(k) - x);
  const bool ends = with_layout(layout_, [&](auto layout) {
    using L = decltype(layout);
    using W = typename L::Word;
    const W at = forward<L>(static_cast<W>(fwd_[i]), masks, static_cast<W>(cells_), static_cast<W>(edges_));
    return (at & static_cast<W>(back_[placed][i + 1])) != 0;
  });
  if (ends) return 1;
  return stuck_ ? 0 : -1;
}

int OutAfterMeld::after_clean(Action a) {
  const int k = a.kind(), q = a.dest(), pair = a.naturals();
  if (c_.hand.total() == 1 + pair) return -1;  // going out by this cleaning: finishes() says
  if (!started_) start();
  if (dead_) return 0;
  if (no_plan_) return stuck_ ? 0 : -1;
  // The canasta of k takes a natural of the hand for a wild card, which
  // joins the meld of q (with a natural pair of the hand) or the wild meld;
  // the hand's wild cards stay. Both ranks are in the search (k is melded,
  // q melded or a pair of the hand; the stuck card is neither).
  const TeamMelds& m = c_.melds;
  const ChangeTable changes(r_);
  const int ik = index_[k];
  const uint16_t mask_k = changes.at(m.naturals.count(k) + 1, m.wilds(k) - 1, hand_.count(k) - 1);
  if (q != kTwo && !(back_ready_ & 1U)) back(0);
  const bool ends = with_layout(layout_, [&](auto layout) {
    using L = decltype(layout);
    using W = typename L::Word;
    const W cells = static_cast<W>(cells_), edges = static_cast<W>(edges_);
    if (q == kTwo) {
      // The wild meld grows by one: the end differs, so the rest is searched.
      W at = forward<L>(static_cast<W>(fwd_[ik]), mask_k, cells, edges);
      for (int i = ik + 1; i < n_; ++i) at = forward<L>(at, masks_[i], cells, edges);
      Cells ok, wild_canasta;
      const int have = m.wild_meld() + 1;
      end_cells(wilds_, WildMeld{have, kCanastaSize - have}, ok, wild_canasta);
      return (at & end_lanes<L>(ok, wild_canasta, enough_)) != 0;
    }
    const int iq = index_[q];
    const uint16_t mask_q = changes.at(m.naturals.count(q) + pair, m.wilds(q) + 1, hand_.count(q) - pair);
    const int lo = std::min(ik, iq), hi = std::max(ik, iq);
    W at = forward<L>(static_cast<W>(fwd_[lo]), lo == ik ? mask_k : mask_q, cells, edges);
    for (int i = lo + 1; i < hi; ++i) at = forward<L>(at, masks_[i], cells, edges);
    at = forward<L>(at, hi == ik ? mask_k : mask_q, cells, edges);
    return (at & static_cast<W>(back_[0][hi + 1])) != 0;
  });
  if (ends) return 1;
  return stuck_ ? 0 : -1;
}

}  // namespace canasta::detail
