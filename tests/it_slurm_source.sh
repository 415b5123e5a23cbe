#!/bin/bash
# it_slurm_source.sh - `flagscope slurm --source NAME=local:PATH --submit`
# checks PATH before anything is written or submitted (sbatch here is a
# stand-in on PATH that logs its calls and answers job id 42).  Expect:
#  1. a missing folder: exit 2, one line naming the --source and the path,
#     no job folder, sbatch never called (a shard would have failed on
#     every node, after the queue wait)
#  2. a relative path that exists: both jobs submitted, the array's run
#     line carries the absolute path
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_slurm_source
mkdir bin
printf '#!/bin/sh\necho "$*" >>"%s/sbatch.calls"\necho 42\n' "$T" >bin/sbatch
chmod +x bin/sbatch
export PATH=$T/bin:$PATH
printf '[study]\nname = s\nworkloads = tiny\nrepeat = 1\n[axis opt]\nO2 = -O2\n' >s.study

rc=0
fs slurm s.study --shards 2 --submit --dir "$T/j1" --source "tiny=local:$T/nowhere" >j1.out 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a missing --source folder: exit $rc, not 2: $(cat j1.out)"
grep -q "^flagscope: --source 'tiny=local:$T/nowhere': .*no folder $T/nowhere" j1.out ||
	fail "a missing --source folder: $(cat j1.out)"
[ "$(wc -l <j1.out)" = 1 ] || fail "a missing --source folder: more than one line: $(cat j1.out)"
[ ! -e j1 ] || fail "a missing --source folder: the job folder was written: $(ls j1)"
[ ! -e sbatch.calls ] || fail "a missing --source folder: sbatch was called: $(cat sbatch.calls)"
echo "ok - a missing --source folder is refused before anything is written or submitted"

mkdir tinysrc
fs slurm s.study --shards 2 --submit --dir "$T/j2" --source tiny=local:tinysrc >j2.out 2>&1 ||
	fail "an existing --source folder: $(cat j2.out)"
[ "$(grep -c -- --parsable sbatch.calls)" = 2 ] || fail "not both jobs submitted: $(cat sbatch.calls)"
grep -q -- " --source 'tiny=local:$T/tinysrc'" j2/s.array.sbatch ||
	fail "the array's run line: $(grep ' run ' j2/s.array.sbatch)"
echo "ok - an existing relative --source folder: both jobs submitted, the path made absolute"
echo PASS
rm -rf "$T"
