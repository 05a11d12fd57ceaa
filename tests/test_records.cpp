// Game records: written, read back, replayed; bad records are refused.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <vector>

#include "canasta/record.h"
#include "canasta/replay.h"
#include "canasta/runner.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// A random-play game, as `canasta play` records it.
std::vector<DealRecord> record_game(const char* profile, uint64_t seed) {
  struct Recorder : PlayObserver {
    std::vector<DealRecord> out;
    void deal_started(const Game& g, const State& s) {
      out.emplace_back();
      begin_record(out.back(), g, s);
    }
    void before(const State&, int seat, Action a) { out.back().actions.emplace_back(seat, a); }
    void deal_finished(const Game& g, const State& s) { end_record(out.back(), s, g); }
  } recorder;
  RandomAgent random;
  Game g = new_game(rules_of(profile), seed);
  State s;
  play_game(
      g, s, [&](int) -> RandomAgent& { return random; }, Stream::kPlayGame, recorder);
  return recorder.out;
}

TEST(Records, RoundTripAndReplay) {
  for (const char* profile : {"classic", "two-player,target=3000"}) {
    const auto game = record_game(profile, 77);
    ASSERT_FALSE(game.empty());
    EXPECT_NE(game.back().game_end, GameEnd::kPlaying);
    for (const auto& rec : game) {
      const std::string line = to_json_line(rec);
      DealRecord back;
      std::string error;
      ASSERT_TRUE(parse_record(line, back, error)) << error;
      EXPECT_EQ(to_json_line(back), line);
      EXPECT_TRUE(replay_record(back, error)) << error;
    }
  }
}

TEST(Records, SameSeedSameRecord) {
  const auto a = record_game("classic", 5), b = record_game("classic", 5), c = record_game("classic", 6);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(to_json_line(a[i]), to_json_line(b[i]));
  EXPECT_NE(to_json_line(a[0]), to_json_line(c[0]));
}

TEST(Records, TamperedActionIsNamed) {
  DealRecord rec = record_game("classic", 8)[0];
  // Replace the first discard by a discard of a card the player cannot hold.
  for (auto& [seat, a] : rec.actions)
    if (a.type() == ActionType::kDiscard) {
      a = Action::make(ActionType::kDiscard, kRed3);
      break;
    }
  std::string error;
  EXPECT_FALSE(replay_record(rec, error));
  EXPECT_NE(error.find("illegal"), std::string::npos) << error;
}

TEST(Records, WrongScoreIsCaught) {
  DealRecord rec = record_game("classic", 9)[0];
  rec.deal_score[0] += 5;
  std::string error;
  EXPECT_FALSE(replay_record(rec, error));
  EXPECT_NE(error.find("score"), std::string::npos) << error;
}

TEST(Records, MalformedLinesAreRefused) {
  const std::string good = to_json_line(record_game("classic", 10)[0]);
  DealRecord rec;
  std::string error;
  EXPECT_FALSE(parse_record("{not json", rec, error));
  EXPECT_FALSE(parse_record("[1,2]", rec, error));
  std::string bad_profile = good;
  bad_profile.replace(bad_profile.find("\"classic\""), 9, "\"poker\"");
  EXPECT_FALSE(parse_record(bad_profile, rec, error));
  EXPECT_NE(error.find("unknown profile"), std::string::npos);
  std::string bad_card = good;
  bad_card.replace(bad_card.find("\"deck\":\"") + 8, 1, "Z");
  EXPECT_FALSE(parse_record(bad_card, rec, error));
  EXPECT_NE(error.find("bad card token"), std::string::npos) << error;
  std::string short_deck = good;
  const size_t d = short_deck.find("\"deck\":\"") + 8;
  short_deck.erase(d, short_deck.find(' ', d) - d + 1);
  EXPECT_FALSE(parse_record(short_deck, rec, error));
}

