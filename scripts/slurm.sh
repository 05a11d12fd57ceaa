#!/usr/bin/env bash
# A simulation on a Slurm cluster without MPI: an array job of N shards, then
# a merge job that runs when every shard has succeeded.
#
#   bash scripts/slurm.sh N OUT -- [canasta sim options]
#   bash scripts/slurm.sh 64 runs/big -- --side0 heuristic --side1 random --deals 100000000
#
# Shard i writes OUT/shard-i (canasta sim --shard i/N --out ...); the merge job
# writes OUT/merged, byte for byte what one machine would have written. Run
# it from a checkout whose build/ holds the program, on a shared file system.
# Extra sbatch options go in SBATCH_OPTIONS (e.g. "--partition=long --time=4:00:00");
# CANASTA names another program than build/sim/cli/canasta.
set -euo pipefail
if (($# < 3)) || [[ $3 != -- ]]; then
  echo "usage: $0 N OUT -- [canasta sim options]" >&2
  exit 2
fi
shards=$1
out=$2
shift 3
canasta=${CANASTA:-$(realpath "$(dirname "$0")/../build/sim/cli/canasta")}
mkdir -p "$out"
out=$(realpath "$out")
args=$(printf '%q ' "$@")
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="0-$((shards - 1))" --job-name=canasta-shards \
  --output="$out/shard-%a.log" \
  --wrap="$canasta sim $args --shard \$SLURM_ARRAY_TASK_ID/$shards --out $out/shard-\$SLURM_ARRAY_TASK_ID")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency="afterok:$array" --job-name=canasta-merge \
  --output="$out/merge.log" --wrap="$canasta merge $out/shard-*/ --out $out/merged")
echo "shards: job $array (array of $shards); merge: job $merge, into $out/merged"
