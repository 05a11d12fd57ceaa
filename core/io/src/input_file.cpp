#include "canasta/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "canasta/params.h"

namespace canasta {

namespace {

std::string quoted(const std::string& path) { return "'" + printable(path) + "'"; }

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

int open_input_file(const std::string& path, uint64_t max_bytes, std::string_view what, std::string& error,
                    Links links) {
  // O_NONBLOCK: opening a FIFO does not wait for a writer; it is refused below.
  const int fd =
      ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | (links == Links::kRefuse ? O_NOFOLLOW : 0));
  if (fd < 0 && errno == ELOOP && links == Links::kRefuse) {
    error = quoted(path) + " is a link, not " + std::string(what) + " as the program writes it";
    return -1;
  }
  if (fd < 0) {
    error = "cannot read " + quoted(path) + ": " + std::strerror(errno);
    return -1;
  }
  struct stat st {};
  const bool known = ::fstat(fd, &st) == 0;
  if (!known || !S_ISREG(st.st_mode)) {
    ::close(fd);
    error =
        quoted(path) + " is " + (known ? kind_of(st.st_mode) : "unreadable") + ", not " + std::string(what);
    return -1;
  }
  if (static_cast<uint64_t>(st.st_size) > max_bytes) {
    ::close(fd);
    error = quoted(path) + " holds " + std::to_string(st.st_size) + " bytes, more than " + std::string(what) +
            " can (" + std::to_string(max_bytes) + ")";
    return -1;
  }
  // Reads block again from here on (a regular file never waits anyway).
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

bool read_input_file(const std::string& path, uint64_t max_bytes, std::string_view what, std::string& out,
                     std::string& error, Links links) {
  const int fd = open_input_file(path, max_bytes, what, error, links);
  if (fd < 0) return false;
  out.clear();
  char block[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, block, sizeof block);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = "cannot read " + quoted(path) + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    // The file may have grown since it was measured: the cap holds anyway.
    if (out.size() + static_cast<size_t>(n) > max_bytes) {
      ::close(fd);
      error = quoted(path) + " holds more bytes than " + std::string(what) + " can (" +
              std::to_string(max_bytes) + ")";
      return false;
    }
    out.append(block, static_cast<size_t>(n));
  }
  ::close(fd);
  return true;
}

bool create_temporary(const std::string& path, std::string& error) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) ::unlink(path.c_str());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = "cannot write " + quoted(path) + ": " + std::strerror(errno);
    return false;
  }
  ::close(fd);
  return true;
}

LineReader::~LineReader() {
  if (fd_ >= 0) ::close(fd_);
}

bool LineReader::open(const std::string& path, uint64_t max_line, std::string_view what, std::string& error,
                      Links links) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = open_input_file(path, kNoSizeCap, what, error, links);
  path_ = path;
  max_line_ = max_line;
  buffer_.clear();
  at_ = 0;
  eof_ = false;
  line_no_ = 0;
  return fd_ >= 0;
}

bool LineReader::fill() {
  if (at_ > 0) {
    buffer_.erase(0, at_);
    at_ = 0;
  }
  char block[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd_, block, sizeof block);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      eof_ = n == 0;
      return false;
    }
    buffer_.append(block, static_cast<size_t>(n));
    return true;
  }
}

bool LineReader::next(std::string& line, std::string& error) {
  if (fd_ < 0) return false;
  size_t searched = at_;
  for (;;) {
    const size_t nl = buffer_.find('\n', searched);
    if (nl != std::string::npos && nl - at_ <= max_line_) {
      line.assign(buffer_, at_, nl - at_);
      at_ = nl + 1;
      ++line_no_;
      return true;
    }
    if (buffer_.size() - at_ > max_line_) {
      error = quoted(path_) + ":" + std::to_string(line_no_ + 1) + ": a line longer than " +
              std::to_string(max_line_) + " bytes";
      return false;
    }
    searched = buffer_.size();
    const size_t consumed = at_;
    if (!fill()) {
      if (!eof_) {
        error = "cannot read " + quoted(path_) + ": " + std::strerror(errno);
        return false;
      }
      if (buffer_.size() == at_) return false;
      line.assign(buffer_, at_, std::string::npos);  // a last line without '\n'
      at_ = buffer_.size();
      ++line_no_;
      return true;
    }
    searched -= consumed;  // fill() moved what was left to the front
  }
}

}  // namespace canasta
