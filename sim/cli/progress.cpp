#include "progress.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace canasta::cli {

std::string rate_text(double per_second) {
  return per_second >= 100 ? fmt::format("{:.0f}", per_second) : fmt::format("{:.3g}", per_second);
}

Progress::Progress(int64_t total, const char* unit) : total_(total), unit_(unit), tty_(::isatty(2) != 0) {}

void Progress::operator()(int64_t done) {
  const double seconds = this->seconds();
  const auto line = [&] {
    const double rate = static_cast<double>(done) / std::max(seconds, 1e-9);
    return fmt::format("{}/{} {}, {} {}/s, {:.0f} s left", static_cast<long long>(done),
                       static_cast<long long>(total_), unit_, rate_text(rate), unit_,
                       static_cast<double>(total_ - done) / std::max(rate, 1e-9));
  };
  if (!tty_) {
    // Off a terminal: a line after 10 s, then one a minute.
    const auto ms = static_cast<int64_t>(seconds * 1000);
    int64_t due = next_log_ms_.load();
    if (ms < due || !next_log_ms_.compare_exchange_strong(due, ms + 60000)) return;
    fmt::print(stderr, "canasta: {}\n", line());
    return;
  }
  const int64_t step = std::max<int64_t>(total_ / 200, 1);
  int64_t prev = last_.load();
  if (done - prev < step || !last_.compare_exchange_strong(prev, done)) return;
  fmt::print(stderr, "\r{}   ", line());
}

void Progress::clear() {
  if (tty_ && last_.load() > 0) fmt::print(stderr, "\r{:78}\r", "");
  last_ = 0;
}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

}  // namespace canasta::cli
