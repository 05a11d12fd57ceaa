#include "cli.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <tuple>

#include "canasta/input_file.h"
#include "canasta/json.h"
#include "canasta/params.h"
#include "canasta/profile.h"
#include "cluster.h"

namespace canasta::cli {

int run(int argc, const char* const* argv) {
  CLI::App app{"canasta: a Canasta rules engine, self-play simulator and AI research bench"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "canasta 0.1.0");
  stop_requested() = false;
  command_line().assign(argv, argv + argc);
  int exit_code = 0;
  add_deal(app, exit_code);
  add_play(app, exit_code);
  add_agents(app, exit_code);
  add_replay(app, exit_code);
  add_show(app, exit_code);
  add_sim(app, exit_code);
  add_merge(app, exit_code);
  add_tune(app, exit_code);
  add_tournament(app, exit_code);
  add_rules(app, exit_code);
  add_selfplay(app, exit_code);
  add_train(app, exit_code);
  // Under mpirun `sim`, `tune` and `tournament` are spread over the ranks;
  // any other subcommand runs on rank 0 alone.
  const std::string_view command = argc > 1 ? argv[1] : "";
  if (cluster().size > 1 && cluster().rank != 0 && command != "sim" && command != "tune" &&
      command != "tournament")
    return 0;
  decimal_integers(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "canasta: " << printable(e.what(), 400) << " (see --help)\n";
    return kBadInput;
  } catch (const InputError& e) {
    std::cerr << "canasta: " << printable(e.message, 400) << "\n";
    return kBadInput;
  } catch (const QuietExit& e) {
    return e.code;
  } catch (const std::bad_alloc&) {
    std::cerr << "canasta: out of memory\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "canasta: " << printable(e.what(), 400) << "\n";
    return kBadInput;
  }
  return exit_code;
}

CLI::Option* add_profile_option(CLI::App& sub, Rules& out) {
  return sub
      .add_option_function<std::string>(
          "--profile,-p",
          [&out](const std::string& text) {
            std::string error;
            if (text.empty())
              throw CLI::ValidationError("--profile", "an empty name (canasta rules lists them)");
            if (!parse_profile(text, out, error)) throw CLI::ValidationError("--profile", error);
          },
          "rules profile and overrides, e.g. 'two-player,target=3000' (canasta rules lists them)")
      ->type_name("PROFILE")
      ->default_str("classic");
}

AgentSpec agent_or_throw(const std::string& option, const std::string& text) {
  AgentSpec spec;
  std::string error;
  if (!parse_agent_spec(text, spec, error)) throw CLI::ValidationError(option, error);
  return spec;
}

CLI::Option* add_agent_option(CLI::App& sub, const std::string& name, AgentSpec& out,
                              const std::string& help) {
  const std::string flag = name.substr(0, name.find(','));
  return sub
      .add_option_function<std::string>(
          name, [&out, flag](const std::string& text) { out = agent_or_throw(flag, text); }, help)
      ->type_name("SPEC")
      ->default_str(out.to_string());
}

CLI::Option* add_seed_option(CLI::App& sub, uint64_t& seed, const std::string& help) {
  return sub.add_option("--seed,-s", seed, help)->capture_default_str();
}

CLI::Option* add_threads_option(CLI::App& sub, int& threads) {
  return sub.add_option("--threads,-t", threads, "worker threads (0: all cores)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
}

void remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty() || cluster().rank != 0) return;
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
    for (std::string& file : canasta::files_read(*spec))
      out.push_back({"a model of " + spec->to_string(), file});
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

std::atomic<bool>& stop_requested() {
  static std::atomic<bool> stop{false};
  return stop;
}

namespace {

std::atomic<int> g_signal{0};

void on_signal(int signal) {
  g_signal = signal;
  stop_requested() = true;
  std::signal(signal, SIG_DFL);  // a second one ends the program at once
  // Said at once (write is safe in a handler): a search's deal can take long.
  static constexpr char kSaid[] =
      "\ncanasta: stopping once the deals in progress end (a second signal ends it at once)\n";
  [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kSaid, sizeof kSaid - 1);
}

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The names a run writes into its directory.
bool run_file(const std::string& name) {
  return name == "summary.json" || name == "deals.csv" || name == "games.csv" || name == "run.json" ||
         name == "tournament.json" || name == "pairs.txt";
}

}  // namespace

int stop_signal() { return g_signal.load(); }

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
        !run_file(name->get_ref<const std::string&>()))
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

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    default:
      return "a signal";
  }
}

