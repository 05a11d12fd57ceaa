// JSON for records and result files. Reading is nlohmann::json's (Debian's
// nlohmann-json3-dev). Writing goes through JsonWriter, a streaming writer
// that appends to a string: it writes numbers as the project's files always
// have (integers exactly, doubles with 17 significant digits, which
// nlohmann's shortest form would change) and escapes strings through
// nlohmann, so nothing can be cut short.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace canasta {

using Json = nlohmann::json;

// Parses one JSON document; returns false with a one-line error (input
// characters that would break the line replaced).
bool parse_json(std::string_view text, Json& out, std::string& error);

class JsonWriter {
 public:
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  // The key of the next value in an object.
  JsonWriter& key(std::string_view k);

  JsonWriter& value(int64_t v);
  JsonWriter& value(uint64_t v);
  JsonWriter& value(int v) { return value(static_cast<int64_t>(v)); }
  JsonWriter& value(double v);  // 17 significant digits; null when not finite
  JsonWriter& value(bool v);
  JsonWriter& value(std::string_view v);
  JsonWriter& value(const char* v) { return value(std::string_view(v)); }
  JsonWriter& value(const std::string& v) { return value(std::string_view(v)); }

  // key(k).value(v)
  template <class T>
  JsonWriter& field(std::string_view k, const T& v) {
    return key(k).value(v);
  }

 private:
  void separate();
  void open(char bracket);
  void close(char bracket);
  std::string& out_;
  uint64_t first_ = 1;  // bit d: nothing written yet at depth d
  int depth_ = 0;
  bool after_key_ = false;
};

// The JSON string literal of `s` (quoted and escaped).
std::string json_quote(std::string_view s);

}  // namespace canasta
