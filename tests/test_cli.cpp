// The program in-process: profiles and agent specs are parsed once, where
// they enter, and never again below the command line.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
#include <vector>

#include "canasta/cli/checks.h"
#include "canasta/input_file.h"
#include "canasta/params.h"
#include "cli.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// Runs `canasta args...` in this process; returns the exit code, and what
// it printed in `out`.
int canasta(std::vector<std::string> args, std::string* out = nullptr) {
  args.insert(args.begin(), "canasta");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  testing::internal::CaptureStdout();
  const int rc = cli::run(static_cast<int>(argv.size()), argv.data());
  const std::string printed = testing::internal::GetCapturedStdout();
  if (out) *out = printed;
  return rc;
}

// A folder of this process's own under the temporary directory, removed
// with everything in it when the test ends.
class Scratch {
 public:
  Scratch()
      : dir_(std::filesystem::temp_directory_path() / ("canasta_test_cli_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(dir_);
  }
  ~Scratch() {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  std::string operator()(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

// A run with a profile, two sides and a named seat reads four specs: once
// each, however many threads, batches, deals and records it plays.
TEST(Cli, SpecsAreParsedOncePerRun) {
  const Scratch scratch;
  const int64_t before = spec_parse_count();
  ASSERT_EQ(canasta({"sim", "--profile", "classic,target=3000", "--side0", "heuristic:freeze=6", "--side1",
                     "random", "--seat", "2=heuristic", "--deals", "5000", "--threads", "2", "--record",
                     scratch("r.jsonl"), "--out", scratch("run")}),
            0);
  EXPECT_EQ(spec_parse_count() - before, 4);
  // Whole games: the same.
  const int64_t games = spec_parse_count();
  ASSERT_EQ(canasta({"sim", "--profile", "two-player", "--side0", "heuristic", "--side1", "random", "--games",
                     "20", "--record", scratch("g.jsonl")}),
            0);
  EXPECT_EQ(spec_parse_count() - games, 3);
  // The library below the command line parses nothing.
  ExperimentConfig c;
  c.side0 = agent_spec("heuristic");
  c.deals = 3000;
  std::vector<DealRow> rows;
  std::string error;
  RunHooks hooks;
  hooks.records = [](const std::string&) {};
  const int64_t library = spec_parse_count();
  ASSERT_TRUE(run_deals(c, rows, error, hooks)) << error;
  EXPECT_EQ(spec_parse_count() - library, 0);
}

TEST(Cli, BadOptionsGetExitCodeTwo) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"sim", "--shard", "4/4"},
           {"sim", "--shard", "1"},
           {"sim", "--seat", "x=random"},
           {"sim", "--seat", "9=random"},
           {"sim", "--seat", "2=wizard"},
           {"sim", "--deals", "10", "--seat", "0=random", "--seat", "0=heuristic"},
           {"sim", "--deals", "10", "--out", ""},
           {"sim", "--deals", "10", "--record", ""},
           {"play", "--record", ""},
           {"deal", "--profile", ""},
           {"tune", "--agent", "heuristic", "--spsa", ""},
           {"sim", "--sprt", "nan,10"},
           {"sim", "--sprt", "0,inf"},
           {"sim", "--sprt", "10,0"},
           {"sim", "--side0", "ismcts:c=nan"},
           {"sim", "--profile", "poker"},
           {"play", "--side1", "heuristic:freeze=-1"},
           {"tune", "--agent", "heuristic:freeze={0..x}", "--vs", "random"},
           {"tournament", "--agents", "random", "wizard"},
           // integers: decimal, and a seed that fits 64 bits
           {"deal", "--seed", "-1"},
           {"deal", "--seed", "18446744073709551616"},
           {"deal", "--seed", "0x10"},
           {"deal", "--seed", "1e3"},
           {"sim", "--deals", "0x10"},
           {"sim", "--deals", "-010"},
           {"tune", "--agent", "heuristic:safety={1,2}", "--r-end", "0"},
           {"tune", "--agent", "heuristic:safety={1,2}", "--r-end", "inf"},
           {"tune", "--agent", "heuristic:safety={1,2}", "--r-end", "1e400"}})
    EXPECT_EQ(canasta(args), 2) << args[1] << " " << args[2];
}

