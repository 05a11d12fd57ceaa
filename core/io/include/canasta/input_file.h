// Files from outside the program (a record, a run folder's files, a state,
// a model, a sample file) opened as data: only a regular file is read (links
// followed), never a FIFO, a device or a folder, which could block the
// reader or feed it without end, and never more than its format can hold.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace canasta {

// Size caps of the formats read whole.
inline constexpr uint64_t kMaxSummaryFile = uint64_t{1} << 20;  // summary.json
inline constexpr uint64_t kMaxJsonFile = uint64_t{16} << 20;    // run.json, tournament.json
inline constexpr uint64_t kMaxStateFile = uint64_t{256} << 20;  // a tuning run's state (its table inside)
inline constexpr uint64_t kMaxRecordLine = uint64_t{16} << 20;  // one deal's record, or one CSV row
inline constexpr uint64_t kNoSizeCap = UINT64_MAX;

// Whether a link may stand for the file: a file the user names, yes; a file
// of a run folder or a resume state, which the program writes itself and
// never as a link, no (a link there points where the folder's author chose).
enum class Links { kFollow, kRefuse };

// Opens `path` for reading when it names a regular file (through links,
// with Links::kFollow) of at most `max_bytes`: returns the descriptor (the
// caller closes it), or -1 with a one-line error naming the file
// (printable). `what` names the format in the error, e.g. "a run manifest".
int open_input_file(const std::string& path, uint64_t max_bytes, std::string_view what, std::string& error,
                    Links links = Links::kFollow);

// The whole of a regular file of at most `max_bytes`; false with a one-line
// error otherwise (or where it cannot be read).
bool read_input_file(const std::string& path, uint64_t max_bytes, std::string_view what, std::string& out,
                     std::string& error, Links links = Links::kFollow);

// The lines of a regular file, one at a time, none longer than `max_line`
// bytes: read by blocks from one descriptor, so that what was checked is
// what is read.
class LineReader {
 public:
  LineReader() = default;
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  // False with a one-line error where the file is not a regular file.
  bool open(const std::string& path, uint64_t max_line, std::string_view what, std::string& error,
            Links links = Links::kFollow);
  // The next line, without its '\n' (a last line without one counts); false
  // at the end, or with `error` set on a line that is too long or a failed read.
  bool next(std::string& line, std::string& error);
  int64_t line_number() const { return line_no_; }

 private:
  bool fill();
  int fd_ = -1;
  uint64_t max_line_ = 0;
  std::string path_, buffer_;
  size_t at_ = 0;
  bool eof_ = false;
  int64_t line_no_ = 0;
};

// A writer's temporary file, made anew: whatever stood at `path` (a file, a
// link, a FIFO left there, by anyone) is removed first and the file is
// created exclusively, never through a link, so that what the writer then
// opens by that name is its own empty regular file. False with a one-line
// error where it cannot be.
bool create_temporary(const std::string& path, std::string& error);

}  // namespace canasta
