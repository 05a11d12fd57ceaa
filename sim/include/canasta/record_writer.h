// Hands batches of JSON Lines records to a sink on a thread of its own, in
// order, so that the next batch plays while one is written.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "canasta/experiment.h"

namespace canasta {

class RecordWriter {
 public:
  // With an empty sink, push() discards and no thread is started.
  explicit RecordWriter(const RecordSink& sink);
  ~RecordWriter();
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  // Queues a batch's lines; waits while two batches wait already.
  void push(std::string batch);
  // Returns once every batch queued has been written.
  void drain();
  // Writes what waits, then stops the thread.
  void finish();

 private:
  void run();

  const RecordSink& sink_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> queue_;
  bool writing_ = false;  // the thread is writing a batch it took
  bool closed_ = false;
};

}  // namespace canasta
