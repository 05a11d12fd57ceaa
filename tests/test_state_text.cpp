// A deal in play as text (canasta/state_text.h): what state_text writes,
// parse_state_text reads back to the same deal, on every profile, from its
// start to its end; and every number out of what a game can reach, every
// line missing or too many, is refused with its own one-line message.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "canasta/game.h"
#include "canasta/position.h"
#include "canasta/state_text.h"
#include "helpers.h"

namespace canasta::test {
namespace {

// A deal from `start` after its first `steps` random actions (all of them
// when the deal is shorter), drawn from `rng`.
DealHistory played_from(const State& start, int steps, Rng& rng) {
  DealHistory h;
  h.start = start;
  State s = start;
  ActionList list;
  for (int i = 0; i < steps && !s.over(); ++i) {
    legal_actions(s, list);
    h.actions.push_back(list[static_cast<int>(rng.below(static_cast<uint32_t>(list.size())))]);
    apply(s, h.actions.back());
  }
  return h;
}

// Deal `deal` of `seed` after its first `steps` random actions.
DealHistory played(const Rules& r, uint64_t seed, int64_t deal, int steps) {
  State start;
  start_single_deal(start, r, seed, deal);
  Rng rng(derive_seed(seed, Stream::kRandomPlay, static_cast<uint64_t>(deal)));
  DealHistory h = played_from(start, steps, rng);
  h.seed = seed;
  h.deal = deal;
  return h;
}

// The deal's position after its actions, in the notation.
std::string now(const DealHistory& h) {
  State s = h.start;
  for (const Action a : h.actions) apply(s, a);
  return position_to_string(s);
}

void expect_round_trip(const DealHistory& h, const ActionIds& ids) {
  const std::string text = state_text(h, ids);
  DealHistory back;
  std::string error;
  ASSERT_TRUE(parse_state_text(text, h.start.rules, ids, back, error)) << error << "\n" << text;
  EXPECT_EQ(back.of_seed, h.of_seed);
  EXPECT_EQ(back.seed, h.of_seed ? h.seed : 0);
  EXPECT_EQ(back.deal, h.of_seed ? h.deal : 0);
  EXPECT_EQ(position_to_string(back.start), position_to_string(h.start));
  EXPECT_EQ(back.actions, h.actions);
  EXPECT_EQ(now(back), now(h));
  EXPECT_EQ(state_text(back, ids), text);
}

TEST(StateText, RoundTripsOnEveryProfile) {
  for (const Profile& p : profiles()) {
    SCOPED_TRACE(std::string(p.name));
    const ActionIds ids(p.rules);
    for (const int steps : {0, 1, 7, 40, 100000}) {
      expect_round_trip(played(p.rules, 11, steps, steps), ids);
      // A deck alone (a redrawn deal), in a game under way.
      std::array<int32_t, kMaxTeams> scores{};
      for (int t = 0; t < p.rules.teams; ++t) scores[t] = 120 * (t + 1) - 300;
      Deck deck;
      Rng shuffle(static_cast<uint64_t>(steps));
      shuffled_deck(p.rules, shuffle, deck);
      State start;
      start_deal(start, p.rules, deck, p.rules.deck_cards(), steps % p.rules.players, scores);
      Rng rng(static_cast<uint64_t>(steps) + 1);
      DealHistory world = played_from(start, steps, rng);
      world.of_seed = false;
      expect_round_trip(world, ids);
    }
  }
}

TEST(StateText, WritesTheFormat) {
  const Rules r = rules_of("two-player,target=3000");
  const ActionIds ids(r);
  const DealHistory h = played(r, 2, 3, 2);
  const std::string text = state_text(h, ids);
  std::string deck;
  for (int i = 0; i < h.start.deck_size; ++i) deck += "0123456789abcdef"[h.start.deck[i]];
  EXPECT_EQ(text, "canasta-state/3\nprofile two-player,target=3000\ndeal 2 3 1 0 0 " + deck + "\nactions " +
                      std::to_string(ids.id(h.actions[0])) + " " + std::to_string(ids.id(h.actions[1])));
}

// The text of deal 3 of seed 2 on classic after five actions: its first
// two lines (head_), its deal line's deck (deck_), its actions line
// (actions_, after a newline).
class Refusals : public ::testing::Test {
 protected:
  Refusals() : rules_(rules_of("classic")), ids_(rules_), history_(played(rules_, 2, 3, 5)) {
    text_ = state_text(history_, ids_);
    const size_t deal = text_.find("\ndeal ") + 1, actions = text_.find("\nactions");
    head_ = text_.substr(0, deal);
    deck_ = text_.substr(text_.rfind(' ', actions) + 1, actions - text_.rfind(' ', actions) - 1);
    actions_ = text_.substr(actions);
  }
  // The text with the deal line `middle DECK`.
  std::string with_deal(const std::string& middle, const std::string& deck) const {
    return head_ + middle + " " + deck + actions_;
  }
  std::string with_deal(const std::string& middle) const { return with_deal(middle, deck_); }
  // The error reading `text`, which must be refused.
  std::string refusal(const std::string& text, const Rules& rules) const {
    DealHistory h;
    std::string error;
    EXPECT_FALSE(parse_state_text(text, rules, ActionIds(rules), h, error)) << text;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_TRUE(plain_text(error)) << error;
    return error;
  }
  std::string refusal(const std::string& text) const { return refusal(text, rules_); }

