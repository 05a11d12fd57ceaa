// canasta: the command line. Each subcommand is a thin layer over the libraries.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "canasta/agent.h"
#include "canasta/engine.h"
#include "canasta/game.h"
#include "canasta/match.h"
#include "canasta/notation.h"
#include "canasta/record.h"
#include "canasta/sim.h"

namespace {

using namespace canasta;

constexpr int kBadInput = 2;
constexpr int kDisagree = 1;

// An error the user caused: one line on stderr, exit code 2.
struct InputError {
  std::string message;
};

Rules rules_or_throw(const std::string& spec) {
  Rules r;
  std::string error;
  if (!parse_profile(spec, r, error)) throw InputError{error};
  return r;
}

// Writes `text` to `path` through a temporary file renamed when complete.
void write_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw InputError{"cannot write '" + path + "'"};
    out << text;
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp);
      throw InputError{"cannot write '" + path + "'"};
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw InputError{"cannot write '" + path + "': " + ec.message()};
  }
}

int cmd_deal(const std::string& profile, uint64_t seed, int deal) {
  const Rules rules = rules_or_throw(profile);
  Game g = new_game(rules, seed);
  for (int i = 0; i < deal; ++i) {
    ++g.deal;
    g.dealer = (g.dealer + 1) % rules.players;
  }
  State s;
  start_next_deal(g, s);
  Deck deck;
  const int n = game_deck(rules, seed, deal, deck);
  std::cout << "# seed " << seed << ", deal " << deal << ", dealer " << int(s.dealer) << "\n";
  std::cout << "# deck: " << deck_to_string(deck, n) << "\n";
  std::cout << position_to_string(s);
  ActionList legal;
  legal_actions(s, legal);
  std::cout << "# seat " << s.actor() << " to move; legal:";
  for (Action a : legal) std::cout << " [" << action_to_string(a) << "]";
  std::cout << "\n";
  return 0;
}

int cmd_play(const std::string& profile, uint64_t seed, const std::string& record_path,
             const std::array<std::string, 2>& sides) {
  const Rules rules = rules_or_throw(profile);
  std::array<std::unique_ptr<Agent>, kMaxSeats> owned;
  std::array<Agent*, kMaxSeats> agents{};
  for (int seat = 0; seat < rules.players; ++seat) {
    std::string error;
    owned[seat] = make_agent(sides[rules.team_of(seat) % 2], error);
    if (!owned[seat]) throw InputError{error};
    agents[seat] = owned[seat].get();
  }
  std::string lines;
  int deals = 0;
  const Game g = play_game(rules, seed, agents, [&](const DealRecord& rec) {
    if (!record_path.empty()) lines += to_json_line(rec) + "\n";
    ++deals;
  });
  if (!record_path.empty()) write_atomically(record_path, lines);
  std::cout << "game seed " << seed << " (" << profile_spec(rules) << "): " << deals << " deals, totals";
  for (int t = 0; t < rules.teams; ++t) std::cout << " " << g.totals[t];
  std::cout << ", " << game_end_name(g.end);
  if (g.end == GameEnd::kWon) std::cout << " by side " << g.winner;
  std::cout << "\n";
  if (!record_path.empty()) std::cout << "record: " << record_path << "\n";
  return 0;
}

