#include "canasta/json.h"

#include <fmt/format.h>

#include <cassert>
#include <cmath>
#include <iterator>
#include <stdexcept>
#include <string>

#include "canasta/params.h"

namespace canasta {

bool parse_json(std::string_view text, Json& out, std::string& error) {
  // Nesting and size within what the project's files hold: a document of
  // nested brackets or of millions of small values would cost memory out of
  // proportion to its bytes.
  constexpr int kMaxDepth = 32;
  constexpr int64_t kMaxValues = int64_t{1} << 20;
  int64_t values = 0;
  const Json::parser_callback_t limit = [&](int depth, Json::parse_event_t event, Json&) {
    if (depth > kMaxDepth)
      throw std::length_error("nested deeper than " + std::to_string(kMaxDepth) + " levels");
    if (event == Json::parse_event_t::value && ++values > kMaxValues)
      throw std::length_error("more than " + std::to_string(kMaxValues) + " values");
    return true;
  };
  try {
    out = Json::parse(text, limit);
    return true;
  } catch (const std::length_error& e) {
    error = std::string("a JSON document ") + e.what();
    return false;
  } catch (const Json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 5: ..."
    std::string what = e.what();
    const size_t close = what.find("] ");
    if (close != std::string::npos) what = what.substr(close + 2);
    error = printable(what, 200);
    return false;
  }
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (first_ >> depth_ & 1U)
    first_ &= ~(uint64_t{1} << depth_);
  else
    out_ += ',';
}

void JsonWriter::open(char bracket) {
  separate();
  out_ += bracket;
  ++depth_;
  assert(depth_ < 64);
  first_ |= uint64_t{1} << depth_;
}

void JsonWriter::close(char bracket) {
  --depth_;
  out_ += bracket;
}

JsonWriter& JsonWriter::begin_object() {
  open('{');
  return *this;
}
JsonWriter& JsonWriter::end_object() {
  close('}');
  return *this;
}
JsonWriter& JsonWriter::begin_array() {
  open('[');
  return *this;
}
JsonWriter& JsonWriter::end_array() {
  close(']');
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  separate();
  out_ += json_quote(k);
  out_ += ':';
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(int64_t v) {
  separate();
  fmt::format_to(std::back_inserter(out_), "{}", v);
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t v) {
  separate();
  fmt::format_to(std::back_inserter(out_), "{}", v);
  return *this;
}

JsonWriter& JsonWriter::value(double v) {
  separate();
  if (std::isfinite(v))
    fmt::format_to(std::back_inserter(out_), "{:.17g}", v);
  else
    out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::value(bool v) {
  separate();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view v) {
  separate();
  out_ += json_quote(v);
  return *this;
}

std::string json_quote(std::string_view s) {
  bool plain = true;
  for (const char c : s)
    plain &= c != '"' && c != '\\' && static_cast<unsigned char>(c) >= 0x20 &&
             static_cast<unsigned char>(c) < 0x80;
  if (plain) {
    std::string out;
    out.reserve(s.size() + 2);
    out += '"';
    out += s;
    out += '"';
    return out;
  }
  // Escapes and invalid UTF-8 (replaced by U+FFFD rather than refused).
  return Json(std::string(s)).dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace canasta
