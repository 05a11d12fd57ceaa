#include "dense.h"

#include <array>
#include <cstddef>
#include <cstring>

// AVX2 clones of the forward pass's inner loops, chosen at load time where
// the processor has AVX2 (GCC and Clang on x86-64). Not under
// ThreadSanitizer: the clone resolver runs before its runtime starts.
#if defined(__SANITIZE_THREAD__)
#define CANASTA_AVX2_CLONES
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CANASTA_AVX2_CLONES
#endif
#endif
#if !defined(CANASTA_AVX2_CLONES) && defined(__x86_64__) && defined(__has_attribute)
#if __has_attribute(target_clones)
#define CANASTA_AVX2_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef CANASTA_AVX2_CLONES
#define CANASTA_AVX2_CLONES
#endif

namespace canasta::dense {

namespace {

// next[0, out) += the rows `rows` of w (row-major, `out` wide) times x.
// With AVX2 where the processor has it; the products are added in the same
// order either way (no fused multiply-add), so the results are the same bits.
// A layer of a usual width keeps its sums in registers (kOut known here).
using Floats8 = float __attribute__((vector_size(32)));

// (Inlined into one cloned function per width: Clang clones no templates.)
template <int kOut>
[[gnu::always_inline]] inline void add_rows_of(const float* __restrict w, const float* __restrict x,
                                               const int* __restrict rows, int count,
                                               float* __restrict next) {
  static_assert(kOut % 8 == 0);
  constexpr int kVectors = kOut / 8;
  std::array<Floats8, kVectors> sum;
  std::memcpy(sum.data(), next, sizeof sum);
  for (int r = 0; r < count; ++r) {
    const Floats8 xi = Floats8{} + x[rows[r]];
    const float* wi = w + static_cast<ptrdiff_t>(rows[r]) * kOut;
    for (int j = 0; j < kVectors; ++j) {
      Floats8 wj;
      std::memcpy(&wj, wi + 8 * j, sizeof wj);
      sum[static_cast<size_t>(j)] += wj * xi;
    }
  }
  std::memcpy(next, sum.data(), sizeof sum);
}

CANASTA_AVX2_CLONES void add_rows_any(const float* __restrict w, const float* __restrict x,
                                      const int* __restrict rows, int count, int out,
                                      float* __restrict next) {
  for (int r = 0; r < count; ++r) {
    const float xi = x[rows[r]];
    const float* wi = w + static_cast<ptrdiff_t>(rows[r]) * out;
    for (int o = 0; o < out; ++o) next[o] += wi[o] * xi;
  }
}

CANASTA_AVX2_CLONES void add_rows_16(const float* w, const float* x, const int* rows, int count,
                                     float* next) {
  add_rows_of<16>(w, x, rows, count, next);
}
CANASTA_AVX2_CLONES void add_rows_32(const float* w, const float* x, const int* rows, int count,
                                     float* next) {
  add_rows_of<32>(w, x, rows, count, next);
}
CANASTA_AVX2_CLONES void add_rows_64(const float* w, const float* x, const int* rows, int count,
                                     float* next) {
  add_rows_of<64>(w, x, rows, count, next);
}

CANASTA_AVX2_CLONES float dot_8(const float* __restrict a, const float* __restrict b, int n) {
  Floats8 sum{};
  for (int i = 0; i < n; i += 8) {
    Floats8 x, y;
    std::memcpy(&x, a + i, sizeof x);
    std::memcpy(&y, b + i, sizeof y);
    sum += x * y;
  }
  float total = 0;
  for (int j = 0; j < 8; ++j) total += sum[j];
  return total;
}

}  // namespace

int nonzero_indices(const float* x, int n, int* nonzero) {
  int count = 0;
  for (int i = 0; i < n; ++i) {
    nonzero[count] = i;
    count += x[i] != 0 ? 1 : 0;
  }
  return count;
}

void add_rows(const float* w, const float* x, const int* rows, int count, int out, float* next) {
  switch (out) {
    case 16:
      return add_rows_16(w, x, rows, count, next);
    case 32:
      return add_rows_32(w, x, rows, count, next);
    case 64:
      return add_rows_64(w, x, rows, count, next);
    default:
      return add_rows_any(w, x, rows, count, out, next);
  }
}

float dot(const float* a, const float* b, int n) { return dot_8(a, b, n); }

}  // namespace canasta::dense
