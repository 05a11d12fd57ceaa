// Bradley-Terry ratings on the Elo scale from duplicate matches played on
// the same deals, with intervals that hold although the matches share them.
#pragma once

#include <span>
#include <vector>

#include "canasta/pair_points.h"

namespace canasta {

// A match's result for the fit: agent a's duplicate pairs against b, deal
// index by deal index. Every match of a tournament plays the same deals:
// index i is the same deal in each.
struct MatchScore {
  int a = 0, b = 0;
  const PairPoints* pairs = nullptr;  // not owned; outlives the fit
};

struct Rating {
  double elo = 0, lo = 0, hi = 0;  // relative to the first agent, with a 95% interval
};

// Bradley-Terry maximum likelihood from every deal's score (a win 1, a draw
// 1/2), on the Elo scale, agent 0 fixed at 0. The 95% intervals come from
// the sandwich (robust) covariance clustered by deal index: the fit's
// information matrix, inverse, on each side of the scatter of its score
// residuals summed deal index by deal index, over the two deals of each
// pair and over every match that played the index. The two deals of a pair
// are dealt alike, and so are one index's deals in every match, so their
// results move together; the deal indices are independent. Times G / (G - 1)
// for G indices played. Returns false when the fit does not exist (an agent
// that won or lost everything, or a disconnected schedule).
bool fit_bradley_terry(int agents, std::span<const MatchScore> matches, std::vector<Rating>& out);

}  // namespace canasta
