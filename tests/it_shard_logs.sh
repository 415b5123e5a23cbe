#!/bin/bash
# it_shard_logs.sh - the build logs of a study run in shards on nodes that
# each have their own build cache (a cluster's node-local caches), merged
# from a third place.  flagscope slurm --by-package writes the scripts for
# 2 tasks of a study of tiny and tiny2 at O2 and O1; the array script is
# run here once per task, as Slurm would, each with its own
# XDG_CACHE_HOME, then the merge job with a third cache from another
# folder.  Expect:
#  1. each task keeps its builds' logs next to its shard database
#     (JOB/logs/WORKLOAD/LABEL.log, the log of the build in its node's
#     cache; tiny2's test log, tests.log in its build folder as a Debian
#     package's, as LABEL.tests.log) and names that folder in its database
#  2. the merge job finds all four logs though none is in its cache (it
#     read only the cache and counted them missing) and names the folder
#     in the merged database
#  3. merge --logs into yet another folder copies them from the shards'
#     folder
#  4. shards that kept their logs in different folders merge without a
#     conflict (each shard's folder is its own), and every log is found
#  5. report --pivot sweep names a failing test suite's kept test log
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_shard_logs
count_failures

cp -r home/workloads/tiny home/workloads/tiny2
# tiny2's build leaves a test step's log beside its build log, as a
# Debian package's does (tests.log in the build folder, debpkg.h)
sed -i 's/^description = .*/description = the tiny program on a smaller size/; s/^args = tiny 300000/args = tiny 200000/' \
	home/workloads/tiny2/recipe.ini
sed -i 's|^script = |script = echo "PASS: t_$CFLAGS" >../tests.log; |' home/workloads/tiny2/recipe.ini
printf '; expect: every configuration ok\n[study]\nname = sl\nworkloads = tiny tiny2\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\nO1 = -O1\n' >sl.study
# each "node" below gets its own cache: the scripts name none (slurm
# writes a cache setting it finds into them)
unset FLAGSCOPE_CACHE
env -u XDG_CACHE_HOME HOME="$T" "$FLAGSCOPE_BIN" slurm sl.study --shards 2 --by-package --dir "$T/job" --db "$T/merged.db" \
	>slurm.out || fail "slurm: $(cat slurm.out)"
! grep -q CACHE "$T/job/sl.array.sbatch" || fail "the array script sets a cache: $(grep CACHE "$T/job/sl.array.sbatch")"
for i in 0 1; do
	(cd / && SLURM_ARRAY_TASK_ID=$i XDG_CACHE_HOME=$T/node$i sh "$T/job/sl.array.sbatch" >/dev/null 2>&1) ||
		fail "array task $i: $(tail -3 "$T/job/shard-$i.status" 2>&1)"
done
fact() { sql "$1" "select value from facts where key = 'build_logs'"; }

# 1. per task, workload k: the log of each of its builds is its node's
for i in 0 1; do
	w=$([ $i = 0 ] && echo tiny || echo tiny2)
	for l in O2 O1; do
		key=$(sql "$T/job/shard-$i.db" "select b.key from builds b join configs c on c.id = b.config_id where b.workload = '$w' and c.label = '$l'")
		kept=$T/job/logs/$w/$l.log
		if [ ! -f "$kept" ]; then
			fail "task $i kept no log of $w at $l ($kept): $(ls -R "$T/job" | head -20)"
		elif ! cmp -s "$kept" "$T/node$i/flagscope/builds/$key/build.log"; then
			fail "$kept is not the log of build $key in node $i's cache"
		fi
		tests=$T/job/logs/$w/$l.tests.log
		if [ $w = tiny2 ] && ! cmp -s "$tests" "$T/node$i/flagscope/builds/$key/tests.log"; then
			fail "$tests is not the test log of build $key: $(cat "$tests" 2>&1)"
		elif [ $w = tiny ] && [ -e "$tests" ]; then
			fail "$tests kept, but tiny's build made no test log"
		fi
	done
	[ "$(fact "$T/job/shard-$i.db")" = "$T/job/logs" ] ||
		fail "shard $i's database names '$(fact "$T/job/shard-$i.db")' as its log folder"
