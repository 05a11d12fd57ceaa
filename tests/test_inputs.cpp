// Files and text from outside the program: only regular files are read,
// within their format's size; text that would hide on a terminal is told
// apart; a tally or a list of positions read from a file is refused where
// arithmetic on it could overflow.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "canasta/input_file.h"
#include "canasta/json.h"
#include "canasta/params.h"
#include "canasta/stats.h"
#include "cli.h"
#include "helpers.h"

namespace canasta::test {
namespace {

namespace fs = std::filesystem;

std::string scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / ("canasta_inputs_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir.string();
}

void write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(InputFile, ReadsRegularFilesWithinTheirSize) {
  const std::string dir = scratch_dir();
  write(dir + "/a.txt", "hello\n");
  std::string text, error;
  ASSERT_TRUE(read_input_file(dir + "/a.txt", 6, "a test file", text, error)) << error;
  EXPECT_EQ(text, "hello\n");
  EXPECT_FALSE(read_input_file(dir + "/a.txt", 5, "a test file", text, error));
  EXPECT_NE(error.find("more than a test file can (5)"), std::string::npos) << error;
  EXPECT_FALSE(read_input_file(dir + "/missing", 5, "a test file", text, error));
  EXPECT_NE(error.find("cannot read"), std::string::npos) << error;
  fs::remove_all(dir);
}

TEST(InputFile, RefusesAtOnceWhatIsNotARegularFile) {
  const std::string dir = scratch_dir();
  ASSERT_EQ(::mkfifo((dir + "/fifo").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", dir + "/zero");
  std::string text, error;
  // A FIFO with no writer would block an ordinary open: refused at once.
  EXPECT_FALSE(read_input_file(dir + "/fifo", kNoSizeCap, "a run's summary", text, error));
  EXPECT_NE(error.find("is a FIFO, not a run's summary"), std::string::npos) << error;
  EXPECT_FALSE(read_input_file(dir + "/zero", kNoSizeCap, "a run's summary", text, error));
  EXPECT_NE(error.find("is a device"), std::string::npos) << error;
  EXPECT_FALSE(read_input_file(dir, kNoSizeCap, "a run's summary", text, error));
  EXPECT_NE(error.find("is a folder"), std::string::npos) << error;
  LineReader lines;
  EXPECT_FALSE(lines.open(dir + "/fifo", 100, "a record file", error));
  fs::remove_all(dir);
}

TEST(InputFile, LinesUpToTheirLength) {
  const std::string dir = scratch_dir();
  write(dir + "/l.txt", "one\n\n" + std::string(10, 'x') + "\nlast");
  LineReader in;
  std::string line, error;
  ASSERT_TRUE(in.open(dir + "/l.txt", 10, "a test file", error)) << error;
  std::vector<std::string> got;
  while (in.next(line, error)) got.push_back(line);
  EXPECT_TRUE(error.empty()) << error;
  EXPECT_EQ(got, (std::vector<std::string>{"one", "", std::string(10, 'x'), "last"}));
  EXPECT_EQ(in.line_number(), 4);
  write(dir + "/long.txt", "ok\n" + std::string(11, 'y') + "\n");
  ASSERT_TRUE(in.open(dir + "/long.txt", 10, "a test file", error));
  EXPECT_TRUE(in.next(line, error));
  EXPECT_FALSE(in.next(line, error));
  EXPECT_NE(error.find(":2: a line longer than 10 bytes"), std::string::npos) << error;
  fs::remove_all(dir);
}

TEST(Text, PlainTextIsWhatPrintableShowsAsIs) {
  for (const std::string s : {"heuristic:take_min=5", "m.bin", "caf\xc3\xa9", "a\tb", "a\x1b[2J", "x\xc2\x9b",
                              "x\xe2\x80\xae", "x\xe2\x80\x8b", "\xff", "\xc3", "ok \xf0\x9f\x83\x8f"})
    EXPECT_EQ(plain_text(s), printable(s, 1000) == s) << printable(s);
  EXPECT_TRUE(plain_text("caf\xc3\xa9"));
  EXPECT_FALSE(plain_text("x\xc2\x9b"));  // C1 CSI
  // A spec's text: letters, digits and _ . + - / only (no space, quote, comma, markup or control).
  std::string error;
  EXPECT_TRUE(check_text("models/classic-2.model", "eval", error)) << error;
  for (const char* bad :
       {"m\xe2\x80\xae.bin", "my model.bin", "a\"b", "a,b", "=cmd|calc!A0", "caf\xc3\xa9"}) {
    EXPECT_FALSE(check_text(bad, "eval", error)) << bad;
    EXPECT_NE(error.find("other characters"), std::string::npos) << error;
  }
  for (const char* hidden : {"x\xc2\xad", "x\xe3\x85\xa4", "x\xef\xb8\x8f", "x\xf3\xa0\x84\x80"})
    EXPECT_FALSE(plain_text(hidden)) << printable(hidden);  // soft hyphen, Hangul filler, variation selectors
}

TEST(Text, FormulaLikeCells) {
  for (const char* s : {"=cmd|calc!A0", "+x", "-x.bin", "@SUM(A1)", "=1"}) EXPECT_TRUE(formula_like(s)) << s;
  for (const char* s : {"-5", "+5", "-0.25", "1e3", "m.bin", "", "a=b"}) EXPECT_FALSE(formula_like(s)) << s;
}

TEST(Tally, InRangeRefusesWhatCouldOverflow) {
  Tally t;
  t.rows = t.a_won = 10;
  t.margin.add(200);
  EXPECT_TRUE(t.in_range());
  for (size_t i = 0; i < t.words().size(); ++i) {
    Tally bad = t;
    bad.words()[i] = std::numeric_limits<int64_t>::max();
    EXPECT_FALSE(bad.in_range()) << "word " << i;
  }
  Tally negative = t;
  negative.rows = -1;
  EXPECT_FALSE(negative.in_range());
  // Two tallies in range whose sum is not: refused, the first kept.
  Tally big = t;
  big.rows = big.a_won = int64_t{1} << 42;
  Tally sum = big;
  EXPECT_TRUE(sum.add_in_range(big));
  EXPECT_FALSE(sum.add_in_range(big));
  EXPECT_EQ(sum.rows, int64_t{1} << 43);
  // At the limits, the summary's arithmetic holds (UBSan checks it under the sanitizers).
  Tally edge;
  edge.rows = edge.groups = edge.group_rows = edge.margin.n = edge.group_margin.n = int64_t{1} << 43;
  edge.margin.sum = edge.group_margin.sum = int64_t{1} << 60;
  edge.margin.sq_hi = edge.group_margin.sq_hi = edge.margin.sq_lo = int64_t{1} << 48;
  ASSERT_TRUE(edge.in_range());
  EXPECT_TRUE(std::isfinite(summarize(edge, kDuplicate).margin.mean));
}

TEST(Cli, PositionsReadInOrderAndApart) {
  const auto done_of = [](const std::string& text, Ranges& done) {
    Json v;
    std::string error;
    EXPECT_TRUE(parse_json(text, v, error)) << error;
    return read_done(v, done);
  };
  Ranges done;
  EXPECT_TRUE(done_of(R"({"done":[[0,5],[5,9],[20,30]]})", done));
  EXPECT_EQ(done.size(), 3U);
  for (const char* bad : {R"({"done":[[5,9],[0,5]]})", R"({"done":[[0,5],[4,9]]})", R"({"done":[[-1,5]]})",
                          R"({"done":[[3,3]]})", R"({"done":[[0,1099511627777]]})",
                          R"({"done":[[0,4611686018427387904],[4611686018427387904,9223372036854775807]]})",
                          R"({"done":[[0,18446744073709551615]]})"})
    EXPECT_FALSE(done_of(bad, done)) << bad;
}

TEST(Cli, StoredCommandsHoldPlainTextOnly) {
  Json v;
  std::string error;
  std::vector<std::string> command;
  ASSERT_TRUE(parse_json(R"({"command":["canasta","sim","--out","r"]})", v, error));
  EXPECT_TRUE(read_command(v, command));
  ASSERT_TRUE(parse_json(R"({"command":["canasta","sim","--out","r\u009b"]})", v, error));
  EXPECT_FALSE(read_command(v, command));
}

}  // namespace
}  // namespace canasta::test