// merge never writes over one of the shards it reads: it refuses, and the
// shard stays as it was.
TEST(Cli, MergeRefusesToWriteOverAShard) {
  const Scratch scratch;
  ASSERT_EQ(canasta({"sim", "--deals", "50", "--shard", "0/2", "--out", scratch("s0")}), 0);
  ASSERT_EQ(canasta({"sim", "--deals", "50", "--shard", "1/2", "--out", scratch("s1")}), 0);
  const std::string before = read_file(scratch("s0") + "/summary.json", kMaxSummaryFile, "a summary");
  EXPECT_EQ(canasta({"merge", scratch("s0"), scratch("s1"), "-o", scratch("s0")}), 2);
  EXPECT_EQ(canasta({"merge", scratch("s0"), scratch("s1"), "-o", scratch("s1") + "/"}), 2);
  EXPECT_EQ(read_file(scratch("s0") + "/summary.json", kMaxSummaryFile, "a summary"), before);
  EXPECT_EQ(canasta({"merge", scratch("s0"), scratch("s1"), "-o", scratch("merged")}), 0);
}

// An output file named through a symbolic link is written where the link
// points (the link stays); a pipe, a device or a directory is refused
// rather than replaced.
TEST(Cli, OutputFilesGoThroughLinksAndNeverOverSpecialFiles) {
  const Scratch scratch;
  std::filesystem::create_directories(scratch("sub"));
  std::filesystem::create_symlink("sub/r.jsonl", scratch("link.jsonl"));
  ASSERT_EQ(canasta({"play", "--seed", "1", "--record", scratch("link.jsonl")}), 0);
  EXPECT_TRUE(std::filesystem::is_symlink(scratch("link.jsonl")));
  EXPECT_TRUE(std::filesystem::is_regular_file(scratch("sub/r.jsonl")));
  ASSERT_EQ(::mkfifo(scratch("pipe").c_str(), 0600), 0);
  for (const std::string& target : {scratch("pipe"), std::string("/dev/null"), scratch("sub")}) {
    EXPECT_EQ(canasta({"sim", "--deals", "5", "--record", target}), 2) << target;
    EXPECT_EQ(canasta({"show", scratch("sub/r.jsonl"), "--html", target}), 2) << target;
  }
  EXPECT_TRUE(std::filesystem::is_fifo(scratch("pipe")));
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
}

// No output is written over an input or another output (by any name, a
// link too), and no record goes inside the run directory that replaces it:
// each refused before any work, the files as they were.
TEST(Cli, OutputsNeverOverwriteInputsOrEachOther) {
  const Scratch scratch;
  ASSERT_EQ(canasta({"play", "--seed", "1", "--record", scratch("g.jsonl")}), 0);
  ASSERT_EQ(canasta({"selfplay", "--deals", "20", "--out", scratch("s.smp")}), 0);
  std::filesystem::create_symlink(scratch("g.jsonl"), scratch("link.jsonl"));
  const auto size = [&](const char* name) { return std::filesystem::file_size(scratch(name)); };
  const auto record = size("g.jsonl"), samples = size("s.smp");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"sim", "--deals", "2", "--out", scratch("run"), "--record", scratch("run/r.jsonl")},
           {"show", scratch("g.jsonl"), "--html", scratch("g.jsonl")},
           {"show", scratch("link.jsonl"), "--html", scratch("g.jsonl")},
           {"train", scratch("s.smp"), "--linear", "--out", scratch("s.smp")},
           {"train", scratch("s.smp"), "--out", scratch("m.bin"), "--curve", scratch("m.bin")},
           {"train", scratch("s.smp"), "--linear", "--out", scratch("m.bin"), "--curve", scratch("c.csv"),
            "--calibration", scratch("c.csv")},
           {"tune", "--agent", "heuristic", "--spsa", "take_min=1", "--batches", "2", "--out",
            scratch("t.csv"), "--spec-out", scratch("t.csv")}}) {
    std::string printed;
    EXPECT_EQ(canasta(args, &printed), 2) << args[0] << " " << args.back();
    EXPECT_EQ(printed, "") << args[0] << " " << args.back();
  }
  EXPECT_EQ(size("g.jsonl"), record);
  EXPECT_EQ(size("s.smp"), samples);
  for (const char* name : {"run", "m.bin", "c.csv", "t.csv"})
    EXPECT_FALSE(std::filesystem::exists(scratch(name))) << name;
}

