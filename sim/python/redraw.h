// Determinization for search (OpenSpiel's resample_from_infostate): a deal
// that one seat cannot tell from the one being played, in which every
// other seat's hidden cards are drawn again, now and in the past.
#pragma once

#include <span>
#include <string>

#include "canasta/engine.h"
#include "canasta/rng.h"
#include "observation.h"

namespace canasta {

// The deck of a deal that `seat` cannot tell from the one that began at
// `start` and went through `steps`: the same dealer, scores and actions,
// the cards the seat received and every public card in their places, every
// other card drawn again. Each other seat's hand now is drawn as
// View::determinize draws it, and its hands before (its dealt hand, its hand
// after each step) follow from it through the public history: each of its
// actions legal with the hand it then held, each card it drew one it could
// have drawn. Where those draws do not hold in many tries (a seat bound by
// a past "may I go out?" or a commitment to go out, which few hands meet),
// that seat keeps the cards it had, moved by a random walk of swaps with the
// stock, each kept only when its whole past stays legal: a consistent world,
// nearer the true one than a fresh draw. Replaying the actions on the deck
// gives that world (checked before it is returned). Returns false, with
// `error` set, only for a start and steps not reached by play.
bool redraw_deal(const State& start, std::span<const Step> steps, int seat, Rng& rng, Deck& deck,
                 std::string& error);

}  // namespace canasta
