// The task pool of the project: runs chunks of an index range in parallel.
// oneTBB normally; in a ThreadSanitizer build (CANASTA_TSAN) the same chunks
// run on std::threads instead, since Debian's oneTBB is not built with
// ThreadSanitizer, which cannot see its synchronization and would report
// only false races. What that build checks is the project's own shared state.
#pragma once

#include <tbb/info.h>

#include <algorithm>
#include <cstdint>

#if defined(CANASTA_TSAN)
#include <atomic>
#include <thread>
#include <vector>
#else
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <optional>
#endif

namespace canasta {

// The worker threads of a run: `requested`, or when it is 0 every core the
// process may run on (its affinity mask, as mpirun or taskset set it).
inline int resolve_threads(int requested) {
  return requested > 0 ? requested : std::max(1, tbb::info::default_concurrency());
}

#if !defined(CANASTA_TSAN)
namespace detail {

// Runs `run` on `threads` threads (0: in the caller's pool). More threads
// than the process allows (by default, the cores) raise the limit while the
// arena runs, or TBB warns and runs fewer. The limit is process-wide, the
// smallest of the live controls: two such calls at once from different
// threads would hold each other to the smaller count. The project makes them
// one at a time (a run's deals or games); searches inside them pass 0 and
// run in the caller's pool.
template <class Run>
void in_arena(int threads, const Run& run) {
  if (threads <= 0) return run();
  using tbb::global_control;
  std::optional<global_control> wider;
  if (static_cast<size_t>(threads) > global_control::active_value(global_control::max_allowed_parallelism))
    wider.emplace(global_control::max_allowed_parallelism, static_cast<size_t>(threads));
  tbb::task_arena arena(threads);
  arena.execute(run);
}

}  // namespace detail
#endif

// Calls body(begin, end) on chunks of about `grain` indices covering
// [first, last), on `threads` threads (0: the pool the caller runs in), and
// returns when every chunk is done. Chunks run in any order.
template <class Body>
void parallel_chunks(int threads, int64_t first, int64_t last, int64_t grain, const Body& body) {
  if (first >= last) return;
#if defined(CANASTA_TSAN)
  const int64_t chunks = (last - first + grain - 1) / grain;
  const int64_t workers = std::min<int64_t>(chunks, resolve_threads(threads));
  std::atomic<int64_t> next{0};
  const auto work = [&] {
    for (int64_t c = next++; c < chunks; c = next++)
      body(first + c * grain, std::min(last, first + (c + 1) * grain));
  };
  std::vector<std::thread> pool;
  for (int64_t i = 1; i < workers; ++i) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
#else
  // Isolated: a thread that waits here for the chunks runs only them, never
  // other work of the arena (such as a runner's worker loop that has not
  // started), which could wait in turn for what this thread holds.
  detail::in_arena(threads, [&] {
    tbb::this_task_arena::isolate([&] {
      tbb::parallel_for(tbb::blocked_range<int64_t>(first, last, static_cast<size_t>(grain)),
                        [&](const tbb::blocked_range<int64_t>& r) { body(r.begin(), r.end()); });
    });
  });
#endif
}

// Calls body(w) for w = 0 .. threads-1 (0: as many as the caller's pool
// has), each on a thread of its own as far as the pool allows, and returns
// when all are done: long-lived workers that share out their work
// themselves (the runner's, from a counter, in order).
template <class Body>
void parallel_workers(int threads, const Body& body) {
#if defined(CANASTA_TSAN)
  const int n = resolve_threads(threads);
  std::vector<std::thread> pool;
  for (int w = 1; w < n; ++w) pool.emplace_back([&body, w] { body(w); });
  body(0);
  for (auto& t : pool) t.join();
#else
  detail::in_arena(threads, [&] {
    const int n = tbb::this_task_arena::max_concurrency();
    tbb::parallel_for(
        0, n, 1, [&](int w) { body(w); }, tbb::simple_partitioner());
  });
#endif
}

}  // namespace canasta
