// Small value types of the engine: card kinds, card multisets, actions.
// Everything here is constexpr, trivially copyable and free of pointers.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace canasta {

// Suits have no function in Canasta; only the colour of a three matters, so
// the engine knows 15 card kinds. Wild cards first, then the threes, then the
// natural ranks 4..A in order.
enum Kind : uint8_t {
  kJoker,
  kTwo,
  kRed3,
  kBlack3,
  kFour,
  kFive,
  kSix,
  kSeven,
  kEight,
  kNine,
  kTen,
  kJack,
  kQueen,
  kKing,
  kAce,
  kKindNb
};
constexpr int kFirstNatural = kFour;
constexpr int kLastNatural = kAce;

constexpr int kMaxSeats = 6;    // largest table of any profile
constexpr int kMaxTeams = 3;    // largest number of sides of any profile
constexpr int kMaxCards = 162;  // three decks and six jokers

constexpr bool is_wild(int k) { return k == kJoker || k == kTwo; }
constexpr bool is_natural(int k) { return k >= kFirstNatural && k <= kLastNatural; }

// Card value when melded (plus) or left in a hand (minus). Red threes score as
// a bonus (see scoring), never as a card value.
inline constexpr std::array<int, kKindNb> kCardValues{50, 20, 0, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20};
// (A table at namespace scope: a constexpr array local to the function is
// built on the stack at every call with a run-time kind.)
constexpr int card_value(int k) { return kCardValues[static_cast<std::size_t>(k)]; }

namespace detail {
constexpr uint64_t nib(int k) { return uint64_t{15} << (4 * k); }
constexpr uint64_t kMask50 = nib(kJoker);
constexpr uint64_t kMask20 = nib(kTwo) | nib(kAce);
constexpr uint64_t kMask10 = nib(kEight) | nib(kNine) | nib(kTen) | nib(kJack) | nib(kQueen) | nib(kKing);
constexpr uint64_t kMask5 = nib(kBlack3) | nib(kFour) | nib(kFive) | nib(kSix) | nib(kSeven);
}  // namespace detail

// A multiset of card kinds: 15 counters of 4 bits in one 64-bit word, the
// counter of kind k in bits [4k, 4k+4). A counter holds 0..15; the largest
// number of copies of one kind in any deck is 12, so a zone never overflows.
// + and - work on whole words; the caller guarantees that no counter wraps
// (subtraction only of a subset), which the debug build checks.
class CardSet {
 public:
  constexpr CardSet() = default;
  constexpr explicit CardSet(uint64_t raw) : raw_(raw) {}

  constexpr uint64_t raw() const { return raw_; }
  constexpr int count(int k) const { return static_cast<int>((raw_ >> (4 * k)) & 15U); }
  constexpr void add(int k, int n = 1) { raw_ += static_cast<uint64_t>(n) << (4 * k); }
  constexpr void remove(int k, int n = 1) { raw_ -= static_cast<uint64_t>(n) << (4 * k); }
  constexpr void set(int k, int n) {
    raw_ = (raw_ & ~(uint64_t{15} << (4 * k))) | (static_cast<uint64_t>(n) << (4 * k));
  }
  constexpr bool empty() const { return raw_ == 0; }

  // Number of cards: the 15 counters summed with two masked adds and one multiply.
  constexpr int total() const {
    uint64_t bytes = (raw_ & 0x0F0F0F0F0F0F0F0FULL) + ((raw_ >> 4) & 0x0F0F0F0F0F0F0F0FULL);
    return static_cast<int>((bytes * 0x0101010101010101ULL) >> 56);
  }
  // Card value of the whole set, by value class.
  constexpr int value() const {
    using namespace detail;
    return 50 * CardSet(raw_ & kMask50).total() + 20 * CardSet(raw_ & kMask20).total() +
           10 * CardSet(raw_ & kMask10).total() + 5 * CardSet(raw_ & kMask5).total();
  }
  // Bit k set when the set holds at least one card of kind k.
  constexpr uint16_t kinds() const { return gather(~none_bits() & kLowBits); }
  // Bit 4k of a word, where a caller needs no gathered mask: exactly one
  // card of kind k, exactly two, two or more, none.
  constexpr uint64_t single_bits() const {
    return raw_ & ~((raw_ >> 1) | (raw_ >> 2) | (raw_ >> 3)) & kLowBits;
  }
  constexpr uint64_t two_bits() const {  // exactly two
    return (raw_ >> 1) & ~(raw_ | (raw_ >> 2) | (raw_ >> 3)) & kLowBits;
  }
  constexpr uint64_t pair_bits() const {                        // two or more
    const uint64_t half = (raw_ >> 1) & 0x7777777777777777ULL;  // count / 2 per counter
    return (half | (half >> 1) | (half >> 2)) & kLowBits;
  }
  constexpr uint64_t none_bits() const {
    return ~(raw_ | (raw_ >> 1) | (raw_ >> 2) | (raw_ >> 3)) & kLowBits;
  }
  constexpr int wilds() const { return count(kJoker) + count(kTwo); }