int cmd_replay(const std::vector<std::string>& files) {
  int64_t records = 0, actions = 0, games = 0;
  for (const auto& path : files) {
    std::ifstream in(path);
    if (!in) throw InputError{"cannot read '" + path + "'"};
    std::string line;
    int line_no = 0;
    Game g;
    bool in_game = false;
    while (std::getline(in, line)) {
      ++line_no;
      if (line.empty()) continue;
      const std::string where = path + ":" + std::to_string(line_no);
      DealRecord rec;
      std::string error;
      if (!parse_record(line, rec, error)) throw InputError{where + ": " + error};
      // The deal must continue its game: same seed, the next deal, the rotated dealer.
      const Rules rules = rules_or_throw(rec.profile);
      if (rec.deal == 0) {
        g = new_game(rules, rec.seed);
        in_game = true;
        ++games;
      }
      if (!in_game || rec.seed != g.seed || rec.deal != g.deal) {
        std::cerr << where << ": deal " << rec.deal << " of seed " << rec.seed
                  << " does not follow the previous record\n";
        return kDisagree;
      }
      Deck deck;
      const int n = game_deck(rules, rec.seed, rec.deal, deck);
      if (n != rec.deck_size || !std::equal(deck.begin(), deck.begin() + n, rec.deck.begin()) ||
          rec.dealer != g.dealer || rec.scores_before != g.totals) {
        std::cerr << where << ": deck, dealer or scores_before differ from the game's own\n";
        return kDisagree;
      }
      if (!replay_record(rec, error)) {
        std::cerr << where << ": " << error << "\n";
        return kDisagree;
      }
      State s;
      start_deal(s, rules, rec.deck, rec.deck_size, rec.dealer, rec.scores_before);
      for (auto [seat, a] : rec.actions) apply(s, a);
      finish_deal(g, s);
      if (g.end != rec.game_end || g.winner != rec.winner) {
        std::cerr << where << ": game result differs: engine says " << game_end_name(g.end) << "\n";
        return kDisagree;
      }
      ++records;
      actions += static_cast<int64_t>(rec.actions.size());
    }
  }
  std::cout << "replayed " << records << " deals of " << games << " games, " << actions
            << " actions: all legal, all scores agree\n";
  return 0;
}

int cmd_sim(const std::string& profile, uint64_t seed, int64_t deals, int threads) {
  SimConfig c;
  c.rules = rules_or_throw(profile);
  c.seed = seed;
  c.deals = deals;
  c.threads = threads;
  const bool tty = ::isatty(2);
  std::atomic<int64_t> last{0};
  const auto t0 = std::chrono::steady_clock::now();
  const SimResult r = run_random_deals(c, [&](int64_t done) {
    if (!tty) return;
    const int64_t step = std::max<int64_t>(deals / 100, 1);
    int64_t prev = last.load();
    if (done - prev < step || !last.compare_exchange_strong(prev, done)) return;
    const double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double rate = static_cast<double>(done) / std::max(el, 1e-9);
    std::fprintf(stderr, "\r%lld/%lld deals, %.0f deals/s, %.0f s left   ", static_cast<long long>(done),
                 static_cast<long long>(deals), rate, static_cast<double>(deals - done) / rate);
  });
  if (tty) std::fprintf(stderr, "\r%*s\r", 60, "");
  const DealStats& st = r.stats;
  const double n = static_cast<double>(std::max<int64_t>(st.deals, 1));
  std::printf("canasta sim: %lld random-play deals, profile %s, seed %llu, %d threads\n",
              static_cast<long long>(st.deals), profile_spec(c.rules).c_str(),
              static_cast<unsigned long long>(seed), r.threads);
  std::printf("  speed        %.0f deals/s (%.0f per thread), %.2f s\n", n / r.seconds,
              n / r.seconds / r.threads, r.seconds);
  std::printf(
      "  deal ended   went out %.2f%% (concealed %.2f%%), stock ran out %.2f%%, red three last %.2f%%\n",
      100.0 * static_cast<double>(st.went_out) / n, 100.0 * static_cast<double>(st.concealed) / n,
      100.0 * static_cast<double>(st.stock_out) / n, 100.0 * static_cast<double>(st.red_three_last) / n);
  std::printf("  per deal     %.1f actions, %.1f turns, %.2f natural + %.2f mixed canastas\n",
              static_cast<double>(st.actions) / n, static_cast<double>(st.turns) / n,
              static_cast<double>(st.natural_canastas) / n, static_cast<double>(st.mixed_canastas) / n);
  std::printf("  mean score  ");
  for (int t = 0; t < c.rules.teams; ++t)
    std::printf(" side %d %.1f", t, static_cast<double>(st.score[t]) / n);
  std::printf("\n");
  return 0;
}

