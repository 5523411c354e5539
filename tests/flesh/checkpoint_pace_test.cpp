// What a checkpoint written in the background costs the device, from events on the run's queue:
// the pace of the steps before it, the windows until its copies landed and its write ended, and
// the windows it cannot measure (no steps before it, the run ending first).
#include "flesh/runtime/checkpoint_pace.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "test_runtime.hpp"

namespace {

using opuntia::checkpoint_pace;
using opuntia::queue_event;
using opuntia::queue_event_ptr;

/// An event at a time of the device's clock, done once the test says the device reached it.
struct clock_event final : queue_event {
  explicit clock_event(double time) : at(time) {}
  void wait() override { reached = true; }
  bool done() override { return reached; }
  double at;
  bool reached = false;
};

/// The run's queue as a clock the test advances: record() marks its time now.
class clocked_runtime final : public opuntia::test_support::host_runtime {
public:
  queue_event_ptr record() override {
    events.push_back(std::make_shared<clock_event>(now));
    return events.back();
  }
  double elapsed_seconds(queue_event& from, queue_event& to) override {
    return static_cast<clock_event&>(to).at - static_cast<clock_event&>(from).at;
  }
  void reach_all() {
    for (auto& e : events) e->reached = true;
  }
  double now = 0;
  std::vector<std::shared_ptr<clock_event>> events;
};

/// A run whose steps take `step` seconds of the device, with checkpoint_pace following it.
struct paced_run {
  explicit paced_run(int every, double seconds_a_step = 1) : pace(runtime, every), step(seconds_a_step) {}
  /// Runs the steps up to `to`, each ended as the evolution loop ends it.
  void run_to(int to) {
    while (iteration < to) {
      advance();
      pace.step_ended(iteration);
    }
  }
  /// Runs the steps up to `at` and takes its checkpoint before the step ends, as the loop does,
  /// its snapshot taking `snapshot` seconds of the device; returns its copy to the host, which
  /// lands when the test says so.
  std::shared_ptr<clock_event> checkpoint_at(int at, double snapshot) {
    run_to(at - 1);
    advance();
    auto before = runtime.record();
    runtime.now += snapshot;
    auto after = runtime.record();
    auto copy = std::make_shared<clock_event>(runtime.now);
    pace.checkpoint_taken(iteration, before, after, {copy});
    pace.step_ended(iteration);
    return copy;
  }
  void advance() {
    ++iteration;
    runtime.now += step;
  }
  clocked_runtime runtime;
  checkpoint_pace pace;
  double step;
  int iteration = 0;
};

TEST(CheckpointPace, CostIsTheDeviceTimeBeyondThePaceOfTheStepsBefore) {
  checkpoint_pace::window_seconds s;
  s.pace = 8;        // 4 steps of 2 s
  s.snapshot = 0.5;
  s.landed = 6.75;   // the snapshot and 3 steps, 0.25 s slower in all
  s.written = 20.875;  // and 7 steps more, 0.125 s slower in all
  const auto c = checkpoint_pace::cost_of(16, 4, 3, 10, s);
  EXPECT_EQ(c.iteration, 16);
  EXPECT_DOUBLE_EQ(c.step_seconds, 2);
  EXPECT_DOUBLE_EQ(c.snapshot, 0.5);
  EXPECT_DOUBLE_EQ(c.until_landed, 0.75);
  EXPECT_DOUBLE_EQ(c.until_written, 0.875);
  EXPECT_EQ(c.copies_steps, 3);
  EXPECT_EQ(c.write_steps, 10);
}

TEST(CheckpointPace, MeasuresFromHalfAnIntervalBeforeUntilTheWriteEnded) {
  paced_run run(8, 2.0);
  auto copy = run.checkpoint_at(8, 0.5);
  run.run_to(9);
  run.runtime.now += 0.25;  // a step slowed by the copy to the host
  run.run_to(10);
  copy->reached = true;     // the copy landed before the end of step 11
  run.run_to(11);
  run.run_to(13);
  run.runtime.now += 0.125;  // the writer disturbed the device too
  run.pace.write_ended(13);
  EXPECT_TRUE(run.pace.measured().empty()) << "the device has not reached the write's end yet";
  run.runtime.reach_all();
  const auto costs = run.pace.measured();
  ASSERT_EQ(costs.size(), 1u);
  const auto& c = costs.front();
  EXPECT_EQ(c.iteration, 8);
  EXPECT_EQ(c.pace_steps, 4);
  EXPECT_DOUBLE_EQ(c.step_seconds, 2);
  EXPECT_DOUBLE_EQ(c.snapshot, 0.5);
  EXPECT_EQ(c.copies_steps, 3);
  EXPECT_DOUBLE_EQ(c.until_landed, 0.75);
  EXPECT_EQ(c.write_steps, 5);
  // The write's end is recorded after the device time it cost was spent.
  EXPECT_DOUBLE_EQ(c.until_written, 0.875);
  EXPECT_TRUE(run.pace.measured().empty()) << "each checkpoint is measured once";
}

TEST(CheckpointPace, EveryCheckpointWithItsStepsBeforeIsMeasured) {
  paced_run run(6);
  for (int checkpoint = 6; checkpoint <= 18; checkpoint += 6) {
    run.checkpoint_at(checkpoint, 0.25)->reached = true;
    run.run_to(checkpoint + 1);
    run.pace.write_ended(checkpoint + 1);
  }
  run.runtime.reach_all();
  const auto costs = run.pace.measured();
  ASSERT_EQ(costs.size(), 3u);
  for (std::size_t i = 0; i < costs.size(); ++i) {
    EXPECT_EQ(costs[i].iteration, 6 * static_cast<int>(i + 1));
    EXPECT_EQ(costs[i].pace_steps, 3);
    EXPECT_EQ(costs[i].copies_steps, 1);
    EXPECT_DOUBLE_EQ(costs[i].until_written, 0.25);
  }
}

TEST(CheckpointPace, AWriteStillRunningAtTheNextWindowCostsThatCheckpointItsMeasure) {
  paced_run run(4);  // the pace from 2 steps before each checkpoint
  run.checkpoint_at(4, 0.25);  // its copy never lands before the write ends
  run.run_to(7);               // step 6 would have opened the next window: the first is still open
  run.pace.write_ended(7);
  run.checkpoint_at(8, 0.25);  // no steps measured just before it
  run.pace.write_ended(8);
  run.runtime.reach_all();
  const auto costs = run.pace.measured();
  ASSERT_EQ(costs.size(), 1u);
  EXPECT_EQ(costs.front().iteration, 4);
  EXPECT_EQ(costs.front().copies_steps, 3) << "the writer waited for the copies: they had landed at its end";
  EXPECT_EQ(costs.front().write_steps, 3);
}

TEST(CheckpointPace, AWindowWhoseCheckpointDidNotComeIsDropped) {
  paced_run run(8);
  run.run_to(8);  // the window opened at 4; no checkpoint at 8
  run.checkpoint_at(10, 0.25);
  run.pace.write_ended(10);
  run.runtime.reach_all();
  EXPECT_TRUE(run.pace.measured().empty());
  run.checkpoint_at(16, 0.25)->reached = true;  // the next window opened at 12
  run.run_to(17);
  run.pace.write_ended(17);
  run.runtime.reach_all();
  ASSERT_EQ(run.pace.measured().size(), 1u);
}

TEST(CheckpointPace, FinishWaitsForClosedWindowsAndDropsTheOpenOne) {
  paced_run run(4);
  run.checkpoint_at(4, 0.25);
  run.run_to(5);
  run.pace.write_ended(5);
  run.checkpoint_at(8, 0.25);  // its write still runs when the evolution ends
  run.run_to(9);
  const auto costs = run.pace.finish();
  ASSERT_EQ(costs.size(), 1u) << "the closed window, its events waited for";
  EXPECT_EQ(costs.front().iteration, 4);
  run.pace.write_ended(9);  // the run's last wait: not the device's time
  run.runtime.reach_all();
  EXPECT_TRUE(run.pace.measured().empty());
}

}  // namespace