StopOnSignals::StopOnSignals() {
  g_signal = 0;
  for (const int sig : kStopSignals) std::signal(sig, on_signal);
}

StopOnSignals::~StopOnSignals() {
  for (const int sig : kStopSignals) std::signal(sig, SIG_DFL);
}

std::vector<std::string>& command_line() {
  static std::vector<std::string> args;
  return args;
}

OutDir::OutDir(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  while (dir_.size() > 1 && dir_.back() == '/') dir_.pop_back();
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path path(dir_);
  if (fs::exists(path, ec)) {
    if (!fs::is_directory(path, ec))
      throw InputError{"cannot write into '" + printable(dir_) + "': not a directory"};
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (!run_file(entry.path().filename().string()))
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

OutDir::~OutDir() {
  std::error_code ec;
  if (!tmp_.empty()) std::filesystem::remove_all(tmp_, ec);
}

void OutDir::commit(const std::vector<std::pair<std::string, std::string>>& files, const std::string& status,
                    int64_t rows, const std::vector<std::string>& staged,
                    const std::function<void(JsonWriter&)>& more) {
  if (dir_.empty()) return;
  // The size and checksum of each file: in memory, or read back from the staging directory.
  std::vector<std::tuple<std::string, int64_t, uint64_t>> sums;
  for (const auto& [name, text] : files)
    sums.emplace_back(name, static_cast<int64_t>(text.size()), fnv1a(text));
  for (const std::string& name : staged) {
    std::string error;
    const auto [bytes, h] = file_checksum(tmp_ + "/" + name, -1, error);
    if (bytes < 0) throw InputError{"cannot read back what was written: " + error};
    sums.emplace_back(name, bytes, h);
  }
  // The manifest, written with the files: who wrote them, when, and their checksums.
  std::string manifest;
  JsonWriter w(manifest);
  w.begin_object().field("format", "canasta-run/1").field("program", "canasta 0.1.0");
  w.key("command").begin_array();
  for (const std::string& arg : command_line()) w.value(arg);
  w.end_array();
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
  w.field("date", std::string_view(date)).field("status", status).field("rows", rows);
  if (stop_signal()) w.field("stopped_by", signal_name(stop_signal()));
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
  manifest += '\n';
  for (const auto& [name, text] : files) write_atomically(tmp_ + "/" + name, text);
  write_atomically(tmp_ + "/run.json", manifest);
  // The new directory takes the old one's place in one step (an exchange
  // when there is one), so that there is never a mix of two runs' files.
  std::error_code ec;
  if (std::filesystem::exists(dir_, ec)) {
    if (::renameat2(AT_FDCWD, tmp_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0)
      throw InputError{"cannot replace '" + printable(dir_) + "': " + std::strerror(errno)};
    std::filesystem::remove_all(tmp_, ec);
  } else if (::rename(tmp_.c_str(), dir_.c_str()) != 0) {
    throw InputError{"cannot write '" + printable(dir_) + "': " + std::strerror(errno)};
  }
  tmp_.clear();
  fmt::print("  files       ");
  const std::string dir = printable(dir_, 400);
  for (const auto& f : sums) fmt::print(" {}/{}", dir, std::get<0>(f));
  fmt::print(" {}/run.json\n", dir);
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

StoppedRun read_stopped_run(const std::string& dir, const std::string& subcommand) {
  StoppedRun r;
  r.dir = dir;
  while (r.dir.size() > 1 && r.dir.back() == '/') r.dir.pop_back();
  r.file = r.dir + "/run.json";
  const std::string& path = r.file;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw InputError{"'" + printable(r.dir) + "' is not a run directory (no run.json)"};
  std::string error;
  if (!parse_json(read_file(path, kMaxJsonFile, "a run manifest"), r.manifest, error) ||
      !r.manifest.is_object() || r.manifest.value("format", "") != "canasta-run/1")
    throw InputError{printable(path) + ": not a run manifest" + (error.empty() ? "" : ": " + error)};
  const Json& v = r.manifest;
  if (!read_command(v, r.command) || r.command.size() < 2 || r.command[1] != subcommand)
    throw InputError{printable(path) + ": not the directory of a canasta " + subcommand + " run"};
  const std::string status = v.value("status", "");
  if (status != "partial")
    throw InputError{printable(r.dir) + ": the run is " + (status.empty() ? "of unknown status" : status) +
                     ", there is nothing to resume"};
  if (!v.contains("files") || !v["files"].is_array()) throw InputError{printable(path) + ": bad file list"};
  check_listed_files(r.dir, v);
  return r;
}

void parse_stopped_command(CLI::App& app, const StoppedRun& run, const CLI::Option* threads_option,
                           int threads) {
  std::vector<std::string> args;
  for (size_t i = 1; i < run.command.size(); ++i) {
    const std::string& a = run.command[i];
    if (threads_option->count() > 0 && (a == "--threads" || a == "-t")) {
      ++i;  // the thread count given now replaces the run's
      continue;
    }
    if (threads_option->count() > 0 && a.starts_with("--threads=")) continue;
    args.push_back(a);
  }
  if (threads_option->count() > 0) {
    args.push_back("--threads");
    args.push_back(std::to_string(threads));
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes them last first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    throw InputError{printable(run.file) + ": its command does not read: " + e.what()};
  }
  command_line() = run.command;  // run.json keeps the run's own command, to be resumed again
}

bool resumed(const CLI::App& sub, const std::string& path, int& exit_code,
             const std::function<int(const std::string&, const CLI::Option*)>& resume,
             const std::vector<std::string>& also) {
  if (path.empty()) return false;
  std::string allowed = "--threads";
  for (const std::string& name : also) allowed += (&name == &also.back() ? " and " : ", ") + name;
  for (const CLI::Option* opt : sub.get_options()) {
    const std::string& name = opt->get_name();
    if (opt->count() > 0 && name != "--resume" && name != "--threads" &&
        std::find(also.begin(), also.end(), name) == also.end())
      throw InputError{"--resume takes no other option than " + allowed + " (not " + name + ")"};
  }
  exit_code = resume(path, sub.get_option("--threads"));
  return true;
}

std::string output_named_now(const StoppedRun& run, const std::string& option, const std::string& stored,
                             const std::string& given) {
  if (!given.empty() || stored.empty()) return given;
  throw InputError{printable(run.file) + ": the stopped run wrote " + option + " '" + printable(stored) +
                   "'; a stored command does not choose where the program writes: resume with " + option +
                   " FILE to name that file yourself"};
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

std::string rate_text(double per_second) {
  return per_second >= 100 ? fmt::format("{:.0f}", per_second) : fmt::format("{:.3g}", per_second);
}

Progress::Progress(int64_t total, const char* unit) : total_(total), unit_(unit), tty_(::isatty(2) != 0) {}

void Progress::operator()(int64_t done) {
  const double seconds = this->seconds();
  const auto line = [&] {
    const double rate = static_cast<double>(done) / std::max(seconds, 1e-9);
    return fmt::format("{}/{} {}, {} {}/s, {:.0f} s left", static_cast<long long>(done),
                       static_cast<long long>(total_), unit_, rate_text(rate), unit_,
                       static_cast<double>(total_ - done) / std::max(rate, 1e-9));
  };
  if (!tty_) {
    // Off a terminal: a line after 10 s, then one a minute.
    const auto ms = static_cast<int64_t>(seconds * 1000);
    int64_t due = next_log_ms_.load();
    if (ms < due || !next_log_ms_.compare_exchange_strong(due, ms + 60000)) return;
    fmt::print(stderr, "canasta: {}\n", line());
    return;
  }
  const int64_t step = std::max<int64_t>(total_ / 200, 1);
  int64_t prev = last_.load();
  if (done - prev < step || !last_.compare_exchange_strong(prev, done)) return;
  fmt::print(stderr, "\r{}   ", line());
}

void Progress::clear() {
  if (tty_ && last_.load() > 0) fmt::print(stderr, "\r{:78}\r", "");
  last_ = 0;
}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

StreamFile::StreamFile(std::string path, std::string head) : path_(std::move(path)), head_(std::move(head)) {
  if (path_.empty()) return;
  path_ = output_file(path_);
  remove_stale_temporaries(path_);
  // Rank 0's temporary name; under mpirun every rank writes a part beside it.
  tmp_ = cluster_broadcast(path_ + ".tmp" + std::to_string(::getpid()));
  part_ = cluster().size > 1 ? tmp_ + ".part" + std::to_string(cluster().rank) : tmp_;
  errno = 0;
  if (std::string error; !create_temporary(part_, error)) {
    tmp_.clear();
    part_.clear();
    throw InputError{error};
  }
  out_.open(part_, std::ios::binary);
  if (!out_) {
    const std::string why = errno ? std::strerror(errno) : "cannot open";
    tmp_.clear();
    part_.clear();
    throw InputError{"cannot write '" + printable(path_) + "': " + why};
  }
  if (cluster().size == 1) out_ << head_;
}

StreamFile::~StreamFile() {
  std::error_code ec;
  if (!part_.empty()) std::filesystem::remove(part_, ec);
  if (!tmp_.empty() && cluster().rank == 0) std::filesystem::remove(tmp_, ec);
}

void StreamFile::write(std::string_view text) {
  out_.write(text.data(), static_cast<std::streamsize>(text.size()));
  pending_ += static_cast<int64_t>(text.size());
  if (!out_) stop_requested() = true;
}

RecordSink StreamFile::sink() {
  if (path_.empty()) return {};
  return [this](const std::string& lines) { write(lines); };
}

void StreamFile::end_batch() {
  sizes_.push_back(pending_);
  pending_ = 0;
}

void StreamFile::finish() {
  if (path_.empty()) return;
  if (pending_ > 0 || sizes_.empty()) end_batch();
  out_.close();
  if (!out_ && cluster().size > 1) cluster_abort("cannot write '" + printable(part_) + "'", kBadInput);
  if (!out_) throw InputError{"cannot write '" + printable(path_) + "'"};
  if (cluster().size > 1) {
    // The parts, batch by batch in rank order, into rank 0's temporary file.
    std::ifstream in(part_, std::ios::binary);
    cluster_concat(tmp_, head_, sizes_, [&](size_t, int64_t bytes, std::string& text) {
      text.resize(static_cast<size_t>(bytes));
      if (!in.read(text.data(), static_cast<std::streamsize>(text.size())))
        cluster_abort("cannot read back '" + printable(part_) + "'", 1);
    });
    std::error_code ec;
    std::filesystem::remove(part_, ec);
    part_.clear();
    if (cluster().rank != 0) {
      tmp_.clear();
      return;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) throw InputError{"cannot write '" + printable(path_) + "': " + ec.message()};
  tmp_.clear();
  part_.clear();
}

void on_every_rank(const std::function<void()>& step) {
  if (cluster().size == 1) return step();
  std::string error;
  try {
    step();
  } catch (const InputError& e) {
    error = e.message;
  }
  std::array<int64_t, 1> failed{error.empty() ? 0 : 1};
  cluster_processes().add_up(failed);
  if (!error.empty()) throw InputError{error};
  if (failed[0] > 0) throw QuietExit{kBadInput};
}

}  // namespace canasta::cli
