#!/usr/bin/env bash
# The whole test suite, what CI runs. Installs what is missing (Chromium
# too, for the replay page's browser test, which is skipped with a message
# where it cannot run), then six stages, each configuration built once,
# with Ninja (and `mpi` when named):
#   format   clang-format would change nothing (.clang-format);
#   tidy     clang-tidy's naming and function-size rules (.clang-tidy: no
#            function over 100 lines) on every source of the libraries, the
#            program, the benchmarks and the tests, as the release build
#            compiles them (the program's and the tests' in unity batches);
#   release  a Release build with warnings as errors, every test, the MPI
#            program's among them (Open MPI: mpirun -n 1, 2, 3 give one
#            process's files byte for byte; SIGTERM to mpirun), and
#            OpenSpiel's checks of the Python game where pyspiel imports
#            (installed, or built in ../shared/openspiel beside the checkout,
#            which the tests put on PYTHONPATH; python3-absl installed here);
#   asan     a Debug build (-O1, line tables) with AddressSanitizer and
#            UndefinedBehaviorSanitizer, where every action is also checked
#            for legality and every invariant after it: every test but the
#            slow reference comparison, the thousand-game replay and the
#            browser's (Chromium, not the program) and the allocation
#            counts (the sanitizer's allocator), the property tests on a
#            quarter of their deals, the stop-and-resume and hostile-record
#            scripts on one case of each kind (every start is slow there);
#   tsan     a ThreadSanitizer build of the test files that run
#            threads (the runner, the record writer, the stop flag, root-
#            parallel search, the program in-process);
#   mpi      only the MPI program's test, which the release stage runs too
#            (not run unless named);
#   fuzz     the libFuzzer targets (clang, with ASan and UBSan) of the record
#            reader, the notation and the spec readers, and the readers of a
#            run folder and a resume state, each for FUZZ_SECONDS
#            on a copy of its corpus (tests/fuzz/corpus).
# About 19 minutes on a quiet 2-core machine (the README has the latest time).
# Options, by environment:
#   STAGES="release asan"   run only these stages, in this order
#   CANASTA_LONG_TESTS=ON   many more random deals in the property and
#                           reference tests
#   FUZZ_SECONDS=600        fuzz longer (default 5 s a target)
source "$(dirname "$0")/args.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
stages=${STAGES:-format tidy release asan tsan fuzz}
for s in $stages; do
  [[ " format tidy release asan tsan mpi fuzz " == *" $s "* ]] ||
    { echo "test.sh: unknown stage '$s' (format, tidy, release, asan, tsan, mpi, fuzz)" >&2; exit 2; }
done
long=${CANASTA_LONG_TESTS:-OFF}
jobs=$(nproc)
bash scripts/setup.sh ninja-build clang-format clang-tidy clang libclang-rt-14-dev chromium python3-dev python3-pybind11 python3-numpy python3-pytest python3-absl libopenmpi-dev openmpi-bin
start=$SECONDS
stage() { echo "== $1 ($((SECONDS - start)) s)"; }
# cmake -S . -B DIR ARGS...: a new build folder is made with Ninja, whose
# one graph of every target keeps both cores busy where Make's target-by-
# target order leaves one idle; a folder made before keeps its generator.
configure() {
  local dir=$1
  shift
  local generator=()
  [[ -e $dir/CMakeCache.txt ]] || generator=(-G Ninja)
  cmake -S . -B "$dir" "${generator[@]}" "$@" >/dev/null
}
configure_release() {
  configure build -DCMAKE_BUILD_TYPE=Release -DCANASTA_BUILD_TESTS=ON -DCANASTA_BUILD_BENCH=ON \
    -DCANASTA_WERROR=ON -DCANASTA_MPI=OFF -DCANASTA_LONG_TESTS="$long" -DCANASTA_UNITY_BUILD=ON
}
# The release tree must hold the MPI program's test (Open MPI found).
mpi_test() {
  (cd build && ctest -N -R '^cli\.mpi$' | grep -q "Total Tests: 1") ||
    { echo "no MPI test: Open MPI (libopenmpi-dev openmpi-bin) was not found" >&2; exit 1; }
}