int cmd_match(MatchConfig c, const std::string& profile) {
  c.rules = rules_or_throw(profile);
  MatchResult r;
  std::string error;
  if (!run_match(c, r, error)) throw InputError{error};
  std::printf("canasta match: %s against %s, %lld deal pairs (sides swapped), profile %s, seed %llu\n",
              c.a.c_str(), c.b.c_str(), static_cast<long long>(r.pairs), profile_spec(c.rules).c_str(),
              static_cast<unsigned long long>(c.seed));
  std::printf("  margin     %+.1f points per deal for %s, 95%% interval [%+.1f, %+.1f]\n", r.margin.mean,
              c.a.c_str(), r.margin.lo, r.margin.hi);
  std::printf("  deals won  %.1f%% by %s, 95%% interval [%.1f%%, %.1f%%]\n", 100 * r.win_share.mean,
              c.a.c_str(), 100 * r.win_share.lo, 100 * r.win_share.hi);
  std::printf("  time       %.2f s on %d threads\n", r.seconds, r.threads);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"canasta: a Canasta rules engine, self-play simulator and AI research bench"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "canasta 0.1.0");
  std::string profile = "classic";
  uint64_t seed = 1;
  const std::string profile_doc = "rules profile and overrides, e.g. 'two-player,target=3000'";

  auto* deal = app.add_subcommand("deal", "show a deal: hands, upcard, stock, the first legal actions");
  int deal_index = 0;
  deal->add_option("--seed,-s", seed, "game seed")->check(CLI::NonNegativeNumber)->capture_default_str();
  deal->add_option("--deal", deal_index, "deal index in the game")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  deal->add_option("--profile,-p", profile, profile_doc)->capture_default_str();

  auto* play = app.add_subcommand("play", "play one game (random play by default) and optionally record it");
  std::string record;
  play->add_option("--seed,-s", seed, "game seed")->check(CLI::NonNegativeNumber)->capture_default_str();
  play->add_option("--record,-r", record, "write the game record (JSON Lines) to this file");
  play->add_option("--profile,-p", profile, profile_doc)->capture_default_str();
  std::array<std::string, 2> sides{"random", "random"};
  play->add_option("--side0", sides[0], "agent spec of side 0 (seats 0 and 2)")->capture_default_str();
  play->add_option("--side1", sides[1], "agent spec of side 1 (seats 1 and 3)")->capture_default_str();

  auto* agents = app.add_subcommand("agents", "list the agents and their parameters");

  auto* replay = app.add_subcommand("replay", "re-run records: check every action and every score");
  std::vector<std::string> files;
  replay->add_option("files", files, "JSON Lines record files")->required();

  auto* sim =
      app.add_subcommand("sim", "play many random-play deals in parallel and report speed and outcomes");
  int64_t deals = 200000;
  int threads = 0;
  sim->add_option("--deals,-n", deals, "number of deals")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
      ->capture_default_str();
  sim->add_option("--threads,-t", threads, "worker threads (0: all cores)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  sim->add_option("--seed,-s", seed, "simulation seed")->check(CLI::NonNegativeNumber)->capture_default_str();
  sim->add_option("--profile,-p", profile, profile_doc)->capture_default_str();

  auto* match = app.add_subcommand("match", "play two agents over the same deals with sides swapped");
  MatchConfig mc;
  match->add_option("--a", mc.a, "agent spec of the first contestant")->capture_default_str();
  match->add_option("--b", mc.b, "agent spec of the second contestant")->capture_default_str();
  match->add_option("--pairs,-n", mc.pairs, "deal pairs (each deal played twice)")
      ->check(CLI::Range(int64_t{2}, int64_t{1} << 40))
      ->capture_default_str();
  match->add_option("--threads,-t", mc.threads, "worker threads (0: all cores)")
      ->check(CLI::Range(0, 1024))
      ->capture_default_str();
  match->add_option("--seed,-s", mc.seed, "match seed")->check(CLI::NonNegativeNumber)->capture_default_str();
  match->add_option("--profile,-p", profile, profile_doc)->capture_default_str();

  auto* rules = app.add_subcommand("rules", "list the profiles and the rule overrides");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "canasta: " << e.what() << " (see --help)\n";
    return kBadInput;
  }
  try {
    if (*deal) return cmd_deal(profile, seed, deal_index);
    if (*play) return cmd_play(profile, seed, record, sides);
    if (*replay) return cmd_replay(files);
    if (*sim) return cmd_sim(profile, seed, deals, threads);
    if (*match) return cmd_match(mc, profile);
    if (*agents) {
      std::cout << agents_help();
      return 0;
    }
    if (*rules) {
      std::cout << profile_help();
      return 0;
    }
  } catch (const InputError& e) {
    std::cerr << "canasta: " << e.message << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "canasta: " << e.what() << "\n";
    return kBadInput;
  }
  return 0;
}
