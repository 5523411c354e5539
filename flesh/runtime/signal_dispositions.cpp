#include "flesh/runtime/signal_dispositions.hpp"

#include <atomic>

namespace opuntia {
namespace {

// Atomic, not volatile sig_atomic_t: the handler may run on any thread that leaves the signal
// unblocked (an OpenMP worker), and the run's thread reads it. Lock-free, so safe in a handler.
std::atomic<int> stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void record_stop_signal(int signal) { stop_signal = signal; }

bool same_disposition(const struct sigaction& a, const struct sigaction& b) {
  return a.sa_handler == b.sa_handler && (a.sa_flags & SA_SIGINFO) == (b.sa_flags & SA_SIGINFO);
}

}  // namespace

stop_signal_handlers::stop_signal_handlers() {
  stop_signal = 0;
  for (std::size_t i = 0; i < std::size(stop_signals); ++i) {
    sigaction(stop_signals[i], nullptr, &previous_[i]);
    if (previous_[i].sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = record_stop_signal;
    sigemptyset(&action.sa_mask);
    // Restart interrupted writes; a second signal kills, but for SIGPIPE, which each write to a
    // closed pipe raises.
    action.sa_flags = SA_RESTART | (stop_signals[i] == SIGPIPE ? 0 : SA_RESETHAND);
    installed_[i] = sigaction(stop_signals[i], &action, nullptr) == 0;
  }
}

stop_signal_handlers::~stop_signal_handlers() {
  for (std::size_t i = 0; i < std::size(stop_signals); ++i) {
    if (installed_[i]) sigaction(stop_signals[i], &previous_[i], nullptr);
  }
}

int stop_signal_handlers::received() const { return stop_signal; }

const char* stop_signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    case SIGPIPE: return "SIGPIPE";
    default: return "a signal";
  }
}

keep_signal_dispositions::keep_signal_dispositions() {
  for (std::size_t i = 0; i < std::size(signals_); ++i) sigaction(signals_[i], nullptr, &kept_[i]);
}

keep_signal_dispositions::~keep_signal_dispositions() {
  for (std::size_t i = 0; i < std::size(signals_); ++i) {
    struct sigaction now {};
    sigaction(signals_[i], nullptr, &now);
    if (!same_disposition(now, kept_[i])) sigaction(signals_[i], &kept_[i], nullptr);
  }
}

}  // namespace opuntia
