#include "cli.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>

#include "canasta/profile.h"

namespace canasta::cli {

int run(int argc, const char* const* argv) {
  CLI::App app{"canasta: a Canasta rules engine, self-play simulator and AI research bench"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "canasta 0.1.0");
  stop_requested() = false;
  int exit_code = 0;
  add_deal(app, exit_code);
  add_play(app, exit_code);
  add_agents(app, exit_code);
  add_replay(app, exit_code);
  add_sim(app, exit_code);
  add_merge(app, exit_code);
  add_tune(app, exit_code);
  add_tournament(app, exit_code);
  add_rules(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "canasta: " << e.what() << " (see --help)\n";
    return kBadInput;
  } catch (const InputError& e) {
    std::cerr << "canasta: " << e.message << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "canasta: " << e.what() << "\n";
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
  return sub.add_option("--seed,-s", seed, help)->check(CLI::NonNegativeNumber)->capture_default_str();
}

CLI::Option* add_threads_option(CLI::App& sub, int& threads) {
  return sub.add_option("--threads,-t", threads, "worker threads (0: all cores)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
}

void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw InputError{"cannot write '" + path + "'"};
    out << text;
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp);
      throw InputError{"cannot write '" + path + "'"};
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw InputError{"cannot write '" + path + "': " + ec.message()};
  }
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError{"cannot read '" + path + "'"};
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_dir(const std::string& dir, const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError{"cannot create '" + dir + "': " + ec.message()};
  for (const auto& [name, text] : files) write_atomically(dir + "/" + name, text);
  fmt::print("  files       ");
  for (const auto& f : files) fmt::print(" {}/{}", dir.c_str(), f.first.c_str());
  fmt::print("\n");
}

std::atomic<bool>& stop_requested() {
  static std::atomic<bool> stop{false};
  return stop;
}

StopOnCtrlC::StopOnCtrlC() {
  std::signal(SIGINT, [](int) {
    stop_requested() = true;
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends at once
  });
}

StopOnCtrlC::~StopOnCtrlC() { std::signal(SIGINT, SIG_DFL); }

Progress::Progress(int64_t total, const char* unit) : total_(total), unit_(unit), tty_(::isatty(2) != 0) {}

void Progress::operator()(int64_t done) {
  if (!tty_) return;
  const int64_t step = std::max<int64_t>(total_ / 200, 1);
  int64_t prev = last_.load();
  if (done - prev < step || !last_.compare_exchange_strong(prev, done)) return;
  const double rate = static_cast<double>(done) / std::max(seconds(), 1e-9);
  fmt::print(stderr, "\r{}/{} {}, {:.0f} {}/s, {:.0f} s left   ", static_cast<long long>(done),
             static_cast<long long>(total_), unit_, rate, unit_, static_cast<double>(total_ - done) / rate);
}

void Progress::clear() {
  if (tty_ && last_.load() > 0) fmt::print(stderr, "\r{:78}\r", "");
  last_ = 0;
}

double Progress::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

RecordFile::RecordFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) return;
  tmp_ = path_ + ".tmp" + std::to_string(::getpid());
  out_.open(tmp_, std::ios::binary);
  if (!out_) throw InputError{"cannot write '" + path_ + "'"};
}

RecordFile::~RecordFile() {
  if (!tmp_.empty()) std::filesystem::remove(tmp_);
}

RecordSink RecordFile::sink() {
  if (path_.empty()) return {};
  return [this](const std::string& lines) {
    out_ << lines;
    if (!out_) stop_requested() = true;
  };
}

void RecordFile::finish() {
  if (path_.empty()) return;
  out_.close();
  std::error_code ec;
  if (!out_) throw InputError{"cannot write '" + path_ + "'"};
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) throw InputError{"cannot write '" + path_ + "': " + ec.message()};
  tmp_.clear();
}

}  // namespace canasta::cli
