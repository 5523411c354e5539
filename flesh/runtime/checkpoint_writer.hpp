#pragma once
// The thread that writes checkpoints while the run goes on (IO::checkpoint_in_background): the
// run hands it the write of a snapshot and carries on; one write is in flight at a time, and the
// run collects its outcome (finished(), wait()) before it starts the next one, at its end and
// when a signal stops it, so that a write that failed fails the run there, naming the file.
//
//   checkpoint_writer writer;
//   writer.start("out/checkpoint.it8.h5", [&] { provider.write(...); });
//   ...                                  // the run goes on
//   if (auto done = writer.wait(); done && done->failed) throw ...;
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace opuntia {

class checkpoint_writer {
public:
  /// How a write ended.
  struct outcome {
    std::filesystem::path file;
    double seconds = 0;  // from the start of the write to its end
    bool failed = false;
    std::string reason;  // what() of the exception the write threw, where it failed
  };

  checkpoint_writer() = default;
  /// Waits for the write in flight (its outcome is dropped: the run collects it wherever it can
  /// still report it) and ends the thread.
  ~checkpoint_writer();
  checkpoint_writer(const checkpoint_writer&) = delete;
  checkpoint_writer& operator=(const checkpoint_writer&) = delete;

  /// Runs `write`, which writes `file`, on the writer thread (started at the first call; SIGINT
  /// and SIGTERM stay with the run's thread) and returns at once. std::logic_error where the
  /// outcome of the write before has not been collected.
  void start(std::filesystem::path file, std::function<void()> write);
  /// Whether a write was started whose outcome has not been collected.
  bool busy() const;
  /// Whether a write was started that has not ended yet: wait() would wait for it.
  bool writing() const;
  /// The outcome of the write in flight once it has ended, collected; nullopt while it runs or
  /// where none was started.
  std::optional<outcome> finished();
  /// Waits for the write in flight and returns its outcome, collected; nullopt where there is none.
  std::optional<outcome> wait();

private:
  void serve();

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;     // handed over, until the thread takes it
  std::filesystem::path file_;    // the file of job_
  std::optional<outcome> ended_;  // the outcome of the write in flight, once it has ended
  bool busy_ = false;             // started, outcome not collected
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace opuntia