  friend constexpr CardSet operator+(CardSet a, CardSet b) { return CardSet(a.raw_ + b.raw_); }
  friend constexpr CardSet operator-(CardSet a, CardSet b) { return CardSet(a.raw_ - b.raw_); }
  friend constexpr bool operator==(CardSet a, CardSet b) { return a.raw_ == b.raw_; }
  // True when every counter of b is at most the counter of a.
  constexpr bool contains(CardSet b) const {
    for (int k = 0; k < kKindNb; ++k)
      if (b.count(k) > count(k)) return false;
    return true;
  }

 private:
  static constexpr uint64_t kLowBits = 0x1111111111111111ULL;  // the low bit of every counter
  // One bit per nibble (bit 4k) gathered into bit k, in four shift-and-mask steps.
  static constexpr uint16_t gather(uint64_t x) {
    x = (x | (x >> 3)) & 0x0303030303030303ULL;
    x = (x | (x >> 6)) & 0x000F000F000F000FULL;
    x = (x | (x >> 12)) & 0x000000FF000000FFULL;
    return static_cast<uint16_t>(x | (x >> 24));
  }
  uint64_t raw_ = 0;
};
static_assert(sizeof(CardSet) == 8 && std::is_trivially_copyable_v<CardSet>);
static_assert(4 * kKindNb <= 64, "15 counters of 4 bits must fit one word");

// An action is 32 bits:
//   bits  0-3   ActionType
//   bits  4-7   kind: the rank of the meld (kBlack3 for black threes), the top
//               card when taking the pile, the card discarded
//   bits  8-11  naturals taken from the hand (0..12)
//   bits 12-14  jokers taken from the hand (0..7)
//   bits 15-17  twos taken from the hand (0..7)
//   bits 18-21  destination (cleaning only): the rank of the meld that
//               receives the freed wild card (kTwo: the side's wild meld)
// Draw, ask, yes, no and pass carry no payload. A meld of kind kTwo is the
// side's meld of wild cards only (profiles with wild melds). A cleaning
// (profiles with closed canastas) has kind = the rank of the mixed canasta
// cleaned (one natural of it comes from the hand), jokers or twos = 1 for the
// wild card freed, dest = where that wild goes, naturals = 0 when it joins an
// existing meld, or 2 when it starts a new meld of `dest` with a natural pair
// from the hand. The integer value of an
// action is an identity, not an order: legal-action lists follow order_key().
enum class ActionType : uint8_t {
  kDraw,      // draw from the stock (one or two cards, by profile)
  kTakePile,  // take the discard pile, melding its top with the given hand cards
  kMeld,      // start a meld of `kind`, or add cards to the side's meld of `kind`
  kAsk,       // ask the partner "may I go out?"
  kYes,       // the partner's answer: yes (binding: go out this turn)
  kNo,        // the partner's answer: no (binding: may not go out this turn)
  kPass,      // decline the pile when the stock is empty: the deal ends
  kDiscard,   // discard `kind`, ending the turn
  kClean,     // clean a mixed canasta: a natural from the hand replaces a wild card
  kTypeNb
};

class Action {
 public:
  // Left uninitialised by default so that an ActionList costs nothing to
  // create; Action{} is the zero action.
  Action() = default;
  constexpr explicit Action(uint32_t raw) : raw_(raw) {}
  static constexpr Action make(ActionType t, int kind = 0, int naturals = 0, int jokers = 0, int twos = 0) {
    return Action(static_cast<uint32_t>(t) | (static_cast<uint32_t>(kind) << 4) |
                  (static_cast<uint32_t>(naturals) << 8) | (static_cast<uint32_t>(jokers) << 12) |
                  (static_cast<uint32_t>(twos) << 15));
  }
  // Cleaning the mixed canasta of `rank`: the wild freed is a joker when
  // `joker`, else a two; it goes to the meld of `dest`, started with a natural
  // pair from the hand when `pair`.
  static constexpr Action clean(int rank, bool joker, int dest, bool pair) {
    return Action(make(ActionType::kClean, rank, pair ? 2 : 0, joker ? 1 : 0, joker ? 0 : 1).raw() |
                  static_cast<uint32_t>(dest) << 18);
  }
  constexpr uint32_t raw() const { return raw_; }
  constexpr ActionType type() const { return static_cast<ActionType>(raw_ & 15U); }
  constexpr int kind() const { return static_cast<int>((raw_ >> 4) & 15U); }
  constexpr int naturals() const { return static_cast<int>((raw_ >> 8) & 15U); }
  constexpr int jokers() const { return static_cast<int>((raw_ >> 12) & 7U); }
  constexpr int twos() const { return static_cast<int>((raw_ >> 15) & 7U); }
  constexpr int dest() const { return static_cast<int>((raw_ >> 18) & 15U); }
  // The hand cards the action uses (melded, or shown to take the pile).
  constexpr CardSet cards() const {
    CardSet s;
    if (type() == ActionType::kDiscard) {
      s.add(kind());
      return s;
    }
    if (type() == ActionType::kClean) {
      s.add(kind());
      s.add(dest(), naturals());
      return s;
    }
    s.add(kind(), naturals());
    s.add(kJoker, jokers());
    s.add(kTwo, twos());
    return s;
  }
  // The card value of cards(), from the counts.
  constexpr int value() const {
    if (type() == ActionType::kDiscard) return card_value(kind());
    if (type() == ActionType::kClean) return card_value(kind()) + naturals() * card_value(dest());
    return naturals() * card_value(kind()) + card_value(kJoker) * jokers() + card_value(kTwo) * twos();
  }
  friend constexpr bool operator==(Action a, Action b) { return a.raw_ == b.raw_; }
  friend constexpr bool operator<(Action a, Action b) { return a.raw_ < b.raw_; }

