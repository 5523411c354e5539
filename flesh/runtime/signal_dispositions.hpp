#pragma once
// Signals around a run.
//
// stop_signal_handlers: while a run loops, SIGINT and SIGTERM only record themselves; the loop
// stops at the next routine or iteration boundary, so buffered output is flushed whole and the
// run says where it stopped instead of dying mid-line. A second signal kills as before
// (SA_RESETHAND), for a routine that never returns.
//
// keep_signal_dispositions: pocl initialises LLVM, which installs handlers for SIGHUP, SIGINT,
// SIGQUIT, SIGTERM, SIGUSR1/2, SIGXCPU and SIGXFSZ that remove its temporary files and then
// return (or re-raise only some): a SIGQUIT is swallowed, SIGUSR1 ignored, and an ignored SIGINT
// (`nohup`, `&` in a script) handled after all. Made around the creation of a backend, it puts
// back the dispositions the process had; fault signals (SIGSEGV, SIGFPE, ...) keep the
// library's handlers, which pocl needs (SIGFPE from kernel integer division) and which re-raise.
#include <csignal>
#include <cstddef>

namespace opuntia {

namespace signal_detail {
inline volatile std::sig_atomic_t stop_signal = 0;
extern "C" inline void record_stop_signal(int signal) { stop_signal = signal; }

inline bool same_disposition(const struct sigaction& a, const struct sigaction& b) {
  return a.sa_handler == b.sa_handler && (a.sa_flags & SA_SIGINFO) == (b.sa_flags & SA_SIGINFO);
}
}  // namespace signal_detail

class stop_signal_handlers {
public:
  /// Installs the handlers, except for a signal the process ignores (it stays ignored).
  stop_signal_handlers() {
    signal_detail::stop_signal = 0;
    for (std::size_t i = 0; i < std::size(signals_); ++i) {
      sigaction(signals_[i], nullptr, &previous_[i]);
      if (previous_[i].sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = signal_detail::record_stop_signal;
      sigemptyset(&action.sa_mask);
      action.sa_flags = SA_RESTART | SA_RESETHAND;  // restart interrupted writes; a second signal kills
      installed_[i] = sigaction(signals_[i], &action, nullptr) == 0;
    }
  }
  ~stop_signal_handlers() {
    for (std::size_t i = 0; i < std::size(signals_); ++i) {
      if (installed_[i]) sigaction(signals_[i], &previous_[i], nullptr);
    }
  }
  stop_signal_handlers(const stop_signal_handlers&) = delete;
  stop_signal_handlers& operator=(const stop_signal_handlers&) = delete;

  /// The signal received since the handlers were installed; 0: none.
  int received() const { return signal_detail::stop_signal; }

private:
  static constexpr int signals_[] = {SIGINT, SIGTERM};
  struct sigaction previous_[std::size(signals_)] {};
  bool installed_[std::size(signals_)] {};
};

/// "SIGINT" or "SIGTERM": the signals stop_signal_handlers records.
inline const char* stop_signal_name(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "a signal";
}

class keep_signal_dispositions {
public:
  keep_signal_dispositions() {
    for (std::size_t i = 0; i < std::size(signals_); ++i) sigaction(signals_[i], nullptr, &kept_[i]);
  }
  /// Puts back each disposition that changed since construction.
  ~keep_signal_dispositions() {
    for (std::size_t i = 0; i < std::size(signals_); ++i) {
      struct sigaction now {};
      sigaction(signals_[i], nullptr, &now);
      if (!signal_detail::same_disposition(now, kept_[i])) sigaction(signals_[i], &kept_[i], nullptr);
    }
  }
  keep_signal_dispositions(const keep_signal_dispositions&) = delete;
  keep_signal_dispositions& operator=(const keep_signal_dispositions&) = delete;

private:
  // The asynchronous signals: those a user or the system sends, not faults of the process.
  static constexpr int signals_[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGXCPU, SIGXFSZ};
  struct sigaction kept_[std::size(signals_)] {};
};

}  // namespace opuntia