for s in $stages; do
  case $s in
    format)
      stage format
      git ls-files -co --exclude-standard '*.cpp' '*.h' | xargs clang-format --dry-run --Werror
      ;;
    tidy)
      stage tidy
      # The release build's compile commands: its unity batches are checked
      # with every source they hold (the header filter names .cpp files too).
      configure_release
      run-clang-tidy -p build -quiet -j"$jobs" -extra-arg=-Wno-error -header-filter="$PWD/(core|agents|sim|bench|tests)/.*\.(h|cpp)$" \
        "^$PWD/((core|agents|sim|bench|tests)/|build/.*/Unity/)" >build/tidy.log 2>&1 ||
        { grep -E "(warning|error):" build/tidy.log | sort -u; echo "clang-tidy: see build/tidy.log" >&2; exit 1; }
      ;;
    release)
      stage release
      configure_release
      mpi_test
      cmake --build build -j"$jobs"
      (cd build && ctest --output-on-failure -j"$jobs")
      ;;
    mpi)
      stage mpi
      configure build -DCMAKE_BUILD_TYPE=Release -DCANASTA_BUILD_TESTS=ON -DCANASTA_WERROR=ON -DCANASTA_MPI=OFF
      mpi_test
      cmake --build build -j"$jobs" --target canasta canasta_mpi
      (cd build && ctest --output-on-failure -R '^cli\.mpi$')
      ;;
    asan)
      stage asan
      configure build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" -DCANASTA_SANITIZE=ON \
        -DCANASTA_WERROR=ON -DCANASTA_BUILD_TESTS=ON -DCANASTA_BUILD_BENCH=OFF -DCANASTA_LONG_TESTS="$long"
      cmake --build build-asan -j"$jobs"
      (cd build-asan && ctest --output-on-failure -j"$jobs" -E "Reference|thousand_games|in_a_browser|^Allocation\.")
      ;;
    tsan)
      stage tsan
      configure build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
        -DCANASTA_TSAN=ON -DCANASTA_WERROR=ON -DCANASTA_BUILD_TESTS=ON -DCANASTA_BUILD_BENCH=OFF
      # Its test binary holds the files of tests/CMakeLists.txt's
      # canasta_thread_test_sources: a suite named here lives there.
      cmake --build build-tsan -j"$jobs" --target canasta_tests
      (cd build-tsan && TSAN_OPTIONS="halt_on_error=1" ctest --output-on-failure -j"$jobs" \
        -R "^(Experiment|Games|Sprt|Tournament|Ismcts|Cli|Processes)\.|Signature\.SameOnTwoThreads")
      ;;
    fuzz)
      stage fuzz
      configure build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCANASTA_FUZZ=ON \
        -DCANASTA_WERROR=ON -DCANASTA_BUILD_TESTS=OFF -DCANASTA_BUILD_BENCH=OFF
      cmake --build build-fuzz -j"$jobs" --target fuzz_record fuzz_notation fuzz_spec fuzz_state
      for t in record notation spec state; do
        rm -rf "build-fuzz/corpus-$t"
        cp -r "tests/fuzz/corpus/$t" "build-fuzz/corpus-$t"
        seeds=()
        [[ $t == record ]] && seeds=(../tests/hostile)  # records from strangers
        (cd build-fuzz && "./tests/fuzz/fuzz_$t" -max_total_time="${FUZZ_SECONDS:-5}" -max_len=4096 \
          -print_final_stats=1 "corpus-$t" "${seeds[@]}" 2>&1 | grep -E "^(stat::number_of_executed_units|INFO: seed)|ERROR|SUMMARY" || true)
        # A finding leaves a crash-*, leak-* or timeout-* file and a non-zero exit.
        if ls build-fuzz/crash-* build-fuzz/leak-* build-fuzz/timeout-* >/dev/null 2>&1; then
          echo "fuzz_$t found a failing input: build-fuzz/$(cd build-fuzz && ls crash-* leak-* timeout-* 2>/dev/null | head -1)" >&2
          exit 1
        fi
      done
      ;;
  esac
done
stage "done: $stages"
