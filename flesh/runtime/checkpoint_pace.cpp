#include "flesh/runtime/checkpoint_pace.hpp"

#include <algorithm>
#include <utility>

namespace opuntia {

checkpoint_pace::cost checkpoint_pace::cost_of(int iteration, int pace_steps, int copies_steps, int write_steps,
                                               const window_seconds& s) {
  cost c;
  c.iteration = iteration;
  c.pace_steps = pace_steps;
  c.step_seconds = pace_steps > 0 ? s.pace / pace_steps : 0;
  c.snapshot = s.snapshot;
  c.copies_steps = copies_steps;
  c.until_landed = s.landed - copies_steps * c.step_seconds;
  c.write_steps = write_steps;
  c.until_written = s.written - write_steps * c.step_seconds;
  return c;
}

checkpoint_pace::checkpoint_pace(kernel_runtime& runtime, int every)
    : runtime_(runtime), every_(every), pace_steps_(std::max(1, every / 2)) {}

void checkpoint_pace::step_ended(int iteration) {
  if (finished_ || every_ <= 0) return;
  if (open_ && open_->iteration >= 0 && open_->landed == nullptr &&
      std::all_of(open_->copies.begin(), open_->copies.end(), [](const auto& copy) { return copy == nullptr || copy->done(); })) {
    open_->landed = runtime_.record();
    open_->landed_iteration = iteration;
  }
  // A window whose checkpoint did not come when due (the run was told to stop, say) is dropped.
  if (open_ && open_->iteration < 0 && iteration >= open_->start_iteration + pace_steps_) open_.reset();
  if (!open_ && (iteration + pace_steps_) % every_ == 0) {
    open_.emplace();
    open_->start = runtime_.record();
    open_->start_iteration = iteration;
  }
}

void checkpoint_pace::checkpoint_taken(int iteration, queue_event_ptr before, queue_event_ptr after,
                                       std::vector<queue_event_ptr> copies) {
  if (finished_ || !open_ || open_->iteration >= 0) return;
  if (iteration - open_->start_iteration != pace_steps_ || before == nullptr || after == nullptr) {
    open_.reset();  // no steps just before this checkpoint to take the pace from
    return;
  }
  open_->iteration = iteration;
  open_->before = std::move(before);
  open_->after = std::move(after);
  open_->copies = std::move(copies);
}

void checkpoint_pace::write_ended(int iteration) {
  if (finished_ || !open_ || open_->iteration < 0) return;
  open_->written = runtime_.record();
  open_->written_iteration = iteration;
  if (open_->landed == nullptr) {  // the writer waited for the copies: they have landed
    open_->landed = open_->written;
    open_->landed_iteration = iteration;
  }
  open_->copies.clear();
  closed_.push_back(std::move(*open_));
  open_.reset();
}

checkpoint_pace::cost checkpoint_pace::cost_of(const window& w) const {
  window_seconds s;
  s.pace = runtime_.elapsed_seconds(*w.start, *w.before);
  s.snapshot = runtime_.elapsed_seconds(*w.before, *w.after);
  s.landed = runtime_.elapsed_seconds(*w.before, *w.landed);
  s.written = runtime_.elapsed_seconds(*w.before, *w.written);
  return cost_of(w.iteration, w.iteration - w.start_iteration, w.landed_iteration - w.iteration,
                 w.written_iteration - w.iteration, s);
}

std::vector<checkpoint_pace::cost> checkpoint_pace::measured() {
  std::vector<cost> costs;
  while (!closed_.empty() && closed_.front().written->done()) {
    costs.push_back(cost_of(closed_.front()));
    closed_.pop_front();
  }
  return costs;
}

std::vector<checkpoint_pace::cost> checkpoint_pace::finish() {
  finished_ = true;
  open_.reset();
  std::vector<cost> costs;
  for (const auto& w : closed_) {
    w.written->wait();
    costs.push_back(cost_of(w));
  }
  closed_.clear();
  return costs;
}

}  // namespace opuntia
