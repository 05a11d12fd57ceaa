#include "run_files.h"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "canasta/files.h"
#include "canasta/input_error.h"
#include "canasta/input_file.h"
#include "canasta/params.h"
#include "cluster.h"
#include "program.h"
#include "signals.h"

namespace canasta::cli {

std::vector<std::string>& command_line() {
  static std::vector<std::string> args;
  return args;
}

void OutDir::commit(const std::vector<std::pair<std::string, std::string>>& files, const std::string& status,
                    int64_t rows, const std::vector<std::string>& staged,
                    const std::function<void(JsonWriter&)>& more) {
  if (!wanted()) return;
  const RunManifest manifest{command_line(), status, rows, stop_signal() ? signal_name(stop_signal()) : ""};
  const std::vector<std::string> names = RunFolder::commit(files, manifest, staged, more);
  fmt::print("  files       ");
  const std::string dir = printable(this->dir(), 400);
  for (const std::string& name : names) fmt::print(" {}/{}", dir, name);
  fmt::print("\n");
}

StreamFile::StreamFile(std::string path, std::string head) : path_(std::move(path)), head_(std::move(head)) {
  if (path_.empty()) return;
  path_ = output_file(path_);
  if (cluster().rank == 0) remove_stale_temporaries(path_);
  // Rank 0's temporary name; under mpirun every rank writes a part beside it.
  tmp_ = cluster_broadcast(path_ + ".tmp" + std::to_string(::getpid()));
  part_ = cluster().size > 1 ? tmp_ + ".part" + std::to_string(cluster().rank) : tmp_;
  errno = 0;
  if (std::string error; !create_temporary(part_, error)) {
    tmp_.clear();
    part_.clear();
    throw InputError{error};
  }
  out_.open(part_, std::ios::binary);
  if (!out_) {
    const std::string why = errno ? std::strerror(errno) : "cannot open";
    tmp_.clear();
    part_.clear();
    throw InputError{"cannot write '" + printable(path_) + "': " + why};
  }
  if (cluster().size == 1) out_ << head_;
}

StreamFile::~StreamFile() {
  std::error_code ec;
  if (!part_.empty()) std::filesystem::remove(part_, ec);
  if (!tmp_.empty() && cluster().rank == 0) std::filesystem::remove(tmp_, ec);
}

void StreamFile::write(std::string_view text) {
  out_.write(text.data(), static_cast<std::streamsize>(text.size()));
  pending_ += static_cast<int64_t>(text.size());
  if (!out_) stop_requested() = true;
}

RecordSink StreamFile::sink() {
  if (path_.empty()) return {};
  return [this](const std::string& lines) { write(lines); };
}

void StreamFile::end_batch() {
  sizes_.push_back(pending_);
  pending_ = 0;
}

void StreamFile::finish() {
  if (path_.empty()) return;
  if (pending_ > 0 || sizes_.empty()) end_batch();
  out_.close();
  if (!out_ && cluster().size > 1) cluster_abort("cannot write '" + printable(part_) + "'", kBadInput);
  if (!out_) throw InputError{"cannot write '" + printable(path_) + "'"};
  if (cluster().size > 1) {
    // The parts, batch by batch in rank order, into rank 0's temporary file.
    std::ifstream in(part_, std::ios::binary);
    cluster_concat(tmp_, head_, sizes_, [&](size_t, int64_t bytes, std::string& text) {
      text.resize(static_cast<size_t>(bytes));
      if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
        cluster_abort("cannot read back '" + printable(part_) + "'", 1);
    });
    std::error_code ec;
    std::filesystem::remove(part_, ec);
    part_.clear();
    if (cluster().rank != 0) {
      tmp_.clear();
      return;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) throw InputError{"cannot write '" + printable(path_) + "': " + ec.message()};
  tmp_.clear();
  part_.clear();
}

void on_every_rank(const std::function<void()>& step) {
  if (cluster().size == 1) return step();
  std::string error;
  try {
    step();
  } catch (const InputError& e) {
    error = e.message;
  }
  std::array<int64_t, 1> failed{error.empty() ? 0 : 1};
  cluster_processes().add_up(failed);
  if (!error.empty()) throw InputError{error};
  if (failed[0] > 0) throw QuietExit{kBadInput};
}

}  // namespace canasta::cli
