#include "canasta/replay.h"

#include <algorithm>

#include "canasta/notation.h"

namespace canasta {

namespace {

// replay_record, keeping every state in `states` when it is given.
bool replay(const DealRecord& r, std::string& error, State* end, std::vector<State>* states) {
  const Rules& rules = r.rules;
  State local;
  State& s = end ? *end : local;
  start_deal(s, rules, r.deck, r.deck_size, r.dealer, r.scores_before);
  if (states) states->assign(1, s);
  ActionList legal;
  for (size_t i = 0; i < r.actions.size(); ++i) {
    const auto [seat, a] = r.actions[i];
    auto where = [&, seat = seat, a = a] {
      return "action " + std::to_string(i) + " (" + std::to_string(seat) + " " + action_to_string(a) + ")";
    };
    if (s.over()) {
      error = where() + ": the deal is already over";
      return false;
    }
    if (seat != s.actor()) {
      error = where() + ": it is seat " + std::to_string(s.actor()) + "'s move";
      return false;
    }
    legal_actions(s, legal);
    if (!legal.contains(a)) {
      error = where() + ": illegal here";
      return false;
    }
    apply(s, a);
    if (states) states->push_back(s);
    if (const char* bad = check_invariants(s)) {
      error = where() + ": engine invariant broken: " + bad;
      return false;
    }
  }
  if (!s.over()) {
    error = "the actions end before the deal does";
    return false;
  }
  if (s.end != r.end || s.out_seat != r.out_seat || (s.concealed != 0) != r.concealed) {
    error = "result differs: engine says " + std::string(end_name(s.end)) + ", out_seat " +
            std::to_string(s.out_seat) + (s.concealed ? ", concealed" : "");
    return false;
  }
  const auto score = deal_score(s);
  for (int t = 0; t < rules.teams; ++t) {
    if (score[t].total() != r.deal_score[t]) {
      error = "deal score of side " + std::to_string(t) + " differs: engine " +
              std::to_string(score[t].total()) + ", record " + std::to_string(r.deal_score[t]);
      return false;
    }
    if (r.scores_before[t] + r.deal_score[t] != r.totals[t]) {
      error = "total of side " + std::to_string(t) + " is not scores_before + deal_score";
      return false;
    }
  }
  return true;
}

}  // namespace

bool replay_record(const DealRecord& rec, std::string& error, State* end) {
  return replay(rec, error, end, nullptr);
}

bool replay_states(const DealRecord& rec, std::vector<State>& states, std::string& error) {
  return replay(rec, error, nullptr, &states);
}

bool RecordChecker::check(const DealRecord& rec, std::string& error) {
  const Rules& rules = rec.rules;
  Deck deck;
  int n = 0;
  if (rec.kind == RecordKind::kSingle) {
    n = single_deal_deck(rules, rec.seed, rec.deal, deck);
    if (rec.dealer != rec.deal % rules.players || rec.scores_before != std::array<int32_t, kMaxTeams>{}) {
      error =
          "single deal " + std::to_string(rec.deal) + ": the dealer must be deal mod players, the scores 0";
      return false;
    }
    if (rec.game_end != GameEnd::kPlaying || rec.winner != -1) {
      error = "a single deal has no game result";
      return false;
    }
  } else {
    if (rec.deal == 0) {
      game_ = new_game(rules, rec.seed);
      in_game_ = true;
      ++games;
    }
    if (!in_game_ || rec.seed != game_.seed || rec.deal != game_.deal) {
      error = "deal " + std::to_string(rec.deal) + " of seed " + std::to_string(rec.seed) +
              " does not follow the previous record";
      return false;
    }
    if (game_.end != GameEnd::kPlaying) {
      error = "deal " + std::to_string(rec.deal) + " follows the end of its game";
      return false;
    }
    if (rec.dealer != game_.dealer || rec.scores_before != game_.totals) {
      error = "dealer or scores_before differ from the game's own";
      return false;
    }
    n = game_deck(rules, rec.seed, static_cast<int>(rec.deal), deck);
  }
  if (n != rec.deck_size || !std::equal(deck.begin(), deck.begin() + n, rec.deck.begin())) {
    error = "the deck is not the one seed " + std::to_string(rec.seed) + " gives deal " +
            std::to_string(rec.deal);
    return false;
  }
  State s;
  if (!replay_record(rec, error, &s)) return false;
  if (rec.kind == RecordKind::kGame) {
    finish_deal(game_, s);
    if (game_.end != rec.game_end || game_.winner != rec.winner) {
      error = "game result differs: engine says " + std::string(game_end_name(game_.end));
      return false;
    }
    ++game_deals;
  } else {
    ++single_deals;
  }
  actions += static_cast<int64_t>(rec.actions.size());
  return true;
}

}  // namespace canasta
