#include "canasta/tune_state.h"

#include <cmath>
#include <filesystem>
#include <string_view>

#include "canasta/files.h"
#include "canasta/input_file.h"
#include "canasta/json.h"
#include "canasta/params.h"
#include "canasta/run_folder.h"
#include "canasta/text.h"

namespace canasta {

std::string tune_state_path(const std::string& out) { return out + ".resume.json"; }

void write_tune_state(const std::string& out, const TuneState& t) {
  std::string text;
  JsonWriter w(text);
  w.begin_object().field("format", "canasta-tune-resume/1").key("command").begin_array();
  for (const std::string& arg : t.command) w.value(arg);
  w.end_array().field("table", t.table).field("points", t.points);
  w.key("point").begin_object();
  write_done(w, t.point.done);
  write_tally(w, t.point.tally);
  w.end_object().field("batches", t.batches).key("theta").begin_array();
  for (const double v : t.theta) w.value(v);  // 17 significant digits: read back exactly
  w.end_array().end_object();
  text += '\n';
  write_atomically(tune_state_path(out), text);
}

namespace {

TuneState read_state(const std::string& out) {
  const std::string path = tune_state_path(out);
  std::error_code ec;
  if (std::filesystem::symlink_status(path, ec).type() == std::filesystem::file_type::not_found)
    throw InputError{"'" + printable(out) + "' is not the table of a stopped tuning run (no " +
                     printable(path) + ")"};
  Json v;
  std::string error;
  const auto bad = [&](const std::string& why) {
    return InputError{printable(path) + ": " + why + " (a tuning run stopped by this version writes it)"};
  };
  if (!parse_json(read_file(path, kMaxStateFile, "a tuning run's state"), v, error) || !v.is_object() ||
      v.value("format", "") != "canasta-tune-resume/1")
    throw bad("not a tuning run's resume state");
  TuneState t;
  if (!read_command(v, t.command)) throw bad("bad command");
  if (t.command.size() < 2 || t.command[1] != "tune") throw bad("not a canasta tune command");
  const auto integer = [&](const char* key) {
    if (!v.contains(key) || !v[key].is_number_integer() || v[key].get<int64_t>() < 0)
      throw bad("bad " + std::string(key));
    return v[key].get<int64_t>();
  };
  if (!v.contains("table") || !v["table"].is_string()) throw bad("bad table");
  t.table = v["table"].get<std::string>();
  t.points = integer("points");
  t.batches = integer("batches");
  if (!v.contains("point") || !read_done(v["point"], t.point.done) || !read_tally(v["point"], t.point.tally))
    throw bad("bad point");
  if (!v.contains("theta") || !v["theta"].is_array()) throw bad("bad theta");
  for (const Json& x : v["theta"]) {
    if (!x.is_number()) throw bad("bad theta");
    t.theta.push_back(x.get<double>());
  }
  return t;
}

// Whether `line` is a finished point's row of the table: its start, then
// numbers only.
bool sweep_row_fits(std::string_view line, const std::string& start) {
  if (!line.starts_with(start)) return false;
  const auto cells = text::split(line.substr(start.size()), ',');
  if (cells.size() != 10) return false;
  for (const std::string_view cell : cells)
    if (double v = 0; !text::to_number(cell, v)) return false;
  return true;
}

}  // namespace

TuneState read_tune_state(const std::string& out) {
  TuneState state = read_state(out);
  // The table beside the state is the state's own: the two were written together.
  std::error_code ec;
  if (!std::filesystem::is_regular_file(out, ec) ||
      read_file(out, kMaxStateFile, "a tuning table") != state.table)
    throw InputError{"'" + printable(out) + "' is not the table of " + printable(tune_state_path(out)) +
                     " (changed or removed since the stop)"};
  return state;
}

bool spsa_state_fits(const TuneState& state, const std::string& header, const SpsaConfig& c) {
  if (state.batches == 0) return state.theta.empty() && (state.table.empty() || state.table == header);
  if (state.batches > c.batches || state.theta.size() != c.params.size() ||
      !state.table.starts_with(header) || !state.table.ends_with("\n"))
    return false;
  for (const double v : state.theta)
    if (!std::isfinite(v)) return false;
  const auto lines = text::split(std::string_view(state.table).substr(header.size()), '\n');
  if (static_cast<int64_t>(lines.size()) != state.batches + 1) return false;  // the last is empty
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    const auto cells = text::split(lines[i], ',');
    if (cells.size() != 3 + 2 * c.params.size()) return false;
    for (const std::string_view cell : cells)
      if (double v = 0; !text::to_number(cell, v)) return false;
  }
  return true;
}

bool sweep_state_fits(const TuneState& state, const std::vector<std::string>& starts,
                      const std::string& header, int64_t deals) {
  const int64_t count = static_cast<int64_t>(starts.size());
  const int64_t done = ranges_size(state.point.done);  // read_done: ordered, apart, within 2^40
  if (state.points > count || (state.points == count && done > 0)) return false;
  if (state.points == 0 && done == 0) return state.table.empty() || state.table == header;
  if (!state.table.starts_with(header) || !state.table.ends_with("\n") || done > deals ||
      (!state.point.done.empty() && state.point.done.back().second > deals) ||
      state.point.tally.rows != 2 * done)
    return false;
  const auto lines = text::split(std::string_view(state.table).substr(header.size()), '\n');
  if (static_cast<int64_t>(lines.size()) != state.points + 1) return false;  // the last is empty
  for (int64_t i = 0; i < state.points; ++i)
    if (!sweep_row_fits(lines[static_cast<size_t>(i)], starts[static_cast<size_t>(i)])) return false;
  return true;
}

}  // namespace canasta
