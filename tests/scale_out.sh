#!/usr/bin/env bash
# The scripts that spread a run without MPI give one machine's files: the
# Slurm one with a stand-in for sbatch that runs the jobs here, the hosts
# one on "localhost" three times.
#   bash scale_out.sh CANASTA SCRIPTS_DIR WORK_DIR
set -euo pipefail
source "$(dirname "$0")/lib.sh"
scripts=$(realpath "$2")
setup "$1" "$3"
args=(--side0 heuristic --side1 random --deals 1200)
"$canasta" sim "${args[@]}" --out single >/dev/null
# sbatch stand-in: an array job runs its tasks one after the other, a job runs at once.
mkdir bin
cat >bin/sbatch <<'SBATCH'
#!/usr/bin/env bash
array="" wrap=""
for a in "$@"; do
  case $a in --array=*) array=${a#--array=} ;; --wrap=*) wrap=${a#--wrap=} ;; esac
done
if [[ -n $array ]]; then
  for ((t = ${array%-*}; t <= ${array#*-}; ++t)); do SLURM_ARRAY_TASK_ID=$t bash -c "$wrap" >/dev/null; done
else
  bash -c "$wrap" >/dev/null
fi
echo $RANDOM
SBATCH
chmod +x bin/sbatch
same() {
  for f in summary.json deals.csv; do cmp -s "single/$f" "$1/$f" || fail "$1/$f differs from one machine's"; done
}
CANASTA=$canasta PATH="$PWD/bin:$PATH" bash "$scripts/slurm.sh" 4 slurm -- "${args[@]}" >/dev/null
same slurm/merged
# A folder whose name has a space in it.
CANASTA=$canasta PATH="$PWD/bin:$PATH" bash "$scripts/slurm.sh" 2 "slurm two" -- "${args[@]}" >/dev/null
same "slurm two/merged"
CANASTA=$canasta HOSTS="localhost localhost localhost" bash "$scripts/hosts.sh" hosts -- "${args[@]}" >/dev/null
same hosts/merged
# Again on two hosts into the same folder: the three shards of before stay out of it.
CANASTA=$canasta HOSTS="localhost localhost" bash "$scripts/hosts.sh" hosts -- "${args[@]}" >/dev/null
same hosts/merged
echo "scale out: the Slurm and hosts scripts give one machine's files"
