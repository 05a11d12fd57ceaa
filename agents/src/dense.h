// The dense arithmetic of the learned models' forward passes (value and
// policy): one layer over the nonzero entries of its input, column by
// column, so that the many zero features and inactive units cost nothing.
// With AVX2 where the processor has it; the products are added in the same
// order either way (no fused multiply-add), so the results are the same bits.
#pragma once

namespace canasta::dense {

// Writes the indices of the nonzero entries of x[0, n) to `nonzero`, without
// a branch (the pattern of zeros is irregular: a branch per entry would
// mispredict often), and returns their count.
int nonzero_indices(const float* x, int n, int* nonzero);

// next[0, out) += the rows `rows` (count of them) of w (row-major, `out`
// wide) times x.
void add_rows(const float* w, const float* x, const int* rows, int count, int out, float* next);

// The dot product of a[0, n) and b[0, n), n a multiple of 8, summed in the
// same order whatever the processor.
float dot(const float* a, const float* b, int n);

}  // namespace canasta::dense
