// Features of a position for learned evaluations: numbers read from one
// seat's View only (a model fed with them can never see a hidden card),
// relative to that seat (its own side first, then the next sides in seat
// order; its own seat first, then the next seats), of a fixed length per
// profile. The layout is documented in agents/doc/learned.md; the names
// below give every number's place, so that code reading features (training,
// baselines) never counts by hand.
#pragma once

#include "canasta/view.h"

namespace canasta {

// Changes whenever the layout changes; a model file names the version it was trained on.
constexpr int kFeatureVersion = 1;

// Scales: such a feature is the quantity divided by its scale.
constexpr double kOpeningScale = 100.0;    // the opening minimum a side faces
constexpr double kScoreScale = 1000.0;     // a side's score before the deal, and on the table
constexpr double kTurnValueScale = 100.0;  // the card value melded in the turn

// Sizes of the codes of the turn (the Python observation writes them too).
constexpr int kPhaseNb = 4;      // the phase, one-hot: draw, meld, answer, over (Phase)
constexpr int kTurnFlagNb = 10;  // the turn's flags, one number a bit (TurnFlag)
static_assert(static_cast<int>(Phase::kOver) + 1 == kPhaseNb);
static_assert(kAddedToOld == 1 << (kTurnFlagNb - 1));

// A side's block: offsets within it.
constexpr int kSideNaturals = 0;                     // naturals melded, per rank
constexpr int kSideWilds = kSideNaturals + kKindNb;  // wild cards per rank (kind 2: the wild meld's size)
constexpr int kSideCanastas = kSideWilds + kKindNb;  // 0/1 per rank (kind 2: a wild canasta)
constexpr int kSideNaturalCanastas = kSideCanastas + kKindNb;  // 0/1 per rank
constexpr int kSideRedThrees = kSideNaturalCanastas + kKindNb;
constexpr int kSideOpened = kSideRedThrees + 1;            // 0/1
constexpr int kSideOpeningMinimum = kSideOpened + 1;       // / kOpeningScale
constexpr int kSideScoreBefore = kSideOpeningMinimum + 1;  // / kScoreScale
constexpr int kSideTableScore = kSideScoreBefore + 1;      // melds, canastas, red threes; / kScoreScale
constexpr int kFeaturesPerSide = kSideTableScore + 1;

// A seat's block: offsets within it.
constexpr int kSeatHandSize = 0;
constexpr int kSeatKnown = kSeatHandSize + 1;         // cards it took with the pile and still holds, per kind
constexpr int kSeatDiscarded = kSeatKnown + kKindNb;  // 0/1 per kind discarded in the deal
constexpr int kFeaturesPerSeat = kSeatDiscarded + kKindNb;

// The pile and the turn: offsets within their block.
constexpr int kTablePileSize = 0;
constexpr int kTablePileFrozen = kTablePileSize + 1;  // 0/1
constexpr int kTableHasTop = kTablePileFrozen + 1;    // 0/1
constexpr int kTableTop = kTableHasTop + 1;           // the top card's kind, one-hot
constexpr int kTablePile = kTableTop + kKindNb;       // the pile's cards per kind
constexpr int kTableStockSize = kTablePile + kKindNb;
constexpr int kTablePhase = kTableStockSize + 1;                // one-hot, kPhaseNb
constexpr int kTableTurnFlags = kTablePhase + kPhaseNb;         // kTurnFlagNb bits
constexpr int kTableTurnValue = kTableTurnFlags + kTurnFlagNb;  // / kTurnValueScale
constexpr int kFeaturesOfTable = kTableTurnValue + 1;

// Where each block starts for a profile: the seat's hand (cards per kind),
// one block per side, one per seat, the pile and the turn, then the seat to
// act (one-hot, relative: one number per seat).
struct FeatureLayout {
  int hand = 0, sides = 0, seats = 0, table = 0, actor = 0;
  int size = 0;  // how many numbers in all
  // The block of the i-th side or seat from the seat's own.
  constexpr int side(int i) const { return sides + i * kFeaturesPerSide; }
  constexpr int seat(int i) const { return seats + i * kFeaturesPerSeat; }
};
constexpr FeatureLayout feature_layout(const Rules& r) {
  FeatureLayout l;
  l.hand = 0;
  l.sides = l.hand + kKindNb;
  l.seats = l.sides + r.teams * kFeaturesPerSide;
  l.table = l.seats + r.players * kFeaturesPerSeat;
  l.actor = l.table + kFeaturesOfTable;
  l.size = l.actor + r.players;
  return l;
}

// How many numbers features() writes for a profile (322 in classic: 64 + 65 a side + 32 a seat).
constexpr int feature_count(const Rules& r) { return feature_layout(r).size; }
constexpr int kMaxFeatures =
    kKindNb + kMaxTeams * kFeaturesPerSide + kMaxSeats * (kFeaturesPerSeat + 1) + kFeaturesOfTable;
static_assert(kKindNb + kFeaturesOfTable == 64 && kFeaturesPerSide == 65 && kFeaturesPerSeat + 1 == 32);

// Writes feature_count(v.rules()) numbers to `out`; allocates nothing.
void features(const View& v, float* out);

}  // namespace canasta
