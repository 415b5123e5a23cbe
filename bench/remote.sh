#!/bin/bash
# remote.sh - what running on a board over ssh costs, and what sharding
# over Slurm gains, printed as ratios:
#  - per-run time of the ssh runner against the native runner on the same
#    small program (tests/test_ssh_runner bench), with a real sshd on
#    127.0.0.1, in the three ways FLAGSCOPE_SSH_REUSE allows: the default
#    (one ControlMaster connection and one served helper session per
#    board), the connection kept but a helper session started per run, and
#    a fresh ssh connection per run;
#  - when `flagscope run` has --shard: the wall time of a study of 4
#    configurations x 2 workloads run as 4 shards through a single-node
#    Slurm (job array + merge job) against the same study unsharded, builds
#    cached first so both measure the runs.
# Needs root, openssh-server, slurm-wlm and munge (scripts/packages.txt).
# usage: bench/remote.sh [BUILD_DIR] [RUNS] [REPEAT]
#   RUNS: ssh runs per way (40); REPEAT: the Slurm study's repetitions (10)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$src/build}" && pwd) # absolute: the Slurm part runs elsewhere
runs=${2:-40}
repeat=${3:-10}
bin=$build/flagscope
driver=$build/tests/test_ssh_runner
[ -x "$driver" ] || { echo "remote.sh: $driver is not built" >&2; exit 2; }
T=$(mktemp -d /tmp/flagscope-bench.XXXXXX)
SSHD_BASE=$T/sshd
SLURM_BASE=$T/slurm
. "$src/tests/lib_sshd.sh"
. "$src/tests/lib_slurm.sh"
trap 'stop_all_sshd; slurm_stop; rm -rf "$T"' EXIT

sshd_keys
start_sshd a
export FS_SSH_HOST=root@127.0.0.1:${SSHD_PORT[a]} FS_SSH_IDENTITY=$SSHD_BASE/user_key
export FS_SSH_KNOWN_HOSTS=$SSHD_BASE/known_hosts FS_SSH_WORKDIR=$T/board
export FLAGSCOPE_TEST_TMP=$T/tmp FLAGSCOPE_CACHE=$T/cache
declare -A per_run
# a fresh connection costs about a second here: fewer of those
for mode in all connection none; do
	n=$runs
	[ $mode = all ] || n=$(( runs / 4 > 5 ? runs / 4 : 5 ))
	read -r _ native _ ssh < <(FLAGSCOPE_SSH_REUSE=$mode "$driver" bench "$n")
	per_run[native.$mode]=$native
	per_run[$mode]=$ssh
done
python3 - "${per_run[native.all]}" "${per_run[all]}" "${per_run[connection]}" "${per_run[none]}" <<'P'
import sys
native, kept, session, fresh = map(float, sys.argv[1:])
print(f"per run, the same program ({'native runner':s} {native * 1000:.1f} ms):")
for name, v in (("ssh, kept connection and served helper (default)", kept),
                ("ssh, kept connection, a helper session per run", session),
                ("ssh, a fresh connection per run", fresh)):
    print(f"  {name:50s} {v * 1000:8.1f} ms  ratio to native {v / native:6.2f}  "
          f"overhead {(v - native) * 1000:+8.1f} ms")
print(f"  the kept connection and served helper take {kept / fresh:.4f} of a fresh "
      f"connection's time per run ({fresh / kept:.0f}x less)")
P

if ! "$bin" run --help | grep -q -- "--shard"; then
	echo "slurm: skipped (flagscope run has no --shard yet)"
	exit 0
fi
mkdir -p "$T/home/workloads"
cp -r "$src/tests/fixtures/workloads/tiny" "$T/home/workloads/"
cp -r "$T/home/workloads/tiny" "$T/home/workloads/tiny2"
sed -i 's/^args = tiny 300000/args = tiny 10000000/' "$T/home/workloads/tiny/recipe.ini"
sed -i 's/^description = .*/description = tiny, smaller/; s/^args = tiny 300000/args = tiny 8000000/' \
	"$T/home/workloads/tiny2/recipe.ini"
export FLAGSCOPE_HOME=$T/home
cd "$T"
printf '[study]\nname = four\nworkloads = tiny tiny2\nrepeat = %d\nbaseline = O2\n[axis opt]\nO2 = -O2\nO1 = -O1\nO0 = -O0\nO3 = -O3\n' "$repeat" >four.study
"$bin" run four.study --build-only --db warm.db -q >/dev/null
t0=$(date +%s.%N)
"$bin" run four.study --db whole.db -q >/dev/null
t1=$(date +%s.%N)
slurm_start
t2=$(date +%s.%N)
"$bin" slurm four.study --shards 4 --dir "$T/jobs" --db "$T/sharded.db" --submit >/dev/null
slurm_wait 1200
t3=$(date +%s.%N)
awk -v a="$(echo "$t1 - $t0" | awk '{print $1 - $3}')" -v b="$(echo "$t3 - $t2" | awk '{print $1 - $3}')" \
	-v c="$(nproc)" -v r="$repeat" 'BEGIN {
	printf "slurm: 4 configurations x 2 workloads, %d repetitions, builds cached, %d CPUs\n", r, c
	printf "  unsharded run                 %7.1f s\n", a
	printf "  4 shards + merge through Slurm %6.1f s  ratio %.2f\n", b, b / a }'