// Numbers that are not what a field holds are refused by name, never read
// approximately: a seed beyond 64 bits, a seat written 1.5, an integer with
// leading zeros (not JSON).
TEST(Records, FieldsAreReadExactly) {
  const std::string good = to_json_line(record_game("classic", 10)[0]);
  DealRecord rec;
  std::string error;
  ASSERT_TRUE(parse_record(good, rec, error)) << error;
  std::string big_seed = good;
  big_seed.replace(big_seed.find("\"seed\":10,"), 10, "\"seed\":12345678901234567890123,");
  EXPECT_FALSE(parse_record(big_seed, rec, error));
  EXPECT_NE(error.find("seed"), std::string::npos) << error;
  std::string half_seat = good;
  half_seat.replace(half_seat.find("[[") + 2, 1, "1.5");
  EXPECT_FALSE(parse_record(half_seat, rec, error));
  EXPECT_NE(error.find("action 0"), std::string::npos) << error;
  std::string zeros = good;
  zeros.replace(zeros.find("\"dealer\":") + 9, 0, "0");
  EXPECT_FALSE(parse_record(zeros, rec, error));
  std::string control = good;
  control.replace(control.find("classic"), 7, "clas\u0007sic");
  EXPECT_FALSE(parse_record(control, rec, error));
  EXPECT_EQ(error.find('\a'), std::string::npos) << "errors stay on one printable line";
}

// An agent in a record is what the program writes there: every agent of the
// registry with every parameter given (at its least and greatest value, and
// a real number with many digits) is read back as written, and so is human.
TEST(Records, AgentsTheProgramWritesAreRead) {
  const std::string good = to_json_line(record_game("classic", 10)[0]);
  DealRecord rec;
  std::string error;
  ASSERT_TRUE(parse_record(good, rec, error)) << error;
  int specs = 0;
  for (const std::string_view name : agent_names())
    for (int end = 0; end < 3; ++end) {
      AgentSpec spec = agent_spec(std::string(name));
      for (const AgentParamInfo& p : agent_params(spec)) {
        const double v = end == 0 ? p.lo : end == 1 ? p.hi : p.lo + (p.hi - p.lo) / 3;
        std::string text;
        if (p.style == ParamStyle::kInteger)
          text = fmt::format("{}", static_cast<int64_t>(v));
        else if (p.style == ParamStyle::kReal)
          text = fmt::format("{}", v);
        else if (p.style == ParamStyle::kFlag)
          text = end ? "true" : "false";
        else
          continue;
        ASSERT_TRUE(set_agent_param(spec, p.name, text, error)) << error;
      }
      rec.agents.assign(4, spec.to_string());
      rec.agents[3] = "human";
      DealRecord back;
      ASSERT_TRUE(parse_record(to_json_line(rec), back, error)) << rec.agents[0] << ": " << error;
      EXPECT_EQ(back.agents, rec.agents);
      ++specs;
    }
  EXPECT_GE(specs, 12);
}

// Anything else in an agent's place is refused by the reader, by name, with
// an error that quotes it on one printable line: markup and quotes, spaces,
// control characters, characters outside ASCII, an empty or malformed spec,
// and a spec beyond kMaxAgentText characters.
TEST(Records, AgentsThatAreNotSpecsAreRefused) {
  DealRecord rec = record_game("classic", 10)[0];
  const std::string too_long = "random:" + std::string(kMaxAgentText, 'x') + "=1";
  const std::string refused[] = {"<img src=x onerror=alert(1)>",
                                 "random\" onclick=\"x",
                                 "random&amp;",
                                 "random heuristic",
                                 "evil\x1b[2J",
                                 "random\x07",
                                 "random\n",
                                 "random\xc2\x9b",
                                 "ran\xe2\x80\xae"
                                 "dom",
                                 "r\xc3\xa9"
                                 "seau",
                                 "",
                                 "Random",
                                 "random:",
                                 "random:x",
                                 "random:=1",
                                 ":x=1",
                                 "random:take_min=",
                                 "random,take_min=1",
                                 "random:take_min=1,",
                                 "1random",
                                 "random:take_min=1;x",
                                 too_long};
  for (const std::string& a : refused) {
    rec.agents.assign(4, "random");
    rec.agents[2] = a;
    DealRecord back;
    std::string error;
    EXPECT_FALSE(parse_record(to_json_line(rec), back, error)) << a;
    EXPECT_NE(error.find("field 'agents', seat 2"), std::string::npos) << error;
    EXPECT_EQ(printable(error, 1000), error) << "the error quotes the agent as printable text";
  }
  // At the limit, a well-formed spec is read.
  rec.agents.assign(4, "random");
  rec.agents[1] = "random:" + std::string(kMaxAgentText - 9, 'x') + "=1";
  DealRecord back;
  std::string error;
  EXPECT_TRUE(parse_record(to_json_line(rec), back, error)) << error;
}

