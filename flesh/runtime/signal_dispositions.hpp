#pragma once
// Signals around a run.
//
// stop_signal_handlers: while a run loops, SIGINT, SIGTERM and SIGHUP (the terminal or ssh
// connection closed) only record themselves; the loop stops at the next routine or iteration
// boundary, so buffered output is flushed whole, the run says where it stopped instead of dying
// mid-line, and an output folder it wrote nothing in goes. A second signal kills as before
// (SA_RESETHAND), for a routine that never returns. SIGPIPE (the reader of its output went,
// `opuntia wave.par | head`) stops it alike; it stays recorded, since every later write to the
// pipe raises it again, and such writes fail instead of killing the run before it cleans up.
//
// keep_signal_dispositions: pocl initialises LLVM, which installs handlers for SIGHUP, SIGINT,
// SIGQUIT, SIGTERM, SIGUSR1/2, SIGXCPU and SIGXFSZ that remove its temporary files and then
// return (or re-raise only some): a SIGQUIT is swallowed, SIGUSR1 ignored, and an ignored SIGINT
// (`nohup`, `&` in a script) handled after all. Made around the creation of a backend, it puts
// back the dispositions the process had; fault signals (SIGSEGV, SIGFPE, ...) keep the
// library's handlers, which pocl needs (SIGFPE from kernel integer division) and which re-raise.
#include <csignal>
#include <cstddef>
#include <iterator>

namespace opuntia {

/// The signals that stop a run at a routine boundary (stop_signal_handlers).
inline constexpr int stop_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};

class stop_signal_handlers {
public:
  /// Installs the handlers, except for a signal the process ignores (it stays ignored).
  stop_signal_handlers();
  ~stop_signal_handlers();
  stop_signal_handlers(const stop_signal_handlers&) = delete;
  stop_signal_handlers& operator=(const stop_signal_handlers&) = delete;

  /// The signal received since the handlers were installed; 0: none.
  int received() const;

private:
  struct sigaction previous_[std::size(stop_signals)] {};
  bool installed_[std::size(stop_signals)] {};
};

/// "SIGINT", "SIGTERM", ...: the signals stop_signal_handlers records.
const char* stop_signal_name(int signal);

class keep_signal_dispositions {
public:
  keep_signal_dispositions();
  /// Puts back each disposition that changed since construction.
  ~keep_signal_dispositions();
  keep_signal_dispositions(const keep_signal_dispositions&) = delete;
  keep_signal_dispositions& operator=(const keep_signal_dispositions&) = delete;

private:
  // The asynchronous signals: those a user or the system sends, not faults of the process.
  static constexpr int signals_[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGPIPE, SIGXCPU, SIGXFSZ};
  struct sigaction kept_[std::size(signals_)] {};
};

}  // namespace opuntia
