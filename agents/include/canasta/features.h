// Features of a position for learned evaluations: numbers read from one
// seat's View only (a model fed with them can never see a hidden card),
// relative to that seat (its own side first, then the next sides in seat
// order; its own seat first, then the next seats), of a fixed length per
// profile. The layout is documented in agents/doc/learned.md.
#pragma once

#include "canasta/view.h"

namespace canasta {

// Changes whenever the layout changes; a model file names the version it was trained on.
constexpr int kFeatureVersion = 1;

constexpr int kFeaturesPerSide = 4 * kKindNb + 5;
constexpr int kFeaturesPerSeat = 1 + 2 * kKindNb;
constexpr int kFeaturesFixed = kKindNb + (3 + 2 * kKindNb) + 1 + 4 + 10 + 1;
// How many numbers features() writes for a profile (322 in classic).
constexpr int feature_count(const Rules& r) {
  return kFeaturesFixed + r.teams * kFeaturesPerSide + r.players * (kFeaturesPerSeat + 1);
}
constexpr int kMaxFeatures =
    kFeaturesFixed + kMaxTeams * kFeaturesPerSide + kMaxSeats * (kFeaturesPerSeat + 1);

// Writes feature_count(v.rules()) numbers to `out`; allocates nothing.
void features(const View& v, float* out);

}  // namespace canasta
