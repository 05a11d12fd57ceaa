// Progress on stderr: done, rate and time left, on one line kept up to date
// on a terminal; elsewhere (a batch job's log) a line after 10 s and then
// every minute.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>

namespace canasta::cli {

class Progress {
 public:
  Progress(int64_t total, const char* unit);
  ~Progress() { clear(); }
  void operator()(int64_t done);
  void clear();
  double seconds() const;

 private:
  int64_t total_;
  const char* unit_;
  bool tty_;
  std::atomic<int64_t> last_{0};
  std::atomic<int64_t> next_log_ms_{10000};  // off a terminal: when the next line is due
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

// A rate for the printouts: whole numbers from 100 up, three significant
// figures below (a search at 0.27 deals/s does not print as 0).
std::string rate_text(double per_second);

}  // namespace canasta::cli
