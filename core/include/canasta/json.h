// A small JSON reader and writer helpers for game records (not used inside deals).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace canasta::json {

struct Value {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;  // string value, or the number as written
  std::vector<Value> items;
  std::map<std::string, Value, std::less<>> fields;

  const Value* get(std::string_view key) const {
    auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
  }
};

// Parses one JSON document; returns false with a one-line error.
bool parse(std::string_view text, Value& out, std::string& error);

// Writes `s` as a JSON string literal (appended to `out`).
std::string quote(std::string_view s);
void append_quoted(std::string& out, std::string_view s);

}  // namespace canasta::json
