// The thread that writes checkpoints in the background: its outcome, collected once; a failure
// kept with the file's name and the reason; one write at a time; waiting for one in flight.
#include "flesh/runtime/checkpoint_writer.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <stdexcept>
#include <thread>

namespace {

using opuntia::checkpoint_writer;

TEST(checkpoint_writer, nothing_to_collect_before_a_write) {
  checkpoint_writer writer;
  EXPECT_FALSE(writer.busy());
  EXPECT_FALSE(writer.finished());
  EXPECT_FALSE(writer.wait());
}

TEST(checkpoint_writer, wait_returns_the_outcome_once) {
  checkpoint_writer writer;
  std::thread::id wrote_on;
  writer.start("out/checkpoint.it4.h5", [&] { wrote_on = std::this_thread::get_id(); });
  EXPECT_TRUE(writer.busy());
  const auto done = writer.wait();
  ASSERT_TRUE(done);
  EXPECT_EQ(done->file, "out/checkpoint.it4.h5");
  EXPECT_FALSE(done->failed);
  EXPECT_EQ(done->reason, "");
  EXPECT_GE(done->seconds, 0);
  EXPECT_NE(wrote_on, std::this_thread::get_id());  // written on the writer's thread
  EXPECT_FALSE(writer.busy());
  EXPECT_FALSE(writer.wait());  // collected: nothing more
}

TEST(checkpoint_writer, a_failed_write_keeps_its_file_and_reason) {
  checkpoint_writer writer;
  writer.start("out/checkpoint.it8.h5", [] { throw std::runtime_error("cannot write out/checkpoint.it8.h5: disk full"); });
  const auto done = writer.wait();
  ASSERT_TRUE(done);
  EXPECT_TRUE(done->failed);
  EXPECT_EQ(done->file, "out/checkpoint.it8.h5");
  EXPECT_EQ(done->reason, "cannot write out/checkpoint.it8.h5: disk full");
  // The writer goes on: the next write is written.
  writer.start("out/checkpoint.it12.h5", [] {});
  const auto next = writer.wait();
  ASSERT_TRUE(next);
  EXPECT_FALSE(next->failed);
  EXPECT_EQ(next->file, "out/checkpoint.it12.h5");
  // An exception of no standard type is a failure too.
  writer.start("out/checkpoint.it16.h5", [] { throw 42; });
  const auto odd = writer.wait();
  ASSERT_TRUE(odd);
  EXPECT_TRUE(odd->failed);
  EXPECT_EQ(odd->reason, "an exception of an unknown type");
}

TEST(checkpoint_writer, finished_says_nothing_while_the_write_runs) {
  checkpoint_writer writer;
  std::promise<void> release;
  auto released = release.get_future().share();
  writer.start("c.h5", [released] { released.wait(); });
  EXPECT_FALSE(writer.finished());
  EXPECT_TRUE(writer.busy());
  release.set_value();
  std::optional<checkpoint_writer::outcome> done;
  while (!(done = writer.finished())) std::this_thread::yield();
  EXPECT_EQ(done->file, "c.h5");
  EXPECT_FALSE(writer.busy());
  EXPECT_FALSE(writer.finished());  // collected once
}

// writing(): the write has not ended (wait() would wait), apart from busy(): not collected yet.
TEST(checkpoint_writer, writing_until_the_write_ends_busy_until_it_is_collected) {
  checkpoint_writer writer;
  EXPECT_FALSE(writer.writing());
  std::promise<void> release;
  auto released = release.get_future().share();
  std::atomic<bool> ended{false};
  writer.start("c.h5", [released, &ended] {
    released.wait();
    ended = true;
  });
  EXPECT_TRUE(writer.writing());
  release.set_value();
  while (writer.writing()) std::this_thread::yield();
  EXPECT_TRUE(ended);
  EXPECT_TRUE(writer.busy());  // ended, not collected
  EXPECT_TRUE(writer.wait());  // at once
  EXPECT_FALSE(writer.writing());
  EXPECT_FALSE(writer.busy());
}

TEST(checkpoint_writer, a_second_write_before_the_first_is_collected_is_refused) {
  checkpoint_writer writer;
  writer.start("checkpoint.it4.h5", [] {});
  try {
    writer.start("checkpoint.it8.h5", [] {});
    FAIL() << "a second write was accepted";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(), "checkpoint_writer::start: the outcome of the write of checkpoint.it4.h5 was not collected");
  }
  EXPECT_EQ(writer.wait()->file, "checkpoint.it4.h5");
}

TEST(checkpoint_writer, destruction_waits_for_the_write_in_flight) {
  std::atomic<bool> written = false;
  std::promise<void> release;
  auto released = release.get_future().share();
  {
    checkpoint_writer writer;
    writer.start("c.h5", [&, released] {
      released.wait();
      written = true;
    });
    // Released from another thread while the destructor waits.
    std::thread releaser([&] { release.set_value(); });
    releaser.detach();
  }
  EXPECT_TRUE(written);
}

}  // namespace
