#!/usr/bin/env bash
# The rule book's strategy advice put to the test: sweeps of the heuristic's
# parameters that carry each piece of advice, in duplicate against `basic`,
# the heuristic itself and (for freezing) ISMCTS, as results/freeze.md and
# results/book-advice.md report them. About 8 minutes on 2 cores.
#
#   bash scripts/book_advice.sh [OUT_DIR]     # default: results/advice
#
# For each sweep NAME and opponent OPP it writes OUT_DIR/NAME-OPP.csv (the
# table of canasta tune) and OUT_DIR/NAME-OPP.txt (its printout), and draws
# OUT_DIR/NAME.png (all opponents on one plot) when python3-matplotlib is
# installed. PAIRS=N (default 20000) sets the deal pairs a point against
# basic and the heuristic, ISMCTS_PAIRS=N (default 300) against ISMCTS.
# Stopped by a signal, the sweep in progress keeps its points so far in its
# CSV (`canasta tune --resume FILE` plays the rest) and its printout before
# stays; the script run again starts over.
source "$(dirname "$0")/args.sh"
pairs=${PAIRS:-20000}
ismcts_pairs=${ISMCTS_PAIRS:-300}
whole PAIRS "$pairs"
whole ISMCTS_PAIRS "$ismcts_pairs"
source "$(dirname "$0")/measure.sh" "${1:-results/advice}"
ismcts=ismcts:iters=100

# sweep NAME SPEC OPPONENT...: one table per opponent, then one plot.
sweep() {
  local name=$1 spec=$2
  shift 2
  local also=() first="" label=""
  for opp in "$@"; do
    local tag=${opp%%:*} n=$pairs
    [[ $tag == ismcts ]] && n=$ismcts_pairs
    run "$name-$tag" tune --agent "$spec" --vs "$opp" --deals "$n" --seed 31 --threads 2 -o "$out/$name-$tag.csv"
    if [[ -z $first ]]; then
      first=$out/$name-$tag.csv label="against $opp"
    else
      also+=(--also "$out/$name-$tag.csv=against $opp")
    fi
  done
  if can_plot; then
    /usr/bin/python3 scripts/plot_sweep.py "$first" "$out/$name.png" --label "$label" "${also[@]}" \
      --title "heuristic: $name (duplicate deal pairs, 95% intervals)"
  fi
}

# Freezing the pile (results/freeze.md).
sweep freeze-size 'heuristic:freeze={0,3,4,5,6,8,10,12,15}' basic heuristic "$ismcts"
sweep freeze-value 'heuristic:freeze_value={0,20,40,60,80,100,150,200}' basic heuristic
sweep freeze-behind 'heuristic:freeze_behind={-10000,-500,0,250,500,1000,10000},freeze_hand={2,4,6}' basic heuristic
sweep freeze-guard 'heuristic:freeze=5,freeze_guard={0,1}' basic heuristic
sweep freeze-guard-behind 'heuristic:freeze_behind=0,freeze_hand=6,freeze_guard={0,1}' basic heuristic
sweep freeze-behind-short 'heuristic:freeze_behind={-10000,0,10000},freeze_hand=6' "$ismcts"

# The rest of the book's advice (results/book-advice.md).
sweep open-lean 'heuristic:open_lean={0,1}' basic heuristic
sweep meld-min 'heuristic:meld_min={2,3,4}' basic heuristic
sweep take-min 'heuristic:take_min={1,2,3,4,6,8,12},take_value=2000' basic heuristic
sweep jokers-first 'heuristic:jokers_first={0,1}' basic heuristic
sweep keep-wilds 'heuristic:keep_wilds={0,1,2,3,4}' basic heuristic
sweep dump-hand 'heuristic:dump_hand={0,1,2,4,6,8}' basic heuristic
sweep extend 'heuristic:extend={0,10,20,30,40,60}' basic heuristic
sweep safety 'heuristic:safety={0,50,100,151,250,400}' basic heuristic
echo "book_advice.sh: done, outputs in $out"
