// Deterministic random numbers: splitmix64 to derive seeds, xoshiro256** for
// streams. Same seed, same numbers, on every platform.
#pragma once

#include <cstdint>

namespace canasta {

constexpr uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// The project's random streams. The seed of stream `s` for item `index` of a
// run or game with seed `seed` is derive_seed(seed, s, index). The numbers are
// fixed for good: every recorded deck and every published figure depends on
// them, so a new stream takes a new number.
enum class Stream : uint64_t {
  kFirstDealer = 0,        // a game's first dealer, drawn by lot: (game seed, kFirstDealer)
  kGameDeck = 1,           // the deck of deal d of a game: (game seed, kGameDeck, d)
  kSingleDeck = 2,         // the deck of single deal k of a simulation: (seed, kSingleDeck, k)
  kRandomPlay = 3,         // uniform random play of single deal k outside the simulator's runs
                           // (signature, property tests, benchmarks): (seed, kRandomPlay, k)
  kPlayGame = 4,           // the agents' decisions in deal d of `canasta play`: (game seed, kPlayGame, d)
  kDealPlay = 6,           // the agents' decisions in single deal k of a run, the original deal ...
  kDealPlayTwin = 7,       // ... and its duplicate twin: (seed, kDealPlay + twin, k)
  kGameSeed = 8,           // the seed of game g of a run of whole games: (seed, kGameSeed, g)
  kGameDealPlay = 9,       // the agents' decisions in deal d of such a game, the original game ...
  kGameDealPlayTwin = 10,  // ... and its twin: (game seed, kGameDealPlay + twin, d)
  kSpsaFlip = 11,          // the perturbation signs of batch b of a tuning run: (seed, kSpsaFlip, b)
  kSpsaDeals = 12,         // the deals of batch b of a tuning run: (seed, kSpsaDeals, b) as a run's seed
  kSamplePick =
      13,       // the positions sampled from the r-th deal played by canasta selfplay: (seed, kSamplePick, r)
  kTrain = 14,  // a training run's initial weights (seed, kTrain, 0) and epoch e's order (seed, kTrain, e)
  kPolicyPick = 15,    // the decisions kept from single deal k by a policy self-play: (seed, kPolicyPick, k)
  kTeacher = 16,       // the teacher of a policy self-play, at single deal k: (seed, kTeacher, k)
  kDealPlayMore = 20,  // twins 2 .. 5 of a deal at a table of three sides: (seed, kDealPlayMore + twin, k)
  kGameDealPlayMore = 30,  // ... and of a game: (game seed, kGameDealPlayMore + twin, d)
  kTest = 100,             // tests that need a stream of their own: (seed, kTest, index)
};

// The stream of a duplicate twin: kDealPlay or kGameDealPlay for twin 0, the
// next one for twin 1, kDealPlayMore or kGameDealPlayMore + twin for twins 2 .. 5.
constexpr Stream twin_stream(Stream original, int twin) {
  if (twin < 2) return static_cast<Stream>(static_cast<uint64_t>(original) + static_cast<uint64_t>(twin));
  const Stream more = original == Stream::kDealPlay ? Stream::kDealPlayMore : Stream::kGameDealPlayMore;
  return static_cast<Stream>(static_cast<uint64_t>(more) + static_cast<uint64_t>(twin));
}

// The seed of item `index` of stream `stream` under `seed`.
constexpr uint64_t derive_seed(uint64_t seed, Stream stream, uint64_t index = 0) {
  uint64_t x = seed;
  uint64_t h = splitmix64(x);
  x = h ^ static_cast<uint64_t>(stream);
  h = splitmix64(x);
  x = h ^ index;
  return splitmix64(x);
}

class Rng {
 public:
  constexpr explicit Rng(uint64_t seed = 0) {
    uint64_t x = seed;
    for (auto& w : s_) w = splitmix64(x);
  }
  constexpr uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform integer in [0, n), n > 0, without bias (multiply and reject).
  constexpr uint32_t below(uint32_t n) {
    uint64_t m = (next() >> 32) * n;
    auto low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (low < threshold) {
        m = (next() >> 32) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }
  // Uniform double in [0, 1).
  constexpr double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static constexpr uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4]{};
};

}  // namespace canasta