// The terminal's helper keeps printable text, accents and other letters
// included, and shows every control character (C0, DEL, C1), every
// character that moves or hides text and every malformed byte as '?'.
TEST(Records, PrintableShowsControlsAsQuestionMarks) {
  EXPECT_EQ(printable("heuristic:take_min=3"), "heuristic:take_min=3");
  EXPECT_EQ(printable("partida de Jos\xc3\xa9 \xe2\x99\xa0"), "partida de Jos\xc3\xa9 \xe2\x99\xa0");
  EXPECT_EQ(printable("evil\x1b[2J\x1b]0;owned\x07"), "evil?[2J?]0;owned?");
  EXPECT_EQ(printable("a\x7f"
                      "b\tc\nd"),
            "a?b?c?d");
  EXPECT_EQ(printable("a\xc2\x9b"
                      "2J"),
            "a?2J");  // C1 CSI
  EXPECT_EQ(printable("a\xe2\x80\xae"
                      "b\xe2\x80\x8b"
                      "c\xef\xbb\xbf"),
            "a?b?c?");  // bidi, zero width, BOM
  EXPECT_EQ(printable("a\xc0\xaf"
                      "b\xff"
                      "c\xe2\x82"),
            "a??b?c??");  // overlong, bad byte, cut short
  EXPECT_EQ(printable("a\xed\xa0\x80"
                      "b"),
            "a???b");  // a surrogate
  EXPECT_EQ(printable("\xc3\xa9\xc3\xa9\xc3\xa9", 2), "\xc3\xa9\xc3\xa9...");
  EXPECT_EQ(printable(std::string(200, 'a')).size(), 123U);
}

TEST(Records, CheckerFollowsGames) {
  const auto game = record_game("classic", 12);
  ASSERT_GE(game.size(), 2U);
  std::string error;
  RecordChecker all;
  for (const auto& rec : game) ASSERT_TRUE(all.check(rec, error)) << error;
  EXPECT_EQ(all.games, 1);
  EXPECT_EQ(all.game_deals, static_cast<int64_t>(game.size()));
  // A deal that does not follow the previous one.
  RecordChecker skip;
  EXPECT_FALSE(skip.check(game[1], error));
  EXPECT_NE(error.find("does not follow"), std::string::npos) << error;
  // A deal after the game ended.
  RecordChecker after;
  for (const auto& rec : game) ASSERT_TRUE(after.check(rec, error));
  DealRecord extra = game.back();
  extra.deal += 1;
  EXPECT_FALSE(after.check(extra, error));
  // Carried scores that are not the game's.
  RecordChecker carried;
  ASSERT_TRUE(carried.check(game[0], error));
  DealRecord second = game[1];
  second.scores_before[0] += 10;
  second.totals[0] += 10;
  EXPECT_FALSE(carried.check(second, error));
  EXPECT_NE(error.find("scores_before"), std::string::npos) << error;
}

TEST(Records, CheckerKnowsSingleDeals) {
  // A single deal of a simulation, recorded by hand from the engine.
  const Rules rules;
  State s;
  start_single_deal(s, rules, 99, 7);
  DealRecord rec;
  begin_single_record(rec, s, 99, 7);
  rec.agents.assign(4, "random");
  struct Recorder : PlayObserver {
    DealRecord& rec;
    explicit Recorder(DealRecord& r) : rec(r) {}
    void before(const State&, int seat, Action a) { rec.actions.emplace_back(seat, a); }
  };
  RandomAgent random;
  Rng rng(5);
  play_deal(
      s, [&](int) -> RandomAgent& { return random; }, rng, Recorder(rec));
  end_record(rec, s);
  const std::string line = to_json_line(rec);
  EXPECT_NE(line.find("\"kind\":\"single\""), std::string::npos);
  DealRecord back;
  std::string error;
  ASSERT_TRUE(parse_record(line, back, error)) << error;
  EXPECT_EQ(back.agents, rec.agents);
  RecordChecker checker;
  EXPECT_TRUE(checker.check(back, error)) << error;
  EXPECT_EQ(checker.single_deals, 1);
  // Its deck belongs to deal 7 of seed 99: claimed for another index or seed, it is refused.
  DealRecord other = back;
  other.deal = 11;
  other.dealer = 3;
  EXPECT_FALSE(checker.check(other, error));
  EXPECT_NE(error.find("deck"), std::string::npos) << error;
  other = back;
  other.seed = 98;
  EXPECT_FALSE(checker.check(other, error));
  other = back;
  other.dealer = 0;
  EXPECT_FALSE(checker.check(other, error));
}

}  // namespace
}  // namespace canasta::test
