#include "canasta/sim.h"

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

namespace canasta {

void DealStats::add(const DealStats& o) {
  deals += o.deals;
  went_out += o.went_out;
  concealed += o.concealed;
  stock_out += o.stock_out;
  red_three_last += o.red_three_last;
  actions += o.actions;
  turns += o.turns;
  natural_canastas += o.natural_canastas;
  mixed_canastas += o.mixed_canastas;
  for (int t = 0; t < kMaxTeams; ++t) score[t] += o.score[t];
}

void DealStats::count(const State& s, int n_actions) {
  ++deals;
  went_out += s.end == EndReason::kWentOut;
  concealed += s.end == EndReason::kWentOut && s.concealed;
  stock_out += s.end == EndReason::kStockOut;
  red_three_last += s.end == EndReason::kRedThreeLast;
  actions += n_actions;
  turns += s.turns;
  const auto sc = deal_score(s);
  for (int t = 0; t < s.rules.teams; ++t) {
    score[t] += sc[t].total();
    const int nat = s.melds[t].natural_canastas();
    natural_canastas += nat;
    mixed_canastas += s.melds[t].canastas() - nat;
  }
}

int play_random_deal(State& s, Rng& rng, ActionList& scratch) {
  int n = 0;
  while (!s.over()) {
    legal_actions(s, scratch);
    apply(s, scratch[static_cast<int>(rng.below(static_cast<uint32_t>(scratch.size())))]);
    ++n;
  }
  return n;
}

SimResult run_random_deals(const SimConfig& c, const std::function<void(int64_t)>& progress) {
  const int threads = c.threads > 0 ? c.threads : static_cast<int>(std::thread::hardware_concurrency());
  constexpr int64_t kChunk = 512;
  const int64_t chunks = (c.deals + kChunk - 1) / kChunk;
  std::vector<DealStats> parts(static_cast<size_t>(chunks));
  std::atomic<int64_t> done{0};
  const auto t0 = std::chrono::steady_clock::now();
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<int64_t>(0, chunks, 1), [&](const tbb::blocked_range<int64_t>& r) {
      State s;
      ActionList scratch;
      for (int64_t chunk = r.begin(); chunk != r.end(); ++chunk) {
        DealStats st;
        const int64_t end = std::min(c.deals, (chunk + 1) * kChunk);
        for (int64_t k = chunk * kChunk; k < end; ++k) {
          start_single_deal(s, c.rules, c.seed, k);
          Rng rng(derive_seed(c.seed, 3, static_cast<uint64_t>(k)));
          const int n = play_random_deal(s, rng, scratch);
          st.count(s, n);
        }
        parts[static_cast<size_t>(chunk)] = st;
        const int64_t total = done.fetch_add(end - chunk * kChunk) + (end - chunk * kChunk);
        if (progress) progress(total);
      }
    });
  });
  SimResult out;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  out.threads = threads;
  for (const auto& p : parts) out.stats.add(p);  // fixed order
  return out;
}

Game play_game(const Rules& rules, uint64_t seed, const std::array<Agent*, kMaxSeats>& agents,
               const std::function<void(const DealRecord&)>& on_deal) {
  Game g = new_game(rules, seed);
  State s;
  DealRecord rec;
  while (g.end == GameEnd::kPlaying) {
    start_next_deal(g, s);
    if (on_deal) {
      begin_record(rec, g, s);
      for (int seat = 0; seat < rules.players; ++seat) rec.agents.push_back(agents[seat]->spec());
    }
    Rng rng(derive_seed(seed, 4, static_cast<uint64_t>(g.deal)));
    while (!s.over()) {
      const int seat = s.actor();
      const Action a = agents[seat]->act(View(s, seat), rng);
      if (on_deal) rec.actions.emplace_back(seat, a);
      apply(s, a);
    }
    finish_deal(g, s);
    if (on_deal) {
      end_record(rec, s, g);
      on_deal(rec);
    }
  }
  return g;
}

}  // namespace canasta
