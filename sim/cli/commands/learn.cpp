// canasta selfplay: training samples from self-play; canasta train: a value
// model fitted on them (agents/doc/learned.md).
#include "canasta/learn.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "../cli.h"
#include "canasta/input_file.h"
#include "canasta/policy_samples.h"
#include "canasta/profile.h"
#include "canasta/runner.h"
#include "canasta/selfplay.h"
#include "canasta/text.h"
#include "policy.h"

namespace canasta::cli {

namespace {

struct SelfplayOptions {
  ExperimentConfig c;
  std::string out;
  int per_deal = 4;
  bool duplicate = false, policy = false;
  double share = 0.25;
  CLI::Option *duplicate_option = nullptr, *side0 = nullptr, *side1 = nullptr, *per_deal_option = nullptr,
              *share_option = nullptr, *teacher_option = nullptr;
  AgentSpec teacher;
};

int run_selfplay(SelfplayOptions& o) {
  ExperimentConfig& c = o.c;
  // The heuristic by default, read here so that other commands do not read its spec.
  if (o.side0->count() == 0) c.side0 = agent_or_throw("--side0", "heuristic");
  if (o.side1->count() == 0) c.side1 = agent_or_throw("--side1", "heuristic");
  if (o.policy) {
    if (o.per_deal_option->count() > 0 || o.duplicate_option->count() > 0)
      throw InputError{
          "--policy keeps a share of the decisions of every deal (--share), played once: "
          "not with --per-deal or --duplicate"};
    return run_policy_selfplay(c, o.share, o.teacher_option->count() > 0 ? &o.teacher : nullptr, o.out);
  }
  if (o.share_option->count() > 0) throw InputError{"--share goes with --policy"};
  if (o.teacher_option->count() > 0) throw InputError{"--teacher goes with --policy"};
  c.duplicate = o.duplicate_option->count() > 0 ? o.duplicate : c.side0 != c.side1;
  StopOnSignals signals;
  std::string error;
  if (!check_config(c, error)) throw InputError{error};
  const std::string agents = c.side0.to_string() + " against " + c.side1.to_string();
  check_distinct_files({{"--out", o.out}}, files_read(c));
  const std::string out = output_file(o.out);
  const std::string tmp = out + ".tmp";
  if (!create_temporary(tmp, error)) throw InputError{error};
  std::ofstream file(tmp, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError{"cannot write '" + printable(o.out) + "'"};
  RunHooks hooks;
  hooks.stop = &stop_requested();
  Progress progress(shard_size(c.deals, c) * twin_count(c), "deals");
  hooks.progress = [&progress](int64_t done) { progress(done); };
  SelfplayCount count;
  const bool ok = write_selfplay_samples(c, agents, o.per_deal, file, hooks, count, error);
  const double seconds = progress.seconds();
  progress.clear();
  if (!ok) {
    file.close();
    std::remove(tmp.c_str());
    throw InputError{error};
  }
  file.close();
  if (!file || std::rename(tmp.c_str(), out.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw InputError{"cannot write '" + printable(o.out) + "'"};
  }
  fmt::print("canasta selfplay: {}, profile {}, seed {}\n", agents, profile_spec(c.rules), c.seed);
  fmt::print("  deals        {} ({} a second)\n", count.deals,
             rate_text(static_cast<double>(count.deals) / std::max(seconds, 1e-9)));
  fmt::print("  samples      {} of {} features, up to {} a deal\n", count.samples, feature_count(c.rules),
             o.per_deal);
  fmt::print("  file         {}\n", printable(o.out, 400));
  const int signal = stop_signal();
  if (signal)
    fmt::print("  stopped      by {}: the file holds the deals that finished\n", signal_name(signal));
  return signal ? 128 + signal : 0;
}

struct TrainOptions {
  std::string samples, out, hidden = "64,32", curve, calibration, init, target = "visits";
  bool linear = false, policy = false;
  TrainConfig config;
  CLI::Option* hidden_option = nullptr;
  CLI::Option* target_option = nullptr;
};

// The widths of --hidden: "64,32".
std::vector<int> parse_hidden(const std::string& text) {
  std::vector<int> hidden;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    int width = 0;
    const auto item =
        std::string_view(text).substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!text::to_number(item, width) || width < 1 || width > ValueModel::kMaxWidth)
      throw InputError{"--hidden wants widths 1.." + std::to_string(ValueModel::kMaxWidth) +
                       " separated by commas, e.g. 64,32 (not '" + printable(text) + "')"};
    hidden.push_back(width);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return hidden;
}

// The held-out samples in 20 bins of equal size by predicted margin (CSV).
std::string calibration_csv(const TrainResult& result, double squash) {
  std::string csv = "bin,samples,predicted,final\n";
  const int digits = squash > 0 ? 4 : 1;  // a squashed target lies in [-1, 1]
  size_t b = 0;
  for (const CalibrationBin& bin : calibration_bins(result, 20))
    csv += fmt::format("{},{},{:.{}f},{:.{}f}\n", b++, bin.samples, bin.predicted, digits, bin.final, digits);
  return csv;
}

// canasta train --policy: the shared options, as the policy's training takes them.
int train_policy_command(const TrainOptions& o, const CLI::App& sub) {
  for (const char* value_only : {"--linear", "--ridge", "--squash", "--calibration"})
    if (sub.get_option(value_only)->count() > 0)
      throw InputError{std::string(value_only) + " is for value models, not with --policy"};
  PolicyTrainOptions p{o.samples, o.out, o.curve, o.init, {}};
  if (o.hidden_option->count() > 0) {
    const std::vector<int> hidden = parse_hidden(o.hidden);
    if (hidden.size() != 1) throw InputError{"--hidden: a policy has one hidden layer (e.g. --hidden 64)"};
    p.config.hidden = hidden[0];
  }
  p.config.epochs = o.config.epochs;
  p.config.patience = o.config.patience;
  p.config.batch = o.config.batch;
  p.config.rate = o.config.rate;
  p.config.holdout = o.config.holdout;
  p.config.seed = o.config.seed;
  p.config.target = o.target == "played" ? PolicyTarget::kPlayed : PolicyTarget::kVisits;
  return run_policy_train(p);
}

int run_train(TrainOptions& o) {
  if (o.target_option->count() > 0) throw InputError{"--target is for policies: give --policy"};
  check_output_file("--out", o.out);
  check_output_file("--curve", o.curve);
  check_output_file("--calibration", o.calibration);
  check_distinct_files({{"--out", o.out}, {"--curve", o.curve}, {"--calibration", o.calibration}},
                       {{"the sample file", o.samples}, {"--init", o.init}});
  TrainConfig& t = o.config;
  if (!o.linear) t.hidden = parse_hidden(o.hidden);
  SampleSet data;
  std::string error;
  ValueModel start;
  if (!o.init.empty()) {
    if (o.linear) throw InputError{"--init starts a perceptron from a model; it does not go with --linear"};
    if (!ValueModel::load(o.init, start, error)) throw InputError{error};
    if (start.linear())
      throw InputError{"--init wants a perceptron, and " + printable(o.init, 400) + " is linear"};
    t.hidden = start.hidden();
    t.init = &start;
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (is_policy_sample_file(o.samples)) {
    PolicySamples targets;  // a search's own games: their positions and margins
    if (!read_policy_samples(o.samples, targets, error)) throw InputError{error};
    data = value_samples_of(std::move(targets));
  } else if (!read_samples(o.samples, data, error)) {
    throw InputError{error};
  }
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  std::string hidden;
  for (const int w : t.hidden) hidden += (hidden.empty() ? "" : ",") + std::to_string(w);
  const double squash = t.target_squash();
  fmt::print("canasta train: {} model of the {} on {} samples of {} ({}, profile {}){}\n",
             o.linear ? std::string("a linear") : "a perceptron " + hidden,
             squash > 0 ? fmt::format("final margin squashed, tanh(margin / {:g}),", squash) : "final margin",
             data.size(), printable(o.samples, 200), printable(data.agents, 200), profile_spec(data.rules),
             o.init.empty() ? "" : ", from " + printable(o.init, 200));
  std::string curve = "epoch,train_loss,held_loss,held_r2,seconds\n";
  TrainResult result;
  ValueModel model;
  const bool ok = train_value_model(
      data, t, model, result,
      [&](const EpochReport& r) {
        fmt::print("  epoch {:>3}  loss {:.4f}  held-out loss {:.4f}  R2 {:.4f}  ({:.1f} s)\n", r.epoch,
                   r.train_loss, r.held_loss, r.held_r2, elapsed());
        std::fflush(stdout);
        curve += fmt::format("{},{:.6f},{:.6f},{:.6f},{:.2f}\n", r.epoch, r.train_loss, r.held_loss,
                             r.held_r2, elapsed());
      },
      error);
  if (!ok) throw InputError{error};
  if (!model.save(output_file(o.out), error)) throw InputError{error};
  if (!o.curve.empty()) write_atomically(o.curve, curve);
  if (!o.calibration.empty()) write_atomically(o.calibration, calibration_csv(result, squash));
  fmt::print("  held out     {} of {} samples (whole deals)\n", result.held, result.held + result.train);
  fmt::print("  R2           {:.4f} held out{}; the table's margin as it stands{}: {:.4f}\n", result.held_r2,
             o.linear ? "" : fmt::format(" (epoch {})", result.best_epoch), squash > 0 ? " (squashed)" : "",
             result.table_r2);
  fmt::print("  model        {} ({} bytes), {:.1f} s\n", printable(o.out, 400),
             std::filesystem::file_size(o.out), elapsed());
  return 0;
}

}  // namespace

void add_selfplay(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<SelfplayOptions>();
  auto* sub = app.add_subcommand("selfplay",
                                 "training samples from self-play: positions with their deal's final margin");
  ExperimentConfig& c = o->c;
  c.deals = 10000;
  o->side0 = add_agent_option(*sub, "--side0", c.side0, "agent spec of side 0")->default_str("heuristic");
  o->side1 = add_agent_option(*sub, "--side1", c.side1, "agent spec of side 1")->default_str("heuristic");
  sub->add_option("--deals,-n", c.deals, "number of deals (each played twice in duplicate)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
      ->capture_default_str();
  o->per_deal_option =
      sub->add_option("--per-deal", o->per_deal, "positions sampled from each deal, among its decisions")
          ->check(CLI::Range(1, 1000))
          ->capture_default_str();
  o->duplicate_option =
      sub->add_flag("--duplicate,!--no-duplicate", o->duplicate,
                    "play every deal twice with the sides swapped (default: when the agents differ)");
  add_threads_option(*sub, c.threads);
  add_seed_option(*sub, c.seed, "simulation seed");
  add_profile_option(*sub, c.rules);
  sub->add_option("--out,-o", o->out, "the sample file to write (agents/doc/learned.md)")
      ->required()
      ->check(named());
  sub->add_flag("--policy", o->policy,
                "write policy targets instead (agents/doc/policy.md): at a share of the decisions, the "
                "acting seat's features, the legal actions, a search's root visits (another agent's choice "
                "as one visit), the action played and the final margin");
  o->share_option = sub->add_option("--share", o->share, "with --policy: the share of the decisions kept")
                        ->check(CLI::Range(0.001, 1.0))
                        ->capture_default_str();
  o->teacher_option = add_agent_option(
      *sub, "--teacher", o->teacher,
      "with --policy, the targets are this agent's choices (a search's visits) on the acting seat's view, "
      "while the sides play on: the teacher's advice in the positions the players reach");
  sub->callback([o, &exit_code] { exit_code = run_selfplay(*o); });
}

void add_train(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<TrainOptions>();
  auto* sub =
      app.add_subcommand("train", "fit a value model (linear or a small perceptron) on selfplay samples");
  sub->add_option("samples", o->samples, "a sample file of canasta selfplay")->required();
  sub->add_option("--out,-o", o->out, "the model file to write")->required()->check(named());
  sub->add_flag("--linear", o->linear, "a linear model (ridge regression) instead of the perceptron");
  auto* hidden = o->hidden_option =
      sub->add_option("--hidden", o->hidden,
                      "the perceptron's hidden layers, e.g. 64,32 (a policy's one: 64)")
          ->capture_default_str();
  sub->add_option(
         "--init", o->init,
         "start from this perceptron (its layers and scaling) instead of random weights: expert iteration")
      ->excludes(hidden);
  sub->add_option("--epochs", o->config.epochs, "most epochs")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  sub->add_option("--patience", o->config.patience, "epochs without a better held-out loss before stopping")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub->add_option("--batch", o->config.batch, "minibatch size")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  sub->add_option("--rate", o->config.rate, "Adam's step size")
      ->check(CLI::Validator(
          [](const std::string& text) {
            double v = 0;
            return CLI::detail::lexical_cast(text, v) && v >= 1e-7 && v <= 1
                       ? std::string()
                       : "must be 1e-7 to 1, not " + text;
          },
          "1e-7 to 1"))
      ->capture_default_str();
  sub->add_option("--ridge", o->config.ridge, "the linear model's penalty per sample")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  sub->add_option("--squash", o->config.squash,
                  "fit tanh(final margin / S) instead of the margin: the reward of a search with scale=S")
      ->check(CLI::Range(1.0, 1e6))
      ->excludes("--init");
  sub->add_option("--holdout", o->config.holdout, "share of the deals held out")
      ->check(CLI::Range(0.01, 0.9))
      ->capture_default_str();
  add_seed_option(*sub, o->config.seed,
                  "seed of the split, the initial weights and the order of the samples");
  sub->add_option("--curve", o->curve, "write the learning curve here (CSV: epoch, losses, R2, seconds)")
      ->check(named());
  sub->add_option(
         "--calibration", o->calibration,
         "write the held-out calibration here (CSV: 20 bins by predicted margin, their mean final margin)")
      ->check(named());
  sub->add_flag(
      "--policy", o->policy,
      "fit a policy on policy targets (canasta selfplay --policy): the cross-entropy to the search's "
      "visits, one hidden layer (--hidden 64), an embedding per action");
  o->target_option =
      sub->add_option("--target", o->target,
                      "with --policy, what it learns at each decision: the search's root visits, or the "
                      "action played (a one-hot target)")
          ->check(CLI::IsMember({"visits", "played"}))
          ->capture_default_str();
  sub->callback(
      [o, sub, &exit_code] { exit_code = o->policy ? train_policy_command(*o, *sub) : run_train(*o); });
}

}  // namespace canasta::cli