  Rules rules_;
  ActionIds ids_;
  DealHistory history_;
  std::string text_, head_, actions_, deck_;
};

TEST_F(Refusals, TheTextRead) {
  DealHistory h;
  std::string error;
  ASSERT_TRUE(parse_state_text(with_deal("deal 2 3 3 0 0"), rules_, ids_, h, error)) << error;
  EXPECT_EQ(state_text(h, ids_), text_);
}

TEST_F(Refusals, VersionAndProfile) {
  EXPECT_EQ(refusal("canasta-state/1 00"),
            "not a state serialized by this version (canasta-state/3 expected)");
  EXPECT_EQ(refusal(""), "not a state serialized by this version (canasta-state/3 expected)");
  std::string nine = text_;
  nine.replace(0, 15, "canasta-state/9");
  EXPECT_EQ(refusal(nine), "not a state serialized by this version (canasta-state/3 expected)");
  EXPECT_EQ(refusal("canasta-state/3"), "a serialized state has no profile  line");
  EXPECT_EQ(refusal("canasta-state/3\nprofiles classic"), "a serialized state has no profile  line");
  EXPECT_EQ(refusal(text_, rules_of("two-player")), "the state is of another profile: classic");
  std::string other = text_;
  other.replace(other.find("classic"), 7, "nosuch");
  EXPECT_NE(refusal(other).find("nosuch"), std::string::npos);
  // The previous version's deal line reads the same.
  std::string two = text_;
  two.replace(0, 15, "canasta-state/2");
  DealHistory h;
  std::string error;
  ASSERT_TRUE(parse_state_text(two, rules_, ids_, h, error)) << error;
  EXPECT_EQ(state_text(h, ids_), text_);
}

TEST_F(Refusals, DealLine) {
  const std::string a = "a serialized state ";
  EXPECT_EQ(refusal(head_), a + "ends too soon: no deal line");
  EXPECT_EQ(refusal(head_ + "dealt 2 3 3 0 0 " + deck_ + actions_),
            a + "has no deal line (deal or world expected)");
  EXPECT_EQ(refusal(with_deal("deal -1 3 3 0 0")),
            a + "holds a bad seed on its deal line: '-1' (wants 0 to 18446744073709551615)");
  EXPECT_EQ(
      refusal(with_deal("deal 18446744073709551616 3 3 0 0")),
      a + "holds a bad seed on its deal line: '18446744073709551616' (wants 0 to 18446744073709551615)");
  EXPECT_EQ(refusal(with_deal("deal 2 -1 3 0 0")),
            a + "holds a bad deal index on its deal line: '-1' (wants 0 to 9223372036854775807)");
  EXPECT_EQ(refusal(with_deal("deal 2 3 4 0 0")),
            a + "holds a bad dealer on its deal line: '4' (wants 0 to 3)");
  EXPECT_EQ(refusal(with_deal("world 9 0 0")),
            a + "holds a bad dealer on its world line: '9' (wants 0 to 3)");
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 0x1 0"))
                .rfind(a + "holds a bad score before the deal on its deal line: '0x1'", 0),
            0U);
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 2147483647 0")).rfind(a + "holds a bad score before the deal", 0),
            0U);
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 -2147483648 0")).rfind(a + "holds a bad score before the deal", 0),
            0U);
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 5000 4000")),
            a + "holds scores before the deal of a game already over (5000 at target 5000)");
  EXPECT_EQ(
      refusal(with_deal("deal 2 3 3 0")).rfind(a + "holds a bad score before the deal on its deal line", 0),
      0U);
  EXPECT_EQ(refusal(head_ + "deal 2 3 3" + actions_),
            a + "ends too soon: its deal line has no score before the deal");
  EXPECT_EQ(refusal(head_ + "deal 2 3 3 0 0" + actions_), a + "ends too soon: its deal line has no deck");
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 0 0", "0")), a + "holds a deck of 1 cards, not 108");
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 0 0", deck_.substr(1))), a + "holds a deck of 107 cards, not 108");
  // No kind 15; an ace more than the pack holds (refused at the one too many).
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 0 0", "f" + deck_.substr(1))),
            a + "holds a deck that is not the profile's pack (card 0: 'f')");
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 0 0", "e" + deck_.substr(1)))
                .rfind(a + "holds a deck that is not the profile's pack (card ", 0),
            0U);
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 0 0", "z" + deck_.substr(1))),
            a + "holds a deck that is not the profile's pack (card 0: 'z')");
  EXPECT_EQ(refusal(with_deal("deal 2 3 3 0 0", deck_ + " 7")),
            a + "has more on its deal line than it should: '7'");
  // Scores a game reaches: behind, ahead, below zero; tied at the target
  // (played on in classic; a draw, so over, under tie=draw).
  for (const char* scores : {"4995 -2300", "-30000 4990", "5200 5200"}) {
    DealHistory h;
    std::string error;
    EXPECT_TRUE(parse_state_text(with_deal(std::string("deal 2 3 3 ") + scores), rules_, ids_, h, error))
        << error;
  }
  const Rules draw = rules_of("classic,tie=draw");
  const std::string tied = with_deal("deal 2 3 3 5200 5200");
  EXPECT_EQ(refusal(tied.substr(0, tied.find('\n') + 1) + "profile classic,tie=draw" +
                        tied.substr(tied.find("\ndeal")),
                    draw),
            a + "holds scores before the deal of a game already over (5200 at target 5000)");
}

