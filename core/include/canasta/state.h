// The state of one deal: a plain value type, trivially copyable, no pointers,
// no heap. Search copies it ("copy-make"); nothing is ever undone.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "canasta/rules.h"
#include "canasta/types.h"

namespace canasta {

namespace detail {

// The meld sizes and wild counts of a side, one byte per rank: the nibbles
// of the even kinds in one word, of the odd kinds in the other (a meld holds
// at most 45 cards, so no byte overflows).
constexpr uint64_t kLowNibbles = 0x0F0F0F0F0F0F0F0FULL;
constexpr uint64_t kByteTops = 0x8080808080808080ULL;

constexpr uint64_t even_bytes(CardSet c) { return c.raw() & kLowNibbles; }
constexpr uint64_t odd_bytes(CardSet c) { return (c.raw() >> 4) & kLowNibbles; }

// The top bit of each byte of `bytes` that holds at least `n` (n from 1 to
// 128, every byte below 128).
constexpr uint64_t at_least_bytes(uint64_t bytes, int n) {
  return (bytes + (0x80 - static_cast<uint64_t>(n)) * 0x0101010101010101ULL) & kByteTops;
}

// Bit k set for the natural kinds k.
constexpr uint16_t kNaturalKinds = static_cast<uint16_t>((1U << (kLastNatural + 1)) - (1U << kFirstNatural));
// Bit 4k set for the natural kinds k: the ungathered form of CardSet's
// single_bits(), pair_bits() and none_bits().
constexpr uint64_t kNaturalBits = 0x1111111111111111ULL << (4 * kFirstNatural) & 0x0FFFFFFFFFFFFFFFULL;
static_assert(kNaturalBits >> (4 * kLastNatural) == 1);
// ... and for every kind.
constexpr uint64_t kKindBits = 0x1111111111111111ULL >> (64 - 4 * kKindNb);
static_assert(kKindBits >> (4 * (kKindNb - 1)) == 1);

// The top bit of byte k/2 for the natural kinds k of one parity, built at
// compile time (index: the parity).
constexpr std::array<uint64_t, 2> kNaturalTops = [] {
  std::array<uint64_t, 2> m{};
  for (int k = kFirstNatural; k <= kLastNatural; ++k) m[k % 2] |= uint64_t{0x80} << (8 * (k / 2));
  return m;
}();

// One bit a byte (the top one), summed (at most 255 in all).
constexpr int byte_tops(uint64_t tops) {
  return static_cast<int>(((tops >> 7) * 0x0101010101010101ULL) >> 56);
}

// Byte tops back as kinds: the top bit of byte j of `even` stands for kind
// 2j, of `odd` for kind 2j + 1; bit 4k of the result for each natural kind k.
constexpr uint64_t natural_bits_of(uint64_t even, uint64_t odd) {
  return ((even >> 7) | (odd >> 3)) & kNaturalBits;
}

}  // namespace detail

// The melds of one side. Counters are indexed by the rank of the meld (nibble
// r of `naturals` is the number of natural cards in the meld of rank r; nibble
// r of `jokers` the number of jokers in it). Black threes melded when going out
// sit in nibble kBlack3 of `naturals`. The meld of wild cards only (profiles
// with wild melds) sits in nibble kTwo of `jokers` and `twos`.
struct TeamMelds {
  CardSet naturals;
  CardSet jokers;
  CardSet twos;

