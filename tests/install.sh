#!/usr/bin/env bash
# `cmake --install` to the build's prefix (by default /usr/local), staged
# under a scratch root with DESTDIR so that the machine is left as it was:
# the program runs from the prefix's bin/, and the Python module (when it
# is built) lands in Python's site-packages under the prefix and imports
# and runs from there, away from the build tree.
#   bash install.sh BUILD_DIR WORK_DIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
build=$(realpath "$1")
setup "$build/sim/cli/canasta" "$2"
DESTDIR="$work/root" cmake --install "$build" >install.log || fail "cmake --install: $(tail -3 install.log)"
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")
program="$work/root$prefix/bin/canasta"
[[ -x $program ]] || fail "no program at $program: $(cat install.log)"
(cd / && "$program" sim --deals 200 --side0 heuristic --side1 random) | grep -q "deals won" ||
  fail "the installed program does not run"
installed=("$program")
if ls "$build"/python/canasta/_canasta*.so >/dev/null 2>&1; then
  python=$(sed -n 's/^_\?Python3_EXECUTABLE:[A-Z]*=//p' "$build/CMakeCache.txt" | head -1)  # the build's Python
  module=$(find "$work/root" -name '_canasta*.so' | head -1)  # the package's extension: SITE/canasta/_canasta...so
  [[ -n $module ]] || fail "no Python module installed: $(cat install.log)"
  [[ -f $(dirname "$module")/__init__.py && -f $(dirname "$module")/openspiel.py ]] ||
    fail "the package's Python files were not installed beside $module"
  site=$(dirname "$(dirname "${module#"$work/root"}")")
  # At the default prefix, where Python looks by itself (Debian: /usr/local/lib/python3.X/dist-packages).
  if [[ $prefix == /usr/local ]]; then
    grep -qx "$site" <<<"$("$python" -c "import sys; print('\n'.join(sys.path))")" ||
      fail "the module went to $site, where $python does not look"
  fi
  (cd / && PYTHONPATH="$work/root$site" "$python" -c "
import canasta
assert canasta.__file__.startswith('$work/root'), canasta.__file__
run = canasta.sim(side0='heuristic', side1='random', deals=100)
assert run['rows']['score'].shape == (200, 2), run['rows']['score'].shape
") || fail "the installed module does not import and run"
  installed+=("$module")
fi
echo "install: ${installed[*]#$work/root} run from the prefix $prefix"
