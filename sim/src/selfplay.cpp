#include "canasta/selfplay.h"

#include <algorithm>
#include <numeric>
#include <string_view>
#include <vector>

#include "canasta/engine.h"
#include "canasta/features.h"
#include "canasta/rng.h"
#include "canasta/samples.h"

namespace canasta {

void append_samples(const DealRecord& rec, uint64_t seed, int64_t row, int per_deal, std::string& out) {
  const int n = static_cast<int>(rec.actions.size());
  if (n == 0 || per_deal <= 0) return;
  // The steps sampled: per_deal of the n decisions (all when fewer), in order.
  std::vector<int> steps(static_cast<size_t>(n));
  std::iota(steps.begin(), steps.end(), 0);
  Rng rng(derive_seed(seed, Stream::kSamplePick, static_cast<uint64_t>(row)));
  const int k = std::min(per_deal, n);
  for (int i = 0; i < k; ++i)
    std::swap(steps[static_cast<size_t>(i)],
              steps[static_cast<size_t>(i) + rng.below(static_cast<uint32_t>(n - i))]);
  std::sort(steps.begin(), steps.begin() + k);
  State s;
  start_deal(s, rec.rules, rec.deck, rec.deck_size, rec.dealer, rec.scores_before);
  const int f = feature_count(rec.rules);
  std::vector<float> x(static_cast<size_t>(k * f));
  std::vector<int> team(static_cast<size_t>(k));
  int next = 0;
  for (int i = 0; i < n; ++i) {
    if (next < k && i == steps[static_cast<size_t>(next)]) {
      const int seat = s.actor();
      features(View(s, seat), x.data() + static_cast<ptrdiff_t>(next) * f);
      team[static_cast<size_t>(next)] = rec.rules.team_of(seat);
      ++next;
    }
    apply(s, rec.actions[static_cast<size_t>(i)].second);
  }
  const auto margin = deal_margins(s);
  for (int i = 0; i < k; ++i)
    append_sample(out, rec.deal,
                  static_cast<float>(margin[static_cast<size_t>(team[static_cast<size_t>(i)])]),
                  x.data() + static_cast<ptrdiff_t>(i) * f, f);
}

bool write_selfplay_samples(const ExperimentConfig& c, const std::string& agents, int per_deal,
                            std::ostream& file, RunHooks hooks, SelfplayCount& count, std::string& error) {
  file << sample_file_header(c.rules, agents, c.seed, 0);
  const size_t record = sample_bytes(feature_count(c.rules));
  count = SelfplayCount{};
  std::string bytes;
  DealRecord rec;
  hooks.records = [&](const std::string& lines) {
    bytes.clear();
    size_t start = 0;
    while (start < lines.size()) {
      const size_t end = lines.find('\n', start);
      const std::string_view line(lines.data() + start,
                                  (end == std::string::npos ? lines.size() : end) - start);
      start = end == std::string::npos ? lines.size() : end + 1;
      std::string why;
      if (line.empty() || !parse_record(line, rec, why)) continue;  // the run's own records
      append_samples(rec, c.seed, count.deals++, per_deal, bytes);
    }
    count.samples += static_cast<int64_t>(bytes.size() / record);
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  };
  RunOutcome outcome;
  if (!stream_deals(c, outcome, error, hooks)) return false;
  file.seekp(static_cast<std::streamoff>(kSampleCountOffset));
  file.write(reinterpret_cast<const char*>(&count.samples), sizeof count.samples);
  return true;
}

}  // namespace canasta