  bool has(int rank) const { return naturals.count(rank) > 0; }
  // Wild cards sit only in melds with naturals or in the wild meld.
  bool any() const { return (naturals.raw() | jokers.raw() | twos.raw()) != 0; }
  // Cards in the side's meld of wild cards only (0: none).
  int wild_meld() const { return jokers.count(kTwo) + twos.count(kTwo); }
  int wilds(int rank) const { return jokers.count(rank) + twos.count(rank); }
  int size(int rank) const { return naturals.count(rank) + wilds(rank); }
  bool is_canasta(int rank) const { return size(rank) >= kCanastaSize; }
  // In one pass: the canastas of the natural ranks (natural and mixed), and
  // the natural ones among them.
  constexpr std::pair<int, int> rank_canastas() const {
    using namespace detail;
    const uint64_t wild_even = even_bytes(jokers) + even_bytes(twos),
                   wild_odd = odd_bytes(jokers) + odd_bytes(twos);
    const uint64_t even = at_least_bytes(even_bytes(naturals) + wild_even, kCanastaSize) & kNaturalTops[0];
    const uint64_t odd = at_least_bytes(odd_bytes(naturals) + wild_odd, kCanastaSize) & kNaturalTops[1];
    const uint64_t clean_even = even & ~at_least_bytes(wild_even, 1),
                   clean_odd = odd & ~at_least_bytes(wild_odd, 1);
    return {byte_tops(even) + byte_tops(odd), byte_tops(clean_even) + byte_tops(clean_odd)};
  }
  // Bit 4r set for each natural rank r whose meld is a canasta.
  constexpr uint64_t canasta_bits() const {
    using namespace detail;
    const uint64_t even =
        at_least_bytes(even_bytes(naturals) + even_bytes(jokers) + even_bytes(twos), kCanastaSize);
    const uint64_t odd =
        at_least_bytes(odd_bytes(naturals) + odd_bytes(jokers) + odd_bytes(twos), kCanastaSize);
    return natural_bits_of(even, odd);
  }
  // Bit 4r set for each natural rank r whose meld can take one more wild
  // card under `rules`: at least two naturals, then at most max_wilds wild
  // cards, no more than the naturals with wilds_le_naturals, at most seven
  // cards with closed_canastas.
  constexpr uint64_t wild_room_bits(const Rules& rules) const {
    using namespace detail;
    const auto ok = [&](uint64_t (*bytes)(CardSet)) {
      const uint64_t nat = bytes(naturals), wild = bytes(jokers) + bytes(twos);
      uint64_t tops = at_least_bytes(nat, 2) & ~at_least_bytes(wild, rules.max_wilds);
      // nat - wild - 1 >= 0, a byte at a time (no byte borrows).
      if (rules.wilds_le_naturals) tops &= (nat + 0x7F * 0x0101010101010101ULL - wild) & kByteTops;
      if (rules.closed_canastas) tops &= ~at_least_bytes(nat + wild, kCanastaSize);
      return tops;
    };
    return natural_bits_of(ok(even_bytes), ok(odd_bytes));
  }
  // The wild cards cleanings could free with the naturals of `more`: for
  // each natural rank, the fewer of its meld's wild cards and of more's
  // naturals of it, summed (one byte a rank, the ranks of one parity a word).
  constexpr int cleanable_wilds(CardSet more) const {
    using namespace detail;
    const auto sum = [&](uint64_t (*bytes)(CardSet), uint64_t rank_tops) {
      const uint64_t wild = bytes(jokers) + bytes(twos), have = bytes(more);
      // 0xFF in the bytes where wild >= have (no byte borrows: both below 128).
      const uint64_t ge = (((wild | kByteTops) - have) & kByteTops) >> 7;
      const uint64_t fewer = ((have & ge * 0xFF) | (wild & ~(ge * 0xFF))) & (rank_tops >> 7) * 0xFF;
      return static_cast<int>((fewer * 0x0101010101010101ULL) >> 56);
    };
    return sum(even_bytes, kNaturalTops[0]) + sum(odd_bytes, kNaturalTops[1]);
  }
  // Natural, mixed and wild canastas.
  int canastas() const { return rank_canastas().first + (wild_canasta() ? 1 : 0); }
  int natural_canastas() const { return rank_canastas().second; }
  bool wild_canasta() const { return wild_meld() >= kCanastaSize; }
  // At most how many canastas the side can have once it melds `more` as
  // well: its naturals on their ranks, every wild card of it on each meld at
  // once (and on the wild meld with `wild_melds`). With `cleanings`, every
  // natural of `more` may also free one wild card of its rank's meld (a
  // cleaning moves a wild card out for each natural it brings in), and the
  // freed ones count as placed too. No way of melding them makes more.
  int canastas_bound(CardSet more, bool wild_melds, bool cleanings) const;
  // Card value of everything melded (canasta bonuses not included).
  int value() const {
    return naturals.value() + card_value(kJoker) * jokers.total() + card_value(kTwo) * twos.total();
  }
  // The cards of the meld of `rank`: its naturals and its wild cards.
  CardSet cards(int rank) const {
    CardSet c;
    c.add(rank, naturals.count(rank));
    c.add(kJoker, jokers.count(rank));
    c.add(kTwo, twos.count(rank));
    return c;
  }
  // Bit r set when the side has a meld of rank r (bit kTwo: the wild meld).
  uint16_t ranks() const {
    return static_cast<uint16_t>(naturals.kinds() | (wild_meld() > 0 ? 1U << kTwo : 0U));
  }
};
static_assert(std::is_trivially_copyable_v<TeamMelds>);

namespace detail {

// Cards of `rest` that no meld onto `m` can take: a lone natural of a rank
// the side has not melded (a new meld needs two naturals), one or two black
// threes (they meld as three or four). Only one card can be left, for the
// discard: with two such kinds nothing goes (kTwoStuck), with one only its
// discard may (its kind), with none any (kNoneStuck). can_go_out starts
// with this test where no pile waits; the heuristic asks it too.
constexpr int kNoneStuck = -1, kTwoStuck = -2;
inline int stuck_card(CardSet rest, const TeamMelds& m) {
  const uint64_t lone = rest.single_bits() & m.naturals.none_bits() & kNaturalBits;  // bits 4k
  const int b3 = rest.count(kBlack3);
  if ((lone & (lone - 1)) || b3 == 2 || (lone && b3 == 1)) return kTwoStuck;
  return lone ? std::countr_zero(lone) / 4 : b3 == 1 ? static_cast<int>(kBlack3) : kNoneStuck;
}

}  // namespace detail

inline int TeamMelds::canastas_bound(CardSet more, bool wild_melds, bool cleanings) const {
  using namespace detail;
  int wild = more.count(kJoker) + more.count(kTwo);
  // Each natural of `more` can free one wild card from its meld.
  if (cleanings) wild += cleanable_wilds(more);
  const uint64_t spread = static_cast<uint64_t>(wild) * 0x0101010101010101ULL;
  const uint64_t even =
      even_bytes(naturals) + even_bytes(jokers) + even_bytes(twos) + even_bytes(more) + spread;
  const uint64_t odd = odd_bytes(naturals) + odd_bytes(jokers) + odd_bytes(twos) + odd_bytes(more) + spread;
  int n = wild_meld() + (wild_melds ? wild : 0) >= kCanastaSize ? 1 : 0;
  n += byte_tops(at_least_bytes(even, kCanastaSize) & kNaturalTops[0]);
  n += byte_tops(at_least_bytes(odd, kCanastaSize) & kNaturalTops[1]);
  return n;
}

enum class Phase : uint8_t {
  kDraw,    // the player to move draws or takes the pile
  kMeld,    // the player melds, asks, or discards to end the turn
  kAnswer,  // the partner answers "may I go out?"
  kOver,    // the deal has ended
};

enum class EndReason : uint8_t {
  kNone,          // still playing
  kWentOut,       // a player went out (normally or concealed)
  kStockOut,      // the stock ran out and play could not or did not go on
  kRedThreeLast,  // the last card of the stock was a red three
};

// How a player went out concealed (bits of State::concealed; 0: not concealed).
enum ConcealedBits : uint8_t {
  kConcealed = 1 << 0,         // went out concealed
  kConcealedLeaning = 1 << 1,  // ... leaning on the partner's melds (premiums only)
  kConcealedLater = 1 << 2,    // ... after the player's first turn
};

// Facts about the turn in progress (bits of State::flags).
enum TurnFlag : uint16_t {
  kDrewStock = 1 << 0,    // this turn began with a draw from the stock
  kTookPile = 1 << 1,     // this turn began by taking the pile
  kPilePending = 1 << 2,  // pile taken for an opening; its rest joins the hand when the minimum is met
  kOpening = 1 << 3,      // the side had not opened when the turn began
  kAsked = 1 << 4,        // the player asked the partner
  kAnsweredYes = 1 << 5,  // ... who said yes: the player must go out this turn
  kAnsweredNo = 1 << 6,   // ... who said no: the player may not go out this turn
  kMeldedExtra = 1 << 7,  // the player melded beyond the top card of the pile (no more asking)
  kCommitted = 1 << 8,    // black threes melded: the player must go out this turn
  kAddedToOld = 1 << 9,   // the player added to a meld that existed when the turn began
};

// The members are ordered so that the state packs into 576 bytes (nine cache lines).
struct State {
  std::array<CardSet, kMaxSeats> hand;
  // Cards each seat took with the pile and has not played since: public knowledge.
  std::array<CardSet, kMaxSeats> known;
  std::array<TeamMelds, kMaxTeams> melds;
  std::array<int32_t, kMaxTeams> score_before;  // cumulative scores before this deal
  Rules rules;
  // The deck in dealt order; the stock is deck[stock_pos .. deck_size), top first.
  std::array<uint8_t, kMaxCards> deck;
  // The discard pile, bottom first; pile[pile_size - 1] is the top.
  std::array<uint8_t, kMaxCards> pile;
  std::array<uint8_t, kMaxSeats> red3;        // red threes exposed by each seat
  std::array<uint16_t, kMaxSeats> discarded;  // bit k: the seat has discarded kind k this deal
  uint8_t deck_size;
  uint8_t stock_pos;
  uint8_t pile_size;
  uint8_t dealer;
  uint8_t seat;  // the player whose turn it is
  Phase phase;
  EndReason end;
  int8_t out_seat;    // the seat that went out, or -1
  uint8_t concealed;  // ConcealedBits: 0, or how the player went out concealed
  // The pile is frozen for everybody: it holds a wild card or a red three, or
  // (Rules::frozen_until_taken) it has not been taken yet in this deal.
  bool pile_frozen;
  uint8_t red3_pending;   // bit s: seat s still has dealt red threes to expose
  uint8_t melded_before;  // bit s: seat s melded in an earlier turn of this deal
  uint16_t flags;         // TurnFlag bits of the turn in progress
  int16_t turn_value;     // card value the side melded in this turn (for the opening)
  uint16_t start_ranks;   // ranks the side had melded when the turn began
  uint16_t turns;         // turns begun in this deal

