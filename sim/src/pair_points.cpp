#include "canasta/pair_points.h"

#include <cassert>

namespace canasta {

PairPoints::PairPoints(int64_t pairs) : size_(pairs), words_(static_cast<size_t>((pairs + 7) / 8), 0) {}

void PairPoints::set(int64_t deal, int points) {
  assert(deal >= 0 && deal < size_ && points >= 0 && points <= 4 && at(deal) == kUnplayed);
  // The byte holds points + 1, so that an unplayed pair is 0 and sums of
  // words that each set other pairs carry nothing between bytes.
  words_[static_cast<size_t>(deal >> 3)] += static_cast<int64_t>(points + 1) << ((deal & 7) * 8);
}

void PairPoints::add(const PairPoints& o) {
  assert(o.size_ == size_);
  for (size_t i = 0; i < words_.size(); ++i) words_[i] += o.words_[i];
}

int64_t PairPoints::played() const {
  int64_t n = 0;
  for (int64_t d = 0; d < size_; ++d) n += at(d) != kUnplayed;
  return n;
}

int64_t PairPoints::total() const {
  int64_t sum = 0;
  for (int64_t d = 0; d < size_; ++d) sum += at(d) == kUnplayed ? 0 : at(d);
  return sum;
}

std::string pair_points_text(const PairPoints& p) {
  std::string out(static_cast<size_t>(p.size()), '.');
  for (int64_t d = 0; d < p.size(); ++d)
    if (p.at(d) != PairPoints::kUnplayed) out[static_cast<size_t>(d)] = static_cast<char>('0' + p.at(d));
  return out;
}

bool read_pair_points(std::string_view text, PairPoints& out) {
  out = PairPoints(static_cast<int64_t>(text.size()));
  for (size_t d = 0; d < text.size(); ++d) {
    const char c = text[d];
    if (c == '.') continue;
    if (c < '0' || c > '4') return false;
    out.set(static_cast<int64_t>(d), c - '0');
  }
  return true;
}

}  // namespace canasta