// Every output file's missing folders are made, as a run directory's are.
TEST(Cli, OutputFilesMakeTheirFolders) {
  const Scratch scratch;
  ASSERT_EQ(canasta({"play", "--seed", "1", "--record", scratch("a/b/g.jsonl")}), 0);
  EXPECT_TRUE(std::filesystem::is_regular_file(scratch("a/b/g.jsonl")));
  EXPECT_EQ(canasta({"sim", "--deals", "2", "--record", scratch("c/d/r.jsonl")}), 0);
  EXPECT_TRUE(std::filesystem::is_regular_file(scratch("c/d/r.jsonl")));
  EXPECT_EQ(canasta({"show", scratch("a/b/g.jsonl"), "--html", scratch("e/f/p.html")}), 0);
  EXPECT_TRUE(std::filesystem::is_regular_file(scratch("e/f/p.html")));
  EXPECT_EQ(canasta({"selfplay", "--deals", "2", "--out", scratch("g/h/s.bin")}), 0);
  EXPECT_TRUE(std::filesystem::is_regular_file(scratch("g/h/s.bin")));
  // A file in the way of a folder: refused, with nothing written.
  EXPECT_EQ(canasta({"play", "--seed", "1", "--record", scratch("a/b/g.jsonl/x.jsonl")}), 2);
}

// tune and train check where their files go before any work: a folder
// given for a file, or a file in a folder that cannot be made (a file is in
// its way), is refused at once.
TEST(Cli, TuneAndTrainCheckTheirOutputsFirst) {
  const Scratch scratch;
  std::ofstream(scratch("no")) << "a file, not a folder\n";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"tune", "--agent", "heuristic:freeze={0,6}", "--vs", "random", "--deals", "100", "-o",
            scratch("")},
           {"tune", "--agent", "heuristic", "--spsa", "take_min=1", "--batches", "2", "--spec-out",
            scratch("no/s.txt")},
           {"train", scratch("none.bin"), "--out", scratch("")},
           {"train", scratch("none.bin"), "--out", scratch("m.model"), "--curve", scratch("no/c.csv")}}) {
    std::string printed;
    EXPECT_EQ(canasta(args, &printed), 2) << args.back();
    EXPECT_EQ(printed, "") << args.back();
  }
}

// A tournament where an agent wins every deal pair has no finite ratings:
// its matches are still printed and written, without ratings.
TEST(Cli, TournamentWithoutFiniteRatingsKeepsItsMatches) {
  const Scratch scratch;
  std::string printed;
  ASSERT_EQ(canasta({"tournament", "--agents", "random", "heuristic", "--deals", "10", "-o", scratch("t")},
                    &printed),
            0);
  EXPECT_NE(printed.find("ratings      none (no finite fit"), std::string::npos) << printed;
  const std::string json = read_file(scratch("t") + "/tournament.json", kMaxJsonFile, "results");
  EXPECT_NE(json.find("\"matches\":[{\"a\":0,\"b\":1,\"pairs\":10,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"ratings\":[]"), std::string::npos) << json;
}

