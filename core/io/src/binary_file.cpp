#include "canasta/binary_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace canasta {

InputBytes::InputBytes(int fd) : fd_(fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0) size_ = static_cast<uint64_t>(st.st_size);
}

InputBytes::~InputBytes() { ::close(fd_); }

bool InputBytes::take(void* to, size_t n) {
  if (left() < n) return false;
  for (size_t got = 0; got < n;) {
    const ssize_t r = ::read(fd_, static_cast<char*>(to) + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;  // the file changed while read
    got += static_cast<size_t>(r);
  }
  at_ += n;
  return true;
}

bool InputBytes::text(std::string& to, uint32_t n) {
  if (left() < n) return false;
  to.resize(n);
  return take(to.data(), n);
}

bool InputBytes::sized_text(std::string& to) {
  uint32_t n = 0;
  return take(&n, 4) && text(to, n);
}

}  // namespace canasta
