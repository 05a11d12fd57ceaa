#include "canasta/json.h"

#include <charconv>
#include <cstdio>

namespace canasta::json {

namespace {

struct Parser {
  std::string_view s;
  size_t i = 0;
  std::string error;
  int depth = 0;

  void skip() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  bool fail(const std::string& what) {
    if (error.empty()) error = what + " at byte " + std::to_string(i);
    return false;
  }
  bool literal(std::string_view word) {
    if (s.substr(i, word.size()) != word) return fail("bad literal");
    i += word.size();
    return true;
  }
  bool string(std::string& out) {
    if (i >= s.size() || s[i] != '"') return fail("expected a string");
    ++i;
    out.clear();
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
      if (c == '\\') {
        if (i >= s.size()) return fail("unfinished escape");
        const char e = s[i++];
        switch (e) {
          case '"':
            out += '"';
            break;
          case '\\':
            out += '\\';
            break;
          case '/':
            out += '/';
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'n':
            out += '\n';
            break;
          case 'r':
            out += '\r';
            break;
          case 't':
            out += '\t';
            break;
          case 'u': {
            if (i + 4 > s.size()) return fail("bad \\u escape");
            unsigned code = 0;
            auto [p, ec] = std::from_chars(s.data() + i, s.data() + i + 4, code, 16);
            if (ec != std::errc() || p != s.data() + i + 4) return fail("bad \\u escape");
            i += 4;
            if (code < 0x80) {
              out += static_cast<char>(code);
            } else if (code < 0x800) {
              out += static_cast<char>(0xC0 | (code >> 6));
              out += static_cast<char>(0x80 | (code & 0x3F));
            } else {
              out += static_cast<char>(0xE0 | (code >> 12));
              out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
              out += static_cast<char>(0x80 | (code & 0x3F));
            }
            break;
          }
          default:
            return fail("bad escape");
        }
      } else {
        out += c;
      }
    }
    if (i >= s.size()) return fail("unterminated string");
    ++i;
    return true;
  }
  bool value(Value& v) {
    if (++depth > 64) return fail("nesting too deep");
    skip();
    if (i >= s.size()) return fail("unexpected end");
    const char c = s[i];
    bool ok = true;
    if (c == '{') {
      v.type = Value::Type::kObject;
      ++i;
      skip();
      if (i < s.size() && s[i] == '}') {
        ++i;
      } else {
        while (ok) {
          skip();
          std::string key;
          if (!string(key)) return false;
          skip();
          if (i >= s.size() || s[i] != ':') return fail("expected ':'");
          ++i;
          Value item;
          if (!value(item)) return false;
          v.fields[key] = std::move(item);
          skip();
          if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
          }
          if (i < s.size() && s[i] == '}') {
            ++i;
            break;
          }
          return fail("expected ',' or '}'");
        }
      }
    } else if (c == '[') {
      v.type = Value::Type::kArray;
      ++i;
      skip();
      if (i < s.size() && s[i] == ']') {
        ++i;
      } else {
        while (true) {
          Value item;
          if (!value(item)) return false;
          v.items.push_back(std::move(item));
          skip();
          if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
          }
          if (i < s.size() && s[i] == ']') {
            ++i;
            break;
          }
          return fail("expected ',' or ']'");
        }
      }
    } else if (c == '"') {
      v.type = Value::Type::kString;
      ok = string(v.text);
    } else if (c == 't') {
      v.type = Value::Type::kBool;
      v.boolean = true;
      ok = literal("true");
    } else if (c == 'f') {
      v.type = Value::Type::kBool;
      ok = literal("false");
    } else if (c == 'n') {
      ok = literal("null");
    } else {
      const size_t start = i;
      while (i < s.size() && (s[i] == '-' || s[i] == '+' || s[i] == '.' || s[i] == 'e' || s[i] == 'E' ||
                              (s[i] >= '0' && s[i] <= '9')))
        ++i;
      if (start == i) return fail("unexpected character");
      v.type = Value::Type::kNumber;
      v.text = std::string(s.substr(start, i - start));
      auto [p, ec] = std::from_chars(v.text.data(), v.text.data() + v.text.size(), v.number);
      if (ec != std::errc() || p != v.text.data() + v.text.size()) return fail("bad number");
    }
    --depth;
    return ok;
  }
};

}  // namespace

bool parse(std::string_view text, Value& out, std::string& error) {
  Parser p;
  p.s = text;
  out = Value{};
  if (!p.value(out)) {
    error = p.error;
    return false;
  }
  p.skip();
  if (p.i != text.size()) {
    error = "trailing characters at byte " + std::to_string(p.i);
    return false;
  }
  return true;
}

void append_quoted(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

std::string quote(std::string_view s) {
  std::string out;
  append_quoted(out, s);
  return out;
}

}  // namespace canasta::json
