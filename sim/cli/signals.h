// Runs stopped by a signal: a first SIGINT (Ctrl-C), SIGTERM or SIGHUP
// while StopOnSignals lives stops the run, which keeps every row that
// finished; a second one ends the program at once.
#pragma once

#include <atomic>

namespace canasta::cli {

// Set by the first signal (and by a failed write of a streamed file).
std::atomic<bool>& stop_requested();
int stop_signal();  // the signal that stopped the run, or 0
const char* signal_name(int signal);
struct StopOnSignals {
  StopOnSignals();
  ~StopOnSignals();
};

}  // namespace canasta::cli
