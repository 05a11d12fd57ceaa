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
source "$(dirname "$0")/args.sh"
set -euo pipefail
if (($# < 3)) || [[ $3 != -- ]]; then
  echo "usage: $0 N OUT -- [canasta sim options]" >&2
  exit 2
fi
shards=$1
out=$2
shift 3
whole N "$shards"
command -v sbatch >/dev/null || { echo "slurm.sh: no sbatch here: run it where Slurm is" >&2; exit 2; }
canasta=${CANASTA:-$(realpath "$(dirname "$0")/../build/sim/cli/canasta")}
mkdir -p "$out"
out=$(realpath "$out")
args=$(printf '%q ' "$@")
# Names quoted for the job's shell; the merge takes this run's shards only.
q=$(printf '%q' "$out") qc=$(printf '%q' "$canasta")
shard_dirs=$(for ((i = 0; i < shards; ++i)); do printf '%s/shard-%d ' "$q" "$i"; done)
# shellcheck disable=SC2086
array=$(sbatch --parsable ${SBATCH_OPTIONS:-} --array="0-$((shards - 1))" --job-name=canasta-shards \
  --output="$out/shard-%a.log" \
  --wrap="$qc sim $args --shard \$SLURM_ARRAY_TASK_ID/$shards --out $q/shard-\$SLURM_ARRAY_TASK_ID")
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_OPTIONS:-} --dependency="afterok:$array" --job-name=canasta-merge \
  --output="$out/merge.log" --wrap="$qc merge $shard_dirs--out $q/merged")
echo "shards: job $array (array of $shards); merge: job $merge, into $out/merged"
