#include "cluster.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "canasta/params.h"

#if defined(CANASTA_MPI)
#include <mpi.h>
#endif

namespace canasta::cli {

namespace {

Cluster g_cluster;

#if defined(CANASTA_MPI)
// Ends the run when an MPI call fails, naming the rank.
void check(int status, const char* what, const std::string& path = {}) {
  if (status == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(status, text, &length);
  cluster_abort(
      fmt::format("{}{}: {}", what, path.empty() ? "" : " '" + path + "'", std::string(text, length)), 1);
}
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

Processes cluster_processes() {
  Processes p;
  p.index = g_cluster.rank;
  p.count = g_cluster.size;
#if defined(CANASTA_MPI)
  p.sum = [](std::span<int64_t> words) {
    check(MPI_Allreduce(MPI_IN_PLACE, words.data(), static_cast<int>(words.size()), MPI_INT64_T, MPI_SUM,
                        MPI_COMM_WORLD),
          "a sum over the ranks");
  };
#endif
  return p;
}

std::string cluster_broadcast(const std::string& text) {
#if defined(CANASTA_MPI)
  if (g_cluster.size > 1) {
    int64_t size = static_cast<int64_t>(text.size());
    MPI_Bcast(&size, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    std::string out = g_cluster.rank == 0 ? text : std::string(static_cast<size_t>(size), '\0');
    MPI_Bcast(out.data(), static_cast<int>(size), MPI_CHAR, 0, MPI_COMM_WORLD);
    return out;
  }
#endif
  return text;
}

void cluster_concat(const std::string& path, const std::string& head, const std::vector<int64_t>& sizes,
                    const std::function<void(size_t b, int64_t bytes, std::string& text)>& part) {
#if defined(CANASTA_MPI)
  // The batches: as many as the rank with the most.
  int64_t batches = static_cast<int64_t>(sizes.size());
  MPI_Allreduce(MPI_IN_PLACE, &batches, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  // Where each part goes: the bytes of the ranks before this one in each
  // batch (an exclusive scan) and of whole batches (a sum).
  std::vector<int64_t> mine(static_cast<size_t>(batches), 0), before(mine.size(), 0), total(mine.size(), 0);
  std::copy(sizes.begin(), sizes.end(), mine.begin());
  const int n = static_cast<int>(batches);
  MPI_Exscan(mine.data(), before.data(), n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (g_cluster.rank == 0) std::fill(before.begin(), before.end(), 0);  // MPI leaves rank 0's undefined
  MPI_Allreduce(mine.data(), total.data(), n, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  MPI_File file;
  check(MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &file),
        "cannot open", path);
  check(MPI_File_set_size(file, 0), "cannot write", path);
  int64_t start = static_cast<int64_t>(head.size());
  if (g_cluster.rank == 0 && !head.empty())
    check(MPI_File_write_at(file, 0, head.data(), static_cast<int>(head.size()), MPI_CHAR, MPI_STATUS_IGNORE),
          "cannot write", path);
  constexpr int64_t kPiece = int64_t{1} << 26;  // bytes held and written at a time
  std::string text;
  for (size_t b = 0; b < mine.size(); ++b) {
    for (int64_t at = 0; at < mine[b]; at += kPiece) {
      const int64_t len = std::min(kPiece, mine[b] - at);
      part(b, len, text);
      if (static_cast<int64_t>(text.size()) != len) cluster_abort("a part changed size: " + path, 1);
      check(MPI_File_write_at(file, start + before[b] + at, text.data(), static_cast<int>(len), MPI_CHAR,
                              MPI_STATUS_IGNORE),
            "cannot write", path);
    }
    start += total[b];
  }
  check(MPI_File_close(&file), "cannot write", path);
#else
  // One process writes its files from memory (sim.cpp): only ranks come here.
  (void)path, (void)head, (void)sizes, (void)part;
  cluster_abort("cluster_concat is for the MPI build", 1);
#endif
}

void cluster_abort(const std::string& message, int code) {
  std::fprintf(stderr, "canasta: rank %d of %d: %s\n", g_cluster.rank, g_cluster.size,
               printable(message, 400).c_str());
  std::fflush(stderr);
#if defined(CANASTA_MPI)
  if (g_cluster.size > 1) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

}  // namespace canasta::cli
