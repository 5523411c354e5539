#include "flesh/runtime/checkpoint_writer.hpp"

#include <pthread.h>

#include <chrono>
#include <csignal>
#include <exception>
#include <stdexcept>
#include <utility>

#include "flesh/runtime/signal_dispositions.hpp"

namespace opuntia {

namespace {

/// Blocks the stop signals (SIGINT, SIGTERM, ...) in the thread that makes it, for its lifetime:
/// a thread started meanwhile keeps them blocked, so they reach the run's thread, whose loop
/// stops the run (stop_signal_handlers), and never interrupt the writer's system calls.
class stop_signals_blocked {
public:
  stop_signals_blocked() {
    sigset_t stop;
    sigemptyset(&stop);
    for (const int signal : stop_signals) sigaddset(&stop, signal);
    pthread_sigmask(SIG_BLOCK, &stop, &previous_);
  }
  ~stop_signals_blocked() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }
  stop_signals_blocked(const stop_signals_blocked&) = delete;
  stop_signals_blocked& operator=(const stop_signals_blocked&) = delete;

private:
  sigset_t previous_{};
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

checkpoint_writer::~checkpoint_writer() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void checkpoint_writer::start(std::filesystem::path file, std::function<void()> write) {
  {
    const std::lock_guard lock(mutex_);
    if (busy_) {
      throw std::logic_error("checkpoint_writer::start: the outcome of the write of " + file_.string() +
                             " was not collected");
    }
    if (!thread_.joinable()) {
      const stop_signals_blocked blocked;
      thread_ = std::thread([this] { serve(); });
    }
    job_ = std::move(write);
    file_ = std::move(file);
    busy_ = true;
  }
  changed_.notify_all();
}

bool checkpoint_writer::busy() const {
  const std::lock_guard lock(mutex_);
  return busy_;
}

bool checkpoint_writer::writing() const {
  const std::lock_guard lock(mutex_);
  return busy_ && !ended_;
}

std::optional<checkpoint_writer::outcome> checkpoint_writer::finished() {
  const std::lock_guard lock(mutex_);
  if (!busy_ || !ended_) return std::nullopt;
  busy_ = false;
  return std::exchange(ended_, std::nullopt);
}

std::optional<checkpoint_writer::outcome> checkpoint_writer::wait() {
  std::unique_lock lock(mutex_);
  if (!busy_) return std::nullopt;
  changed_.wait(lock, [&] { return ended_.has_value(); });
  busy_ = false;
  return std::exchange(ended_, std::nullopt);
}

void checkpoint_writer::serve() {
  std::unique_lock lock(mutex_);
  for (;;) {
    // A write handed over before the writer was told to stop is still written.
    changed_.wait(lock, [&] { return job_ != nullptr || stopping_; });
    if (job_ == nullptr) return;
    const auto write = std::exchange(job_, nullptr);
    outcome result;
    result.file = file_;
    lock.unlock();
    const auto start = std::chrono::steady_clock::now();
    try {
      write();
    } catch (const std::exception& e) {
      result.failed = true;
      result.reason = e.what();
    } catch (...) {
      result.failed = true;
      result.reason = "an exception of an unknown type";
    }
    result.seconds = seconds_since(start);
    lock.lock();
    ended_ = std::move(result);
    changed_.notify_all();
  }
}

}  // namespace opuntia
