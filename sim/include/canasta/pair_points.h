// A match's duplicate pairs one by one: what the first agent scored over
// each deal index's two deals. The tournament's rating intervals need them
// (canasta/bradley_terry.h): every match plays the same deals, so the
// matches' results on one deal index move together.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace canasta {

// A's points over a pair, by deal index 0 .. size-1: a won deal 2, a drawn
// one 1, a lost one 0, so 0 to 4 a pair, or none where the pair is not
// played. One byte a pair, kept in int64 words: processes that played
// parts of a match (MPI ranks) add their words up, each pair set by one of
// them (an unplayed pair's byte is 0).
class PairPoints {
 public:
  static constexpr int kUnplayed = -1;

  PairPoints() = default;
  explicit PairPoints(int64_t pairs);  // all unplayed

  int64_t size() const { return size_; }
  // The points of pair `deal` (0 .. 4), or kUnplayed. Precondition: 0 <= deal < size().
  int at(int64_t deal) const {
    const uint64_t word = static_cast<uint64_t>(words_[static_cast<size_t>(deal >> 3)]);
    return static_cast<int>((word >> ((deal & 7) * 8)) & 0xff) - 1;
  }
  // Sets pair `deal` to `points` (0 .. 4); it must be unplayed.
  void set(int64_t deal, int points);
  // Adds the pairs of `o` (the same size), none of them played here.
  void add(const PairPoints& o);
  std::span<int64_t> words() { return words_; }

  int64_t played() const;  // pairs played
  int64_t total() const;   // their points, summed

 private:
  int64_t size_ = 0;
  std::vector<int64_t> words_;
};

// A match's pairs as text, one character a pair: '0' to '4' its points,
// '.' unplayed (pairs.txt of a tournament's directory).
std::string pair_points_text(const PairPoints& p);
// Reads that text; false on any other character.
bool read_pair_points(std::string_view text, PairPoints& out);

}  // namespace canasta