  int stock_size() const { return deck_size - stock_pos; }
  int team() const { return rules.team_of(seat); }
  int top() const { return pile[pile_size - 1]; }
  bool over() const { return phase == Phase::kOver; }
  // The seat that chooses the next action.
  int actor() const { return phase == Phase::kAnswer ? rules.partner_of(seat) : seat; }
  // Cards of all kinds that the pile holds.
  CardSet pile_set() const;
};
static_assert(std::is_trivially_copyable_v<State>, "the state is copied by search");
static_assert(sizeof(State) <= 576, "the state must stay small enough to copy in nanoseconds");

// A deal's score for one side, item by item (core/doc/rules.md section 10).
struct DealScore {
  int melded = 0;    // card values of everything melded
  int in_hand = 0;   // minus the card values left in the partners' hands
  int canastas = 0;  // kNaturalCanastaBonus per natural, kMixedCanastaBonus per mixed, kWildCanastaBonus per
                     // wild canasta
  int red_threes = 0;  // red_three_score()
  int going_out = 0;   // kGoingOutBonus, or the concealed bonus
  int premiums = 0;    // kCanastronBonus, + kCanastaDeCanastas from seven canastas (premiums)
  int total() const { return melded + in_hand + canastas + red_threes + going_out + premiums; }
};

}  // namespace canasta
