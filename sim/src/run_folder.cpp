#include "canasta/run_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <tuple>

#include "canasta/files.h"
#include "canasta/input_file.h"
#include "canasta/params.h"

namespace canasta {

uint64_t fnv1a(std::string_view text, uint64_t h) {
  for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h;
}

std::pair<int64_t, uint64_t> file_checksum(const std::string& path, int64_t expected, std::string& error) {
  const int fd = open_input_file(path, kNoSizeCap, "a file of a run", error, Links::kRefuse);
  if (fd < 0) return {-1, 0};
  struct stat st {};
  if (expected >= 0 && (::fstat(fd, &st) != 0 || st.st_size != expected)) {
    ::close(fd);
    return {st.st_size, 0};  // not read through: not the file expected
  }
  std::string block(1 << 20, '\0');
  int64_t bytes = 0;
  uint64_t h = kFnvStart;
  for (;;) {
    const ssize_t n = ::read(fd, block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      if (n < 0) error = "cannot read '" + printable(path) + "': " + std::strerror(errno);
      return n < 0 ? std::pair<int64_t, uint64_t>{-1, 0} : std::pair<int64_t, uint64_t>{bytes, h};
    }
    h = fnv1a(std::string_view(block.data(), static_cast<size_t>(n)), h);
    bytes += n;
  }
}

bool is_run_file(std::string_view name) {
  return name == "summary.json" || name == "deals.csv" || name == "games.csv" || name == "run.json" ||
         name == "tournament.json" || name == "pairs.txt";
}

bool lists_file(const Json& manifest, const std::string& name) {
  const auto it = manifest.is_object() ? manifest.find("files") : manifest.end();
  if (it == manifest.end() || !it->is_array()) return false;
  for (const Json& f : *it)
    if (f.is_object() && f.contains("name") && f["name"] == name) return true;
  return false;
}

void check_listed_files(const std::string& dir, const Json& manifest) {
  if (!manifest.contains("files")) return;
  if (!manifest["files"].is_array()) throw InputError{printable(dir) + "/run.json: bad file list"};
  for (const Json& f : manifest["files"]) {
    const auto field = [&f](const char* key, bool (Json::*is)() const) {
      return f.is_object() && f.contains(key) && (f[key].*is)() ? &f[key] : nullptr;
    };
    const Json *name = field("name", &Json::is_string), *size = field("bytes", &Json::is_number_unsigned),
               *hash = field("fnv1a64", &Json::is_string);
    if (!name || !size || !hash || name->get_ref<const std::string&>().find('/') != std::string::npos ||
        !is_run_file(name->get_ref<const std::string&>()))
      throw InputError{printable(dir) + "/run.json: bad file entry"};
    const std::string path = dir + "/" + name->get_ref<const std::string&>();
    std::string error;
    const uint64_t listed = size->get<uint64_t>();
    if (listed > static_cast<uint64_t>(INT64_MAX))
      throw InputError{printable(dir) + "/run.json: bad file entry"};
    const auto [bytes, h] = file_checksum(path, static_cast<int64_t>(listed), error);
    if (bytes < 0) throw InputError{error + " (run.json lists it)"};
    if (static_cast<uint64_t>(bytes) != size->get<uint64_t>() ||
        hash->get_ref<const std::string&>() != fmt::format("{:016x}", h))
      throw InputError{printable(path) + ": not the file run.json lists (changed, or from another run)"};
  }
}

void write_tally(JsonWriter& w, const Tally& t) {
  w.key("tally").begin_array();
  const Tally canonical = t.normalized();  // alive for the loop: words() points into it
  for (const int64_t word : canonical.words()) w.value(word);
  w.end_array();
}

bool read_tally(const Json& run, Tally& t) {
  const auto words = t.words();
  const auto it = run.is_object() ? run.find("tally") : run.end();
  if (it == run.end() || !it->is_array() || it->size() != words.size()) return false;
  for (size_t i = 0; i < words.size(); ++i) {
    if (!(*it)[i].is_number_integer()) return false;
    words[i] = (*it)[i].get<int64_t>();
  }
  return t.in_range();
}

void write_done(JsonWriter& w, const Ranges& done) {
  w.key("done").begin_array();
  for (const auto& [b, e] : done) w.begin_array().value(b).value(e).end_array();
  w.end_array();
}

bool read_done(const Json& object, Ranges& done) {
  done.clear();
  const auto it = object.is_object() ? object.find("done") : object.end();
  if (it == object.end() || !it->is_array()) return false;
  // Ranges of positions of a run (at most 2^40), in order, apart: their
  // sizes then add up within 64 bits.
  constexpr int64_t kMaxPosition = int64_t{1} << 40;
  int64_t after = 0;
  for (const Json& range : *it) {
    if (!range.is_array() || range.size() != 2 || !range[0].is_number_integer() ||
        !range[1].is_number_integer())
      return false;
    const int64_t b = range[0].get<int64_t>(), e = range[1].get<int64_t>();
    if (b < after || e <= b || e > kMaxPosition) return false;
    done.emplace_back(b, e);
    after = e;
  }
  return true;
}

bool read_command(const Json& object, std::vector<std::string>& command) {
  command.clear();
  const auto it = object.is_object() ? object.find("command") : object.end();
  if (it == object.end() || !it->is_array()) return false;
  // Text that would hide on a terminal is refused here, where it comes in.
  for (const Json& arg : *it) {
    if (!arg.is_string() || !plain_text(arg.get_ref<const std::string&>())) return false;
    command.push_back(arg.get<std::string>());
  }
  return true;
}

RunFolder::RunFolder(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path path(dir_);
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec))
      throw InputError{"cannot write into '" + printable(dir_) + "': not a directory"};
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (!is_run_file(entry.path().filename().string()))
        throw InputError{"'" + printable(dir_) + "' holds other files than a run's (" +
                         printable(entry.path().filename().string()) + "): choose a new or empty directory"};
  }
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  remove_stale_temporaries(dir_);
  tmp_ = dir_ + ".tmp" + std::to_string(::getpid());
  fs::remove_all(tmp_, ec);
  if (!fs::create_directory(tmp_, ec) || ec) {
    const std::string why = ec ? ec.message() : "it exists";
    tmp_.clear();
    throw InputError{"cannot write into '" + printable(dir_) + "': " + why};
  }
}