done
[ "$failures" = 0 ] && ok "1 - each task keeps its builds' logs in the job folder, named in its database"

# 2. the merge job, elsewhere, with a cache of its own (empty)
mkdir -p elsewhere
(cd elsewhere && XDG_CACHE_HOME=$T/node-merge sh "$T/job/sl.merge.sbatch" >merge.out 2>&1) ||
	fail "the merge job: $(cat elsewhere/merge.out)"
grep -qx "$T/job/logs: 4 build logs kept" elsewhere/merge.out ||
	fail "the merge job did not find every log: $(grep logs elsewhere/merge.out)"
[ ! -d "$T/node-merge/flagscope/builds" ] || fail "the merge job's cache has builds: the test is not what it says"
[ "$(fact "$T/merged.db")" = "$T/job/logs" ] || fail "the merged database names '$(fact "$T/merged.db")'"
[ "$failures" = 0 ] && ok "2 - the merge job finds every log in the job folder, none in its own cache"

# 3. into another folder
(cd elsewhere && XDG_CACHE_HOME=$T/node-merge fs merge -q --logs "$T/other" again.db "$T/job/shard-0.db" "$T/job/shard-1.db" >again.out 2>&1) ||
	fail "merge --logs elsewhere: $(cat elsewhere/again.out)"
grep -qx "$T/other: 4 build logs kept" elsewhere/again.out || fail "merge --logs elsewhere: $(cat elsewhere/again.out)"
for w in tiny tiny2; do
	for l in O2 O1; do
		cmp -s "$T/job/logs/$w/$l.log" "$T/other/$w/$l.log" || fail "$T/other/$w/$l.log is not the shard's log"
		[ $w = tiny ] || cmp -s "$T/job/logs/$w/$l.tests.log" "$T/other/$w/$l.tests.log" ||
			fail "$T/other/$w/$l.tests.log is not the shard's test log"
	done
done
[ "$failures" = 0 ] && ok "3 - merge --logs into another folder copies them from the shards' folder"

# 4. two shards, two log folders, two caches
for i in 0 1; do
	XDG_CACHE_HOME=$T/node$i fs run sl.study --shard $i/2 --shard-by package --db s$i.db --logs "$T/logs$i" -q \
		>s$i.out 2>&1 || fail "shard $i: $(tail -3 s$i.out)"
done
(cd elsewhere && XDG_CACHE_HOME=$T/node-merge fs merge --logs "$T/all" two.db "$T/s0.db" "$T/s1.db" >two.out 2>&1) ||
	fail "merging shards with two log folders: exit $?: $(cat elsewhere/two.out)"
grep -q "0 conflicts" elsewhere/two.out || fail "two log folders were a conflict: $(cat elsewhere/two.out)"
grep -qx "$T/all: 4 build logs kept" elsewhere/two.out || fail "two log folders: $(cat elsewhere/two.out)"
[ "$failures" = 0 ] && ok "4 - shards with their own log folders merge without a conflict, every log found"
# 5. the sweep table names a failing test suite's own log: tiny2's O1
# build marked tests_failed in the merged database (only a Debian
# package's test step gives that outcome)
python3 - "$T/merged.db" <<'P'
import sqlite3, sys
d = sqlite3.connect(sys.argv[1])
n = d.execute("update builds set status = 'tests_failed', detail = 'tests failed: t_x' where workload = 'tiny2'"
              " and config_id = (select id from configs where label = 'O1')").rowcount
assert n == 1, n
d.commit()
P
fs report --db "$T/merged.db" --pivot sweep >sweep.txt 2>&1 || fail "report --pivot sweep: $(cat sweep.txt)"
grep -q "log: $T/job/logs/tiny2/O1.tests.log$" sweep.txt || fail "the sweep table does not name the test log: $(cat sweep.txt)"
[ "$failures" = 0 ] && ok "5 - the sweep table names the kept test log of a failing test suite"
finish_counted