TEST_F(Refusals, ActionsLine) {
  const std::string a = "a serialized state ";
  EXPECT_EQ(refusal(text_.substr(0, text_.rfind('\n'))), a + "has no actions line");
  EXPECT_EQ(refusal(text_ + " 99999"),
            a + "holds a bad action id on its actions line: '99999' (wants 0 to 1143)");
  EXPECT_EQ(refusal(text_ + " x"), a + "holds a bad action id on its actions line: 'x' (wants 0 to 1143)");
  EXPECT_EQ(refusal(text_ + "\nmore"), a + "has more lines than it should: 'more'");
  // An action the deal does not allow, and one after its end.
  const std::string start = text_.substr(0, text_.rfind('\n')) + "\nactions ";
  const Action discard = action("discard 7");
  EXPECT_EQ(refusal(start + std::to_string(ids_.id(discard))),
            "illegal action " + action_to_string(discard) + " (" + std::to_string(ids_.id(discard)) + ")");
  const DealHistory whole = played(rules_, 2, 3, 100000);
  const std::string done = state_text(whole, ids_);
  EXPECT_EQ(refusal(done + " " + std::to_string(ids_.id(whole.actions[0]))), "the deal is over");
}

TEST_F(Refusals, GarbageIsOneLine) {
  // Control characters and bytes that are no text are shown as escapes.
  std::string bad = text_ + " \x01\xff";
  EXPECT_NE(refusal(bad).find("bad action id"), std::string::npos);
  EXPECT_NE(refusal(text_ + "\n\x1b[31m").find("more lines"), std::string::npos);
}

}  // namespace
}  // namespace canasta::test
