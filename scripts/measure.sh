# Shared by the measurement scripts (players.sh, book_advice.sh,
# ismcts_variants.sh, spanish_players.sh): `source scripts/measure.sh
# OUT_DIR` goes to the repository root, checks the program
# (build/sim/cli/canasta, or $CANASTA), makes OUT_DIR, and defines
#   run NAME ARGS...   runs `canasta ARGS...`, printing the command and its
#                      output to the screen and to OUT_DIR/NAME.txt (which
#                      keeps the earlier printout if the command fails or
#                      is stopped);
#   can_plot           true when /usr/bin/python3 has matplotlib.
source "$(dirname "${BASH_SOURCE[0]}")/args.sh"  # run alone with --help: this comment
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=$1
canasta=${CANASTA:-build/sim/cli/canasta}
[[ -x $canasta ]] || { echo "$(basename "$0"): $canasta is missing (bash scripts/build.sh)" >&2; exit 2; }
mkdir -p "$out"

# A printout replaces the one before only when its command succeeds.
run() {
  local name=$1
  shift
  echo "+ canasta $*" | tee "$out/$name.txt.tmp"
  "$canasta" "$@" | tee -a "$out/$name.txt.tmp"
  mv "$out/$name.txt.tmp" "$out/$name.txt"
}
trap 'rm -f "$out"/*.txt.tmp' EXIT

can_plot() { /usr/bin/python3 -c 'import matplotlib' 2>/dev/null; }
