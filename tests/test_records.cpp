// Game records: written, read back, replayed; bad records are refused.
#include <gtest/gtest.h>

#include <vector>

#include "canasta/agent.h"
#include "canasta/record.h"
#include "canasta/sim.h"
#include "helpers.h"

namespace canasta::test {
namespace {

std::vector<DealRecord> record_game(const char* profile, uint64_t seed) {
  Rules rules;
  std::string error;
  EXPECT_TRUE(parse_profile(profile, rules, error));
  RandomAgent random;
  std::array<Agent*, kMaxSeats> agents{};
  agents.fill(&random);
  std::vector<DealRecord> out;
  play_game(rules, seed, agents, [&](const DealRecord& r) { out.push_back(r); });
  return out;
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

}  // namespace
}  // namespace canasta::test
