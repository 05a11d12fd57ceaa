#!/usr/bin/env bash
# A simulation over a few machines without MPI or a scheduler: shard i runs on
# the i-th host of HOSTS (over ssh, or here for "localhost"), then the shards
# are merged here. The checkout (with build/) must be at the same path on
# every host, and OUT on a file system they share (or copy it back first).
#
#   HOSTS="node1 node2 node3" bash scripts/hosts.sh OUT -- [canasta sim options]
source "$(dirname "$0")/args.sh"
set -euo pipefail
if (($# < 2)) || [[ $2 != -- ]]; then
  echo "usage: HOSTS=\"host ...\" $0 OUT -- [canasta sim options]" >&2
  exit 2
fi
read -r -a hosts <<<"${HOSTS:?name the hosts: HOSTS=\"node1 node2\"}"
out=$1
shift 2
canasta=${CANASTA:-$(realpath "$(dirname "$0")/../build/sim/cli/canasta")}
mkdir -p "$out"
out=$(realpath "$out")
n=${#hosts[@]}
q=$(printf '%q' "$out")
pids=()
for i in "${!hosts[@]}"; do
  cmd="$(printf '%q' "$canasta") sim $(printf '%q ' "$@") --shard $i/$n --out $q/shard-$i >$q/shard-$i.log 2>&1"
  if [[ ${hosts[$i]} == localhost ]]; then
    bash -c "$cmd" &
  else
    ssh "${hosts[$i]}" "$cmd" &
  fi
  pids+=($!)
done
failed=0
for i in "${!pids[@]}"; do wait "${pids[$i]}" || { echo "shard $i on ${hosts[$i]} failed: $out/shard-$i.log" >&2; failed=1; }; done
((failed == 0)) || exit 1
# This run's shards only (OUT may hold more, of an earlier run on more hosts).
shard_dirs=()
for i in "${!hosts[@]}"; do shard_dirs+=("$out/shard-$i"); done
"$canasta" merge "${shard_dirs[@]}" --out "$out/merged"
