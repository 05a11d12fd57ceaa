#include "canasta/record_writer.h"

namespace canasta {

RecordWriter::RecordWriter(const RecordSink& sink) : sink_(sink) {
  if (sink_) thread_ = std::thread([this] { run(); });
}

RecordWriter::~RecordWriter() { finish(); }

void RecordWriter::push(std::string batch) {
  if (!sink_) return;
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.size() < 2; });
  queue_.push_back(std::move(batch));
  changed_.notify_all();
}

void RecordWriter::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !writing_; });
}

void RecordWriter::finish() {
  {
    const std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }
  if (thread_.joinable()) thread_.join();
}

void RecordWriter::run() {
  for (;;) {
    std::string batch;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) return;
      batch = std::move(queue_.front());
      queue_.pop_front();
      writing_ = true;
      changed_.notify_all();
    }
    sink_(batch);
    const std::lock_guard lock(mutex_);
    writing_ = false;
    changed_.notify_all();
  }
}

}  // namespace canasta
