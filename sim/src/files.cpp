#include "canasta/files.h"

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <utility>

#include "canasta/input_file.h"
#include "canasta/params.h"

namespace canasta {

void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return;
  const fs::path p(path);
  const std::string base = p.filename().string() + ".tmp";
  const fs::path parent = p.has_parent_path() ? p.parent_path() : fs::path(".");
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(base)) continue;
    const std::string rest = name.substr(base.size());
    const size_t digits = std::min(rest.find_first_not_of("0123456789"), rest.size());
    if (digits == 0 || digits > 9 || (digits < rest.size() && !rest.substr(digits).starts_with(".part")))
      continue;
    const pid_t pid = static_cast<pid_t>(std::stol(rest.substr(0, digits)));
    if (pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH) stale.push_back(entry.path());
  }
  for (const fs::path& s : stale) fs::remove_all(s, ec);
}

std::string output_file(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path target = path;
  // Link by link (the last may name a file not written yet).
  for (int hops = 0; fs::is_symlink(fs::symlink_status(target, ec)); ++hops) {
    const fs::path next = fs::read_symlink(target, ec);
    if (ec || hops == 40) throw InputError{"cannot follow the link '" + printable(path) + "'"};
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  const fs::file_status st = fs::status(target, ec);
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw InputError{"'" + printable(path) + "' is not a regular file" +
                     (fs::is_directory(st) ? " but a directory" : "") +
                     ": the output goes to a file of its own"};
  // Missing folders are made, as for a run directory (--out).
  if (target.has_parent_path() && !fs::is_directory(target.parent_path(), ec)) {
    fs::create_directories(target.parent_path(), ec);
    if (ec)
      throw InputError{"cannot write '" + printable(path) + "': cannot make the folder '" +
                       printable(target.parent_path().string()) + "' (" + ec.message() + ")"};
  }
  return target.string();
}

void check_output_file(const std::string& option, const std::string& path) {
  if (path.empty()) return;
  std::filesystem::path target;
  try {
    target = output_file(path);
  } catch (const InputError& e) {
    throw InputError{option + ": " + e.message};
  }
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : ".";
  if (::access(folder.c_str(), W_OK) != 0)
    throw InputError{option + ": cannot write '" + printable(path) + "' (the folder '" +
                     printable(folder.string()) + "' is not writable)"};
}

void write_atomically(const std::string& given, const std::string& text) {
  const std::string path = output_file(given);
  remove_stale_temporaries(path);
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::string error;
    if (!create_temporary(tmp, error)) throw InputError{error};
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw InputError{"cannot write '" + printable(path) + "'"};
    out << text;
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp);
      throw InputError{"cannot write '" + printable(path) + "'"};
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw InputError{"cannot write '" + printable(path) + "': " + ec.message()};
  }
}

namespace {

// Where `path` leads: absolute, every link followed, the last ones too where
// they name what does not exist yet (a dangling link is where a write goes).
std::filesystem::path resolved(const std::filesystem::path& path, int& hops) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path out = fs::absolute(path, ec).root_path();
  for (const fs::path& part : fs::absolute(path, ec).relative_path()) {
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      out = out.parent_path();
      continue;
    }
    const fs::path next = out / part;
    if (!fs::is_symlink(fs::symlink_status(next, ec)) || ++hops > 40) {
      out = next;
      continue;
    }
    const fs::path target = fs::read_symlink(next, ec);
    out = ec ? next : resolved(target.is_absolute() ? target : out / target, hops);
  }
  return out;
}

}  // namespace

void check_distinct_files(const std::vector<NamedPath>& outputs, const std::vector<NamedPath>& inputs,
                          const std::vector<NamedPath>& output_dirs) {
  namespace fs = std::filesystem;
  const auto where = [](const std::string& path) {
    int hops = 0;
    return resolved(path, hops);
  };
  const auto named = [](const NamedPath& n) { return n.option + " '" + printable(n.path) + "'"; };
  std::vector<std::pair<fs::path, const NamedPath*>> seen;
  for (const NamedPath& in : inputs)
    if (!in.path.empty()) seen.emplace_back(where(in.path), &in);
  for (const NamedPath& out : outputs) {
    if (out.path.empty()) continue;
    const fs::path p = where(out.path);
    for (const auto& [q, other] : seen)
      if (p == q)
        throw InputError{named(out) + " is also " + named(*other) +
                         ": it would be written over; name another file"};
    for (const NamedPath& dir : output_dirs) {
      if (dir.path.empty()) continue;
      const fs::path d = where(dir.path);
      if (std::mismatch(d.begin(), d.end(), p.begin(), p.end()).first == d.end())
        throw InputError{named(out) + " lies inside " + named(dir) +
                         ", which is replaced as a whole at the end: name a file outside it"};
    }
    seen.emplace_back(p, &out);
  }
}

std::vector<NamedPath> files_read(const std::vector<const AgentSpec*>& specs) {
  std::vector<NamedPath> out;
  for (const AgentSpec* spec : specs)
    for (std::string& file : files_read(*spec)) out.push_back({"a model of " + spec->to_string(), file});
  return out;
}

std::vector<NamedPath> files_read(const ExperimentConfig& c) {
  std::vector<const AgentSpec*> specs{&c.side0, &c.side1};
  if (c.side2) specs.push_back(&*c.side2);
  for (const SeatAgent& s : c.seats) specs.push_back(&s.agent);
  return files_read(specs);
}

void check_not_folder(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError{"'" + printable(path) + "' is a folder, not a file"};
}

std::string read_file(const std::string& path, uint64_t max_bytes, std::string_view what) {
  std::string text, error;
  if (!read_input_file(path, max_bytes, what, text, error, Links::kRefuse)) throw InputError{error};
  return text;
}

}  // namespace canasta
