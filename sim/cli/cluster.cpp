#include "cluster.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <type_traits>

#if defined(CANASTA_MPI)
#include <mpi.h>
#endif

namespace canasta::cli {

namespace {

Cluster g_cluster;

#if defined(CANASTA_MPI)
// Sends a rank's rows to rank 0 in pieces that MPI's int counts can hold.
template <class Row>
void gather(std::vector<Row>& rows) {
  static_assert(std::is_trivially_copyable_v<Row>);
  constexpr int64_t kPiece = int64_t{1} << 26;  // bytes a message
  if (g_cluster.size == 1) return;
  if (g_cluster.rank != 0) {
    const int64_t bytes = static_cast<int64_t>(rows.size() * sizeof(Row));
    MPI_Send(&bytes, 1, MPI_INT64_T, 0, 0, MPI_COMM_WORLD);
    const auto* p = reinterpret_cast<const char*>(rows.data());
    for (int64_t at = 0; at < bytes; at += kPiece)
      MPI_Send(p + at, static_cast<int>(std::min(kPiece, bytes - at)), MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    rows.clear();
    return;
  }
  for (int from = 1; from < g_cluster.size; ++from) {
    int64_t bytes = 0;
    MPI_Recv(&bytes, 1, MPI_INT64_T, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const size_t before = rows.size();
    rows.resize(before + static_cast<size_t>(bytes) / sizeof(Row));
    auto* p = reinterpret_cast<char*>(rows.data() + before);
    for (int64_t at = 0; at < bytes; at += kPiece)
      MPI_Recv(p + at, static_cast<int>(std::min(kPiece, bytes - at)), MPI_BYTE, from, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  }
}
#else
template <class Row>
void gather(std::vector<Row>&) {}
#endif

}  // namespace

void cluster_start(int& argc, char**& argv) {
#if defined(CANASTA_MPI)
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_cluster.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_cluster.size);
  // Rank 0 speaks for the run; the others are quiet but for their own failures.
  if (g_cluster.rank != 0 && !std::freopen("/dev/null", "w", stdout)) std::abort();
#else
  (void)argc;
  (void)argv;
#endif
}

void cluster_stop() {
#if defined(CANASTA_MPI)
  MPI_Finalize();
#endif
}

const Cluster& cluster() { return g_cluster; }

bool cluster_collective(std::array<int64_t, 5>& counts, bool stopped) {
#if defined(CANASTA_MPI)
  if (g_cluster.size > 1) {
    std::array<int64_t, 6> mine{counts[0], counts[1], counts[2], counts[3], counts[4], stopped ? 1 : 0},
        sum{};
    MPI_Allreduce(mine.data(), sum.data(), 6, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    for (size_t i = 0; i < counts.size(); ++i) counts[i] = sum[i];
    return sum[5] > 0;
  }
#else
  (void)counts;
#endif
  return stopped;
}

void cluster_gather(std::vector<DealRow>& rows) { gather(rows); }
void cluster_gather(std::vector<GameRow>& rows) { gather(rows); }

void cluster_abort(const std::string& message, int code) {
  std::fprintf(stderr, "canasta: rank %d of %d: %s\n", g_cluster.rank, g_cluster.size, message.c_str());
  std::fflush(stderr);
#if defined(CANASTA_MPI)
  if (g_cluster.size > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

}  // namespace canasta::cli
