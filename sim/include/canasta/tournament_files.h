// A tournament's folder (canasta tournament --out, sim/doc/experiments.md):
// tournament.json, every match and the ratings; pairs.txt, each match's
// deal pairs one by one; and in the run.json of a stopped tournament what
// each match played, to go on from.
#pragma once

#include <string>

#include "canasta/json.h"
#include "canasta/resume.h"
#include "canasta/tournament.h"

namespace canasta {

// How the ratings' intervals are made (tournament.json, the printout).
inline constexpr const char* kRatingIntervals = "sandwich clustered by deal index";

// tournament.json: the configuration, every match played and the ratings.
std::string tournament_to_json(const TournamentConfig& c, const TournamentResult& r);
// pairs.txt: a line naming its format, then each match of the schedule as
// "A B POINTS", POINTS its pairs one by one (pair_points_text).
std::string pairs_text(const TournamentConfig& c, const TournamentResult& r);

// run.json's "resume" of a stopped tournament: each match's positions and
// tally.
void write_tournament_state(JsonWriter& w, const TournamentResult& r);
// What the stopped tournament `run`, whose command gives `c`, has played:
// run.json's "resume" and pairs.txt, checked to be the state of one run
// with tournament.json (the tournament as it stands, computed again without
// playing, is the file the stopped run wrote). Throws InputError.
TournamentResult read_tournament_resume(const StoppedRun& run, const TournamentConfig& c);

}  // namespace canasta
