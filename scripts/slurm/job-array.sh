#!/bin/bash
# One line of a job list per Slurm array task: the experiments' --plan commands (one self-contained
# shell command per job, each writing its own JSON) become an array job on a cluster.
#   node scripts/experiment.mjs mlp-lm FLAGS --plan sweep --jobs-dir jobs > sweep.txt
#   sbatch --array=1-$(wc -l < sweep.txt) scripts/slurm/job-array.sh sweep.txt
# then, when it has finished (--dependency=afterok:<id>), --plan main the same way and --merge.
# A task whose job file already exists does nothing, so a resubmitted array resumes.
#SBATCH --job-name=gatelab
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=02:00:00
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail
list=${1:?usage: job-array.sh JOB_LIST (one command per line)}
task=${SLURM_ARRAY_TASK_ID:?run it as a Slurm array task (sbatch --array=1-N)}
command=$(sed -n "${task}p" "$list")
[ -n "$command" ] || { echo "job-array: $list has no line $task" >&2; exit 2; }
out=${command##* }  # every job command ends with its --out file
if [ -e "$out" ]; then echo "job-array: $out exists, skipped"; exit 0; fi
eval "$command"
