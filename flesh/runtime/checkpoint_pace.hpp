#pragma once
// What a checkpoint written in the background costs a run on a device, read from the device's own
// clock: events on the run's queue, which neither the host's lead over the device (hundreds of
// launches queued) nor the device's pace from one run to the next disturbs. The run's wall time
// did both, by more than a checkpoint costs (bench/RESULTS.md, 2026-12-02).
//
// The device's time from the checkpoint's snapshot to a later step, less as many steps at the
// pace of the steps before the checkpoint, is what the checkpoint cost the device there:
//
//        start            before  after         landed                  written
//   ------|-------- ... -----|------|----- ... ----|-------- ... -------------|---->  run's queue
//         <-- pace_steps --->  snapshot <-- copies_steps ->
//                                     <-------------- write_steps ------------->
//
// `start` is recorded pace_steps = every / 2 iterations before the checkpoint (where no window of
// an earlier checkpoint is still open), `before` and `after` around the snapshot's copies on the
// run's queue, `landed` at the first step at whose end the host finds the snapshot's copies to
// the host landed, `written` at the first step at whose end it finds the write ended (and the
// older checkpoints removed). Steps are whole iterations, as the evolution loop ends them.
// Windows still open when the run ends are dropped: the run's last wait for the write would be
// counted as the device's time.
#include <deque>
#include <optional>
#include <vector>

#include "flesh/runtime/kernel_runtime.hpp"

namespace opuntia {

class checkpoint_pace {
public:
  /// One checkpoint's cost on the device, in seconds beyond the pace.
  struct cost {
    int iteration = 0;       // the checkpoint's
    int pace_steps = 0;      // the steps the pace was measured on, before the checkpoint
    double step_seconds = 0; // the pace: device time a step
    double snapshot = 0;     // the snapshot's copies on the run's queue
    int copies_steps = 0;    // the steps after the checkpoint until its copies to the host had landed
    double until_landed = 0; // the cost over those steps, snapshot included
    int write_steps = 0;     // the steps after the checkpoint until its write had ended
    double until_written = 0;// the cost over those steps, snapshot included: the checkpoint's whole cost
  };
  /// The device times of a window, as events give them: the arithmetic of cost, apart from the
  /// events so that it can be tested on its own.
  struct window_seconds {
    double pace = 0;      // start to before
    double snapshot = 0;  // before to after
    double landed = 0;    // before to landed
    double written = 0;   // before to written
  };
  static cost cost_of(int iteration, int pace_steps, int copies_steps, int write_steps, const window_seconds& s);

  /// `every`: the iterations between checkpoints (IO::checkpoint_every).
  checkpoint_pace(kernel_runtime& runtime, int every);

  /// At the end of each iteration of the evolution, after its checkpoint (if any) was taken and
  /// a write that ended was collected.
  void step_ended(int iteration);
  /// A checkpoint of this iteration was taken in the background: `before` and `after` around its
  /// snapshot's copies on the run's queue, `copies` the copies to the host still landing.
  void checkpoint_taken(int iteration, queue_event_ptr before, queue_event_ptr after,
                        std::vector<queue_event_ptr> copies);
  /// The write of the checkpoint taken last ended (collected by the run's thread at this iteration).
  void write_ended(int iteration);
  /// The costs of the windows that closed and whose events the device has reached, oldest first.
  std::vector<cost> measured();
  /// At the evolution's end, before the run waits for its last write: the costs of every closed
  /// window, waiting for their events; an open window is dropped, and nothing is measured after.
  std::vector<cost> finish();

private:
  struct window {
    int iteration = -1;  // the checkpoint's; -1 until it is taken
    int start_iteration = 0;
    queue_event_ptr start, before, after, landed, written;
    int landed_iteration = 0, written_iteration = 0;
    std::vector<queue_event_ptr> copies;
  };
  cost cost_of(const window& w) const;

  kernel_runtime& runtime_;
  int every_;
  int pace_steps_;
  std::optional<window> open_;   // from its start until its write ended
  std::deque<window> closed_;    // whose events the device may not have reached yet
  bool finished_ = false;
};

}  // namespace opuntia