 private:
  uint32_t raw_;
};
static_assert(sizeof(Action) == 4 && std::is_trivially_copyable_v<Action>);

// The canonical order of actions, in which legal_actions() lists them,
// strictly increasing (no action twice):
//   draw; the ways to take the pile (with two naturals or adding the top to
//   the side's meld, then with a natural and a joker, then with a natural and
//   a two); pass; ask; yes; no; melds by rank (the wild meld first, then black
//   threes, then 4 to A), each rank by naturals, then jokers, then twos,
//   fewest first; cleanings last but one, by the canasta's rank, then the
//   destination (the wild meld first, then 4 to A), then an existing meld
//   before a new one, then the freed two before the freed joker; discards
//   last, by kind.
// order_key(a) < order_key(b) exactly when a comes before b.
constexpr uint32_t order_key(Action a) {
  constexpr std::array<uint32_t, static_cast<int>(ActionType::kTypeNb)> group{
      0,  // draw
      1,  // take the pile
      6,  // meld
      3,  // ask
      4,  // yes
      5,  // no
      2,  // pass
      8,  // discard
      7,  // clean
  };
  const auto n = static_cast<uint32_t>(a.naturals()), j = static_cast<uint32_t>(a.jokers()),
             t = static_cast<uint32_t>(a.twos());
  const uint32_t detail = a.type() == ActionType::kTakePile ? (t << 8 | j << 4 | (15 - n))
                          : a.type() == ActionType::kClean
                              ? (static_cast<uint32_t>(a.dest()) << 12 | n << 8 | j)
                              : (n << 8 | j << 4 | t);
  return group[static_cast<int>(a.type())] << 24 | static_cast<uint32_t>(a.kind()) << 16 | detail;
}

// A fixed-capacity list of actions: generating legal actions never allocates.
// legal_actions() fills it in canonical order (order_key).
// The bound: 11 ranks x 13 natural counts x 10 wild combinations, plus the
// discards and the few other actions, stays under 1536.
class ActionList {
 public:
  static constexpr int kCapacity = 1536;
  ActionList() {}  // elements stay uninitialised; only [0, size) is ever read
  void clear() { size_ = 0; }
  void push(Action a) { data_[size_++] = a; }
  // Appends base | from[i] for i in [0, n): where it fits, a whole block
  // of kBlock is written at once (from[] must then be readable that far),
  // with no branch on n.
  static constexpr int kBlock = 12;
  void push_codes(uint32_t base, const uint32_t* from, int n) {
    if (size_ + kBlock <= kCapacity && n <= kBlock) {
      using Words = uint32_t __attribute__((vector_size(16)));  // four actions
      for (int i = 0; i < kBlock; i += 4) {
        Words w;
        std::memcpy(&w, from + i, sizeof w);
        w |= base;
        std::memcpy(static_cast<void*>(data_.data() + size_ + i), &w, sizeof w);
      }
    } else {
      for (int i = 0; i < n; ++i) data_[size_ + i] = Action(base | from[i]);
    }
    size_ = static_cast<uint16_t>(size_ + n);
  }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Action operator[](int i) const { return data_[i]; }
  const Action* begin() const { return data_.data(); }
  const Action* end() const { return data_.data() + size_; }
  bool contains(Action a) const {
    for (int i = 0; i < size_; ++i)
      if (data_[i] == a) return true;
    return false;
  }

 private:
  std::array<Action, kCapacity> data_;
  // Not an int: a store into the 32-bit actions may then not alias the size
  // for the compiler, which keeps it in a register while a list is written.
  uint16_t size_ = 0;
};

}  // namespace canasta
