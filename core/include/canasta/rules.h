// Rules profiles: a profile is a named parameter set, never a fork of the code.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "canasta/types.h"

namespace canasta {

// When the red threes dealt to a player are exposed and replaced.
enum class RedThreeDeal : uint8_t {
  kImmediate,   // right after the deal, in turn order from the first player
  kOwnersTurn,  // at the start of the owner's first turn
  kExposedNow,  // exposed at once, replaced at the start of the owner's first turn (spanish)
};

// What happens when the stock cannot serve a draw.
enum class StockEnd : uint8_t {
  kTakePile,       // play on by taking the pile: compulsory / optional pickup (classic section 9)
  kAfterLastDraw,  // the deal ends when a turn ends with fewer cards than one draw needs
  kMustTake,       // as kTakePile, but every take that finishes the turn is compulsory (spanish)
};

// What a tie at or above the target means.
enum class TieRule : uint8_t {
  kPlayOn,  // more deals until one side leads with at least the target
  kDraw,    // the game is drawn
};

// A meld of this many cards is a canasta.
constexpr int kCanastaSize = 7;

// Scores (core/doc/rules.md section 10).
constexpr int kNaturalCanastaBonus = 500;  // a canasta without wild cards
constexpr int kMixedCanastaBonus = 300;    // a canasta with wild cards
constexpr int kRedThreeBonus = 100;        // each red three of a side (minus when it has not melded)
constexpr int kAllRedThrees = 4;           // from this many red threes a side's ...
constexpr int kManyRedThreesEach = 200;    // ... red threes score this each (4: 800, 5: 1000, 6: 1200)
constexpr int kGoingOutBonus = 100;        // going out
constexpr int kConcealedBonus = 200;       // going out concealed (instead of kGoingOutBonus)
// Profiles with wild melds and closed canastas (spanish).
constexpr int kWildCanastaBonus = 2000;  // a canasta of seven wild cards
constexpr int kClosedNaturalMax = 8;     // a closed natural canasta takes one 8th natural, no more
// Premiums (Rules::premiums).
constexpr int kFourBlackThrees = 500;      // four black threes melded when going out (instead of 20)
constexpr int kFourBlackThreesHeld = 500;  // four black threes left in one hand cost this (instead of 20)
constexpr int kCanastronBonus = 500;       // five canastas (canastrón)
constexpr int kCanastaDeCanastas = 2000;   // seven canastas (on top of the canastrón: 2500)
// Going out concealed with premiums, by [later turn][leaning on the partner's melds]:
// in the player's first turn alone 1000, leaning 500; later alone 500, leaning 200.
constexpr int kConcealedPremium[2][2] = {{1000, 500}, {500, 200}};

// One plain struct; every field is one rule. Seat s plays for side s % teams,
// so partners sit opposite; the partner asked "may I go out?" is s + teams
// (with three players a side, the next player of the side).
struct Rules {
  uint8_t players = 4;              // seats at the table (2..6)
  uint8_t teams = 2;                // sides; players / teams seats per side
  uint8_t decks = 2;                // 52-card decks shuffled together
  uint8_t jokers = 4;               // jokers added to the decks
  uint8_t hand_size = 11;           // cards dealt to each player
  uint8_t draw_count = 1;           // cards drawn from the stock in one draw
  uint8_t canastas_to_go_out = 1;   // canastas a side needs before a player may go out
  uint8_t max_wilds = 3;            // most wild cards in one meld
  bool wilds_le_naturals = false;   // a meld never holds more wilds than naturals
  bool one_card_rule = true;        // a one-card hand may not take a one-card pile
  bool ask_partner = true;          // a player may ask the partner "may I go out?"
  bool wild_melds = false;          // melds of wild cards only (3 to 7; seven make a wild canasta)
  bool closed_canastas = false;     // a canasta is closed at 7 (one 8th natural for a natural one);
                                    // a mixed canasta may be cleaned
  bool frozen_until_taken = false;  // the pile is frozen until it has been taken once in the deal
  bool red3_need_canasta = false;   // red threes count plus only for a side with a canasta
  bool premiums = false;            // the spanish premiums (black threes, canastrón, concealed levels)
  RedThreeDeal red3_deal = RedThreeDeal::kImmediate;
  StockEnd stock_end = StockEnd::kTakePile;
  TieRule tie = TieRule::kPlayOn;
  int16_t target = 5000;      // cumulative score that wins the game
  uint16_t max_deals = 1000;  // a game that has not ended after this many deals is abandoned
  // Opening minimum by the side's cumulative score before the deal:
  // below open_at[0]: open_min[0]; below open_at[1]: open_min[1]; ...
  std::array<int16_t, 3> open_at{0, 1500, 3000};
  std::array<uint8_t, 4> open_min{15, 50, 90, 120};

  constexpr int seats_per_team() const { return players / teams; }
  int team_of(int seat) const { return seat % teams; }
  int partner_of(int seat) const {  // (seat + teams) % players
    const int p = seat + teams;
    return p >= players ? p - players : p;
  }
  int next_seat(int seat) const { return seat + 1 == players ? 0 : seat + 1; }
  int deck_cards() const { return 52 * decks + jokers; }
  int opening_minimum(int cumulative) const {
    for (int i = 0; i < 3; ++i)
      if (cumulative < open_at[i]) return open_min[i];
    return open_min[3];
  }
  friend constexpr bool operator==(const Rules&, const Rules&) = default;
};
static_assert(std::is_trivially_copyable_v<Rules>);

// The built-in profiles (canasta rules lists them; the io library reads and
// writes them by name, with overrides).
constexpr Rules classic_rules() { return Rules{}; }
constexpr Rules two_player_rules() {
  Rules r;
  r.players = 2;
  r.teams = 2;
  r.hand_size = 15;
  r.draw_count = 2;
  r.canastas_to_go_out = 2;
  r.wilds_le_naturals = true;
  r.one_card_rule = false;
  r.ask_partner = false;
  r.red3_deal = RedThreeDeal::kOwnersTurn;
  r.stock_end = StockEnd::kAfterLastDraw;
  return r;
}
// The spanish club rules (seeds 000 and 004): 4 players in 2 partnerships.
constexpr Rules spanish_rules() {
  Rules r;
  r.wilds_le_naturals = true;
  r.one_card_rule = false;
  r.wild_melds = true;
  r.closed_canastas = true;
  r.frozen_until_taken = true;
  r.premiums = true;
  r.red3_deal = RedThreeDeal::kExposedNow;
  r.stock_end = StockEnd::kMustTake;
  r.tie = TieRule::kDraw;
  return r;
}
// The other tables of the spanish book.
constexpr Rules spanish_table(int players, int teams) {
  Rules r = spanish_rules();
  r.players = static_cast<uint8_t>(players);
  r.teams = static_cast<uint8_t>(teams);
  if (players == 2) {  // individuals
    r.hand_size = 15;
    r.draw_count = 2;
    r.canastas_to_go_out = 2;
  } else if (players == 3) {  // individuals
    r.hand_size = 13;
    r.draw_count = 2;
  } else if (players == 6 && teams == 3) {  // three partnerships, three decks
    r.decks = 3;
    r.jokers = 6;
    r.hand_size = 13;
  }
  if (r.seats_per_team() < 2) r.ask_partner = false;
  return r;
}

// Checks that a parameter set is one the engine supports: nullptr when it
// is, else what is wrong.
const char* check_rules(const Rules& rules);

}  // namespace canasta
