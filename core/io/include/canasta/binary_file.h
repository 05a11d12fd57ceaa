// Fixed-width binary files (sample sets): values appended in the machine's
// byte order, and a reader that never reads past the size the file had
// when it was opened.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace canasta {

// Appends the bytes of `v` (a number) to `out`.
template <class T>
void put_bytes(std::string& out, T v) {
  static_assert(std::is_arithmetic_v<T>);
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

// Appends a 4-byte length, then `text` (what InputBytes::sized_text reads).
inline void put_sized_text(std::string& out, const std::string& text) {
  put_bytes(out, static_cast<uint32_t>(text.size()));
  out += text;
}

// An open file (from open_input_file) read in order, never past the size
// it had when opened; closes it.
class InputBytes {
 public:
  explicit InputBytes(int fd);
  InputBytes(const InputBytes&) = delete;
  InputBytes& operator=(const InputBytes&) = delete;
  ~InputBytes();

  uint64_t left() const { return size_ - at_; }
  // The next `n` bytes into `to`; false where fewer are left or a read fails.
  bool take(void* to, size_t n);
  // The next `n` bytes as text.
  bool text(std::string& to, uint32_t n);
  // A 4-byte length, then that many bytes of text.
  bool sized_text(std::string& to);

 private:
  int fd_;
  uint64_t size_ = 0, at_ = 0;
};

}  // namespace canasta