RunFolder::~RunFolder() {
  std::error_code ec;
  if (!tmp_.empty()) std::filesystem::remove_all(tmp_, ec);
}

namespace {

// run.json: who wrote the files, when, and their sizes and checksums.
std::string manifest_text(const RunManifest& m,
                          const std::vector<std::tuple<std::string, int64_t, uint64_t>>& sums,
                          const std::function<void(JsonWriter&)>& more) {
  std::string text;
  JsonWriter w(text);
  w.begin_object().field("format", "canasta-run/1").field("program", "canasta 0.1.0");
  w.key("command").begin_array();
  for (const std::string& arg : m.command) w.value(arg);
  w.end_array();
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  w.field("date", std::string_view(date)).field("status", m.status).field("rows", m.rows);
  if (!m.stopped_by.empty()) w.field("stopped_by", m.stopped_by);
  w.key("files").begin_array();
  for (const auto& [name, bytes, h] : sums)
    w.begin_object()
        .field("name", name)
        .field("bytes", bytes)
        .field("fnv1a64", fmt::format("{:016x}", h))
        .end_object();
  w.end_array();
  if (more) more(w);
  w.end_object();
  text += '\n';
  return text;
}

}  // namespace

std::vector<std::string> RunFolder::commit(const std::vector<std::pair<std::string, std::string>>& files,
                                           const RunManifest& manifest,
                                           const std::vector<std::string>& staged,
                                           const std::function<void(JsonWriter&)>& more) {
  if (dir_.empty()) return {};
  // The size and checksum of each file: in memory, or read back from the staging folder.
  std::vector<std::tuple<std::string, int64_t, uint64_t>> sums;
  for (const auto& [name, text] : files)
    sums.emplace_back(name, static_cast<int64_t>(text.size()), fnv1a(text));
  for (const std::string& name : staged) {
    std::string error;
    const auto [bytes, h] = file_checksum(tmp_ + "/" + name, -1, error);
    if (bytes < 0) throw InputError{"cannot read back what was written: " + error};
    sums.emplace_back(name, bytes, h);
  }
  const std::string text = manifest_text(manifest, sums, more);
  for (const auto& [name, content] : files) write_atomically(tmp_ + "/" + name, content);
  write_atomically(tmp_ + "/run.json", text);
  // The new folder takes the old one's place in one step (an exchange when
  // there is one), so that there is never a mix of two runs' files.
  std::error_code ec;
  if (std::filesystem::exists(dir_, ec)) {
    if (::renameat2(AT_FDCWD, tmp_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0)
      throw InputError{"cannot replace '" + printable(dir_) + "': " + std::strerror(errno)};
    std::filesystem::remove_all(tmp_, ec);
  } else if (::rename(tmp_.c_str(), dir_.c_str()) != 0) {
    throw InputError{"cannot write '" + printable(dir_) + "': " + std::strerror(errno)};
  }
  tmp_.clear();
  std::vector<std::string> names;
  for (const auto& f : sums) names.push_back(std::get<0>(f));
  names.emplace_back("run.json");
  return names;
}

}  // namespace canasta