// Integers are decimal: "010" is 10, not octal 8; the largest seed is read
// as itself.
TEST(Cli, IntegersAreReadInDecimal) {
  std::string ten, leading, plus, eight;
  ASSERT_EQ(canasta({"deal", "--seed", "10"}, &ten), 0);
  ASSERT_EQ(canasta({"deal", "--seed", "010"}, &leading), 0);
  ASSERT_EQ(canasta({"deal", "--seed", "+10"}, &plus), 0);
  ASSERT_EQ(canasta({"deal", "--seed", "8"}, &eight), 0);
  EXPECT_EQ(leading, ten);
  EXPECT_EQ(plus, ten);
  EXPECT_NE(leading, eight);
  std::string max;
  ASSERT_EQ(canasta({"deal", "--seed", "18446744073709551615"}, &max), 0);
  EXPECT_NE(max.find("seed 18446744073709551615,"), std::string::npos) << max;
  // The refusals are in BadOptionsGetExitCodeTwo.
}

// The decimal check keeps integers within 64 bits, where CLI11 would
// saturate a signed one and wrap a negative unsigned one.
TEST(Cli, IntegersStayWithin64Bits) {
  const auto read = [](const std::string& text, auto& value) {
    CLI::App app;
    app.add_option("--n", value);
    cli::decimal_integers(app);
    std::vector<std::string> args{text, "--n"};  // parse reads the vector from its back
    try {
      app.parse(args);
      return true;
    } catch (const CLI::ParseError&) {
      return false;
    }
  };
  int64_t i = 0;
  EXPECT_TRUE(read("-9223372036854775808", i));
  EXPECT_EQ(i, INT64_MIN);
  EXPECT_TRUE(read("+0009223372036854775807", i));
  EXPECT_EQ(i, INT64_MAX);
  EXPECT_TRUE(read("-000", i));
  EXPECT_EQ(i, 0);
  EXPECT_FALSE(read("9223372036854775808", i));
  EXPECT_FALSE(read("-9223372036854775809", i));
  EXPECT_FALSE(read("99999999999999999999", i));
  EXPECT_FALSE(read("", i));
  EXPECT_FALSE(read("-", i));
  EXPECT_FALSE(read("1_000", i));
  uint64_t u = 1;
  EXPECT_TRUE(read("-0", u));
  EXPECT_EQ(u, 0u);
  EXPECT_TRUE(read("18446744073709551615", u));
  EXPECT_EQ(u, UINT64_MAX);
  EXPECT_FALSE(read("18446744073709551616", u));
  EXPECT_FALSE(read("-1", u));
}

// A number beyond 64 bits is refused with the option's own range where it
// has one (not the 64-bit limit, which means nothing for --threads).
TEST(Cli, NumbersBeyond64BitsQuoteTheOptionsRange) {
  const auto message = [](bool ranged) {
    CLI::App app;
    int n = 0;
    CLI::Option* o = app.add_option("--n", n);
    if (ranged) o->check(CLI::Range(0, 1024));
    cli::decimal_integers(app);
    std::vector<std::string> args{"99999999999999999999", "--n"};
    try {
      app.parse(args);
    } catch (const CLI::ParseError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(true).find("not in range [0 - 1024]"), std::string::npos) << message(true);
  EXPECT_NE(message(false).find("must be at most 9223372036854775807"), std::string::npos) << message(false);
}

// Rates print whole from 100 up and with three significant figures below,
// so that a slow search's deals or games a second do not print as 0.
TEST(Cli, RatesKeepTheirFigures) {
  EXPECT_EQ(cli::rate_text(28995.4), "28995");
  EXPECT_EQ(cli::rate_text(100.0), "100");
  EXPECT_EQ(cli::rate_text(12.34), "12.3");
  EXPECT_EQ(cli::rate_text(0.2736), "0.274");
  EXPECT_EQ(cli::rate_text(0.0497), "0.0497");
}

}  // namespace
}  // namespace canasta::test
