#!/usr/bin/env bash
# The whole test suite, what CI runs. Installs what is missing, then four
# stages, each configuration built once:
#   format   clang-format would change nothing (.clang-format);
#   release  a Release build with warnings as errors, every test;
#   asan     a Debug build (at -O1) with AddressSanitizer and
#            UndefinedBehaviorSanitizer, where every action is also checked
#            for legality and every invariant after it: every test but the
#            slow reference comparison and the thousand-game replay;
#   tsan     a ThreadSanitizer build of the test binary: the tests that run
#            threads (the runner, the record writer, the stop flag, root-
#            parallel search, the program in-process).
# About 8 minutes on a quiet 2-core machine. Options, by environment:
#   STAGES="release asan"   run only these stages, in this order
#   CANASTA_LONG_TESTS=ON   many more random deals in the property tests
set -euo pipefail
cd "$(dirname "$0")/.."
stages=${STAGES:-format release asan tsan}
long=${CANASTA_LONG_TESTS:-OFF}
jobs=$(nproc)
bash scripts/setup.sh clang-format
start=$SECONDS
stage() { echo "== $1 ($((SECONDS - start)) s)"; }

for s in $stages; do
  case $s in
    format)
      stage format
      git ls-files -co --exclude-standard '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
      ;;
    release)
      stage release
      cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCANASTA_BUILD_TESTS=ON -DCANASTA_BUILD_BENCH=ON \
        -DCANASTA_WERROR=ON -DCANASTA_LONG_TESTS="$long" >/dev/null
      cmake --build build -j"$jobs"
      (cd build && ctest --output-on-failure -j"$jobs")
      ;;
    asan)
      stage asan
      cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DCANASTA_SANITIZE=ON \
        -DCANASTA_WERROR=ON -DCANASTA_BUILD_TESTS=ON -DCANASTA_BUILD_BENCH=OFF -DCANASTA_LONG_TESTS="$long" >/dev/null
      cmake --build build-asan -j"$jobs"
      (cd build-asan && ctest --output-on-failure -j"$jobs" -E "Reference|thousand_games")
      ;;
    tsan)
      stage tsan
      cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANASTA_TSAN=ON -DCANASTA_WERROR=ON \
        -DCANASTA_BUILD_TESTS=ON -DCANASTA_BUILD_BENCH=OFF >/dev/null
      cmake --build build-tsan -j"$jobs" --target canasta_tests
      (cd build-tsan && TSAN_OPTIONS="halt_on_error=1" ctest --output-on-failure -j"$jobs" \
        -R "^(Experiment|Games|Sprt|Tournament|Ismcts|Cli)\.|Signature\.SameOnTwoThreads")
      ;;
    *)
      echo "unknown stage '$s' (format, release, asan, tsan)" >&2
      exit 2
      ;;
  esac
done
stage "done: $stages"
