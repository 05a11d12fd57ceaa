#include "policy.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../cli.h"
#include "canasta/input_file.h"
#include "canasta/policy_samples.h"
#include "canasta/profile.h"

namespace canasta::cli {

int run_policy_selfplay(const ExperimentConfig& c, double share, const AgentSpec* teacher,
                        const std::string& path) {
  StopOnSignals signals;
  std::string error;
  if (!check_config(c, error)) throw InputError{error};
  const std::string agents = c.side0.to_string() + " against " + c.side1.to_string() +
                             (teacher ? ", taught by " + teacher->to_string() : "");
  check_distinct_files({{"--out", path}}, files_read(c));
  const std::string out = output_file(path);
  const std::string tmp = out + ".tmp";
  if (!create_temporary(tmp, error)) throw InputError{error};
  std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError{"cannot write '" + printable(path) + "'"};
  file << policy_sample_header(c.rules, agents, c.seed, 0);
  PolicySelfplay run{c.rules, c.side0, c.side1, c.seed, c.deals, share, c.threads, teacher != nullptr, {}};
  if (teacher) run.teacher = *teacher;
  Progress progress(c.deals, "deals");
  int64_t deals = 0, samples = 0;
  const bool ok = play_policy_selfplay(
      run,
      [&](const std::string& bytes) { file.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); },
      &stop_requested(), deals, samples, error, [&progress](int64_t done) { progress(done); });
  const double seconds = progress.seconds();
  progress.clear();
  file.seekp(static_cast<std::streamoff>(kPolicySampleCountOffset));
  file.write(reinterpret_cast<const char*>(&samples), sizeof samples);
  file.close();
  if (!ok || !file || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError{ok ? "cannot write '" + printable(path) + "'" : error};
  }
  fmt::print("canasta selfplay: policy targets, {}, profile {}, seed {}\n", agents, profile_spec(c.rules),
             c.seed);
  fmt::print("  deals        {} ({} a second)\n", deals,
             rate_text(static_cast<double>(deals) / std::max(seconds, 1e-9)));
  fmt::print("  samples      {} decisions kept (a share {:g} of those among two or more actions)\n", samples,
             share);
  fmt::print("  file         {}\n", printable(path, 400));
  const int signal = stop_signal();
  if (signal)
    fmt::print("  stopped      by {}: the file holds the deals that finished\n", signal_name(signal));
  return signal ? 128 + signal : 0;
}

int run_policy_train(PolicyTrainOptions& o) {
  check_output_file("--out", o.out);
  check_output_file("--curve", o.curve);
  check_distinct_files({{"--out", o.out}, {"--curve", o.curve}},
                       {{"the sample file", o.samples}, {"--init", o.init}});
  std::string error;
  PolicyModel start;
  if (!o.init.empty()) {
    if (!PolicyModel::load(o.init, start, error)) throw InputError{error};
    o.config.init = &start;
    o.config.hidden = start.hidden();
  }
  const auto t0 = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  PolicySamples data;
  if (!read_policy_samples(o.samples, data, error)) throw InputError{error};
  fmt::print("canasta train: a policy of {} hidden units on {} decisions of {} ({}, profile {}){}\n",
             o.config.hidden, data.size(), printable(o.samples, 200), printable(data.agents, 200),
             profile_spec(data.rules), o.init.empty() ? "" : ", from " + printable(o.init, 200));
  std::string curve = "epoch,train_loss,held_loss,held_agreement,seconds\n";
  PolicyTrainResult result;
  PolicyModel policy;
  const auto report = [&](const PolicyEpochReport& r) {
    fmt::print("  epoch {:>3}  loss {:.4f}  held-out loss {:.4f}  agreement {:.2f}%  ({:.1f} s)\n", r.epoch,
               r.train_loss, r.held_loss, 100 * r.held_agreement, elapsed());
    std::fflush(stdout);
    curve += fmt::format("{},{:.6f},{:.6f},{:.6f},{:.2f}\n", r.epoch, r.train_loss, r.held_loss,
                         r.held_agreement, elapsed());
  };
  if (!train_policy(data, o.config, policy, result, report, error)) throw InputError{error};
  if (!policy.save(output_file(o.out), error)) throw InputError{error};
  if (!o.curve.empty()) write_atomically(o.curve, curve);
  fmt::print("  held out     {} of {} decisions (whole deals)\n", result.held, result.held + result.train);
  fmt::print(
      "  held out     cross-entropy {:.4f} (uniform {:.4f}), {} most likely {:.2f}% (uniform {:.2f}%), epoch "
      "{}\n",
      result.held_loss, result.uniform_loss,
      o.config.target == PolicyTarget::kPlayed ? "the action played" : "the search's most visited action",
      100 * result.held_agreement, 100 * result.uniform_agreement, result.best_epoch);
  fmt::print("  policy       {} ({} bytes), {:.1f} s\n", printable(o.out, 400),
             std::filesystem::file_size(o.out), elapsed());
  return 0;
}

}  // namespace canasta::cli
