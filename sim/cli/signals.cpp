#include "signals.h"

#include <unistd.h>

#include <csignal>

namespace canasta::cli {

std::atomic<bool>& stop_requested() {
  static std::atomic<bool> stop{false};
  return stop;
}

namespace {

std::atomic<int> g_signal{0};

void on_signal(int signal) {
  g_signal = signal;
  stop_requested() = true;
  std::signal(signal, SIG_DFL);  // a second one ends the program at once
  // Said at once (write is safe in a handler): a search's deal can take long.
  static constexpr char kSaid[] =
      "\ncanasta: stopping once the deals in progress end (a second signal ends it at once)\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kSaid, sizeof kSaid - 1);
}

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

}  // namespace

int stop_signal() { return g_signal.load(); }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

StopOnSignals::StopOnSignals() {
  g_signal = 0;
  for (const int sig : kStopSignals) std::signal(sig, on_signal);
}

StopOnSignals::~StopOnSignals() {
  for (const int sig : kStopSignals) std::signal(sig, SIG_DFL);
}

}  // namespace canasta::cli
