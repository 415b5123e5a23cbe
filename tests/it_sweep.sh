#!/bin/bash
# it_sweep.sh - a package sweep end to end without Slurm (issue 30): three
# tiny workloads x O2 (baseline), O3, unroll (-O2 -funroll-loops), where
# tiny2 prints a wrong sum under -O3 and tiny3's build fails under
# -funroll-loops ("tiny3.c:1:2: error: needs IEEE NaNs", then a second line).
# Expect:
#  1. flagscope slurm --by-package --shards 2: the array runs
#     --shard-by package and lists task 0: tiny tiny3, task 1: tiny2; each
#     task (run here by sh) builds whole packages: shard-0.db holds every
#     configuration of tiny and tiny3 and nothing of tiny2;
#  2. the merge job merges them (complete) and finds every build's log in
#     job/logs/WORKLOAD/LABEL.log, where the tasks kept them;
#  3. report --pivot sweep: tiny3 unroll "build failed" with the first
#     error line only and its log's path, tiny2 O3 wrong_output, the
#     per-configuration summary, and the same cells in csv and json;
#  4. recommend --format package.env: env/no-unroll-loops.conf names tiny3
#     (-fno-unroll-loops) with its package.env line (gentoo = app-misc/tiny3),
#     env/no-O3.conf names tiny2; --format dpkg-buildflags: no-unroll-loops.mk
#     strips -funroll-loops.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_sweep
count_failures
tiny_copy tiny2 "tiny, wrong under -O3" 'case "$CFLAGS" in *-O3*) CFLAGS="$CFLAGS -DPLANT_WRONG";; esac; '
tiny_copy tiny3 "tiny, no build under -funroll-loops" \
	'case "$CFLAGS" in *unroll*) echo "tiny3.c:1:2: error: needs IEEE NaNs" >\&2; echo "make: *** [all] Error 1" >\&2; exit 1;; esac; '
sed -i 's/^source = bundled/source = bundled\ngentoo = app-misc\/tiny3/' home/workloads/tiny3/recipe.ini
cat >sweep.study <<'S'
; expect: tiny2 wrong_output at O3, tiny3 build_failed at unroll, the rest ok
[study]
name = sweep
workloads = tiny tiny2 tiny3
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
O3 = -O3
unroll = -O2 -funroll-loops
S

# 1
fs slurm sweep.study --shards 2 --by-package --dir job --db merged.db >slurm.out 2>&1 ||
	fail "slurm --by-package: $(cat slurm.out)"
grep -q -- '--shard "$i/2" --shard-by package' job/sweep.array.sbatch ||
	fail "the array does not shard by package: $(grep run job/sweep.array.sbatch)"
grep -q '^# task 0: tiny tiny3$' job/sweep.array.sbatch && grep -q '^# task 1: tiny2$' job/sweep.array.sbatch ||
	fail "task lists: $(grep '^# task' job/sweep.array.sbatch)"
for i in 0 1; do
	SLURM_ARRAY_TASK_ID=$i sh job/sweep.array.sbatch >task$i.out 2>&1 || true
	[ "$(cat job/shard-$i.status 2>/dev/null)" = 0 ] || fail "task $i: $(tail -3 task$i.out)"
done
got=$(sql job/shard-0.db "select workload || ':' || count(*) from builds group by workload order by workload" | tr '\n' ' ')
[ "$got" = "tiny:3 tiny3:3 " ] || fail "shard 0 holds whole packages tiny, tiny3: $got"
[ -z "$(sql job/shard-0.db "select 1 from runs where workload = 'tiny2'")" ] || fail "shard 0 ran tiny2"
[ "$(sql job/shard-1.db "select count(*) from builds where workload = 'tiny2'")" = 3 ] ||
	fail "shard 1: $(sql job/shard-1.db "select workload, config_id from builds")"
echo "ok 1 - slurm --by-package: each task builds whole packages"

# 2
sh job/sweep.merge.sbatch >merge.out 2>&1 || fail "merge job: $(cat merge.out)"
grep -q "logs: 9 build logs kept" merge.out || fail "merge --logs: $(cat merge.out)"
grep -q "needs IEEE NaNs" job/logs/tiny3/unroll.log 2>/dev/null ||
	fail "tiny3's log: $(ls -R job/logs 2>&1 | head)"
[ -f job/logs/tiny2/O3.log ] || fail "tiny2's O3 log missing"
echo "ok 2 - the merge job merges the shards and keeps every build's log"

# 3
fs report --db merged.db --pivot sweep >sweep.txt 2>&1 || fail "report --pivot sweep: $(cat sweep.txt)"
out_has '^tiny3 .*ok .*ok .*build failed' cat sweep.txt || fail "tiny3's row: $(cat sweep.txt)"
out_has '^tiny2 .*ok .*wrong_output .*ok' cat sweep.txt || fail "tiny2's row: $(cat sweep.txt)"
out_has '^  tiny3, unroll: build failed: tiny3.c:1:2: error: needs IEEE NaNs' cat sweep.txt || fail "first error line: $(cat sweep.txt)"
! grep -q 'Error 1' sweep.txt || fail "more than the first error line: $(cat sweep.txt)"
out_has "^    log: $T/job/logs/tiny3/unroll.log$" cat sweep.txt || fail "the log's path: $(cat sweep.txt)"
out_has '^  unroll: 2 built, 0 passed tests, 0 failed tests, 1 failed to build$' cat sweep.txt ||
	fail "summary: $(cat sweep.txt)"
fs report --db merged.db --pivot sweep --format csv >sweep.csv 2>&1 || fail "csv: $(cat sweep.csv)"
out_has '^"sweep","tiny3","unroll","O2","-O2 -funroll-loops","build_failed","tiny3.c:1:2: error: needs IEEE NaNs' cat sweep.csv ||
	fail "csv cell: $(cat sweep.csv)"
fs report --db merged.db --pivot sweep --format json >sweep.json 2>&1 || fail "json: $(cat sweep.json)"
python3 - <<'P' || fail "json cells: $(cat sweep.json)"
import json
d = json.load(open("sweep.json"))
cells = {(r["workload"], c["config"]): c for r in d["rows"] for c in r["cells"]}
assert cells["tiny3", "unroll"]["result"] == "build_failed", cells["tiny3", "unroll"]
assert cells["tiny3", "unroll"]["log"].endswith("/job/logs/tiny3/unroll.log")
assert cells["tiny2", "O3"]["result"] == "wrong_output"
assert cells["tiny", "O3"]["result"] == "ok" and cells["tiny", "O3"]["ran"]
summ = {c["config"]: c["summary"] for c in d["configs"]}
assert summ["unroll"]["build_failed"] == 1 and summ["unroll"]["built"] == 2, summ
P
echo "ok 3 - report --pivot sweep: the cells, the first error line, the log, the summary, csv and json"

# 4
fs recommend --db merged.db --format package.env -o gentoo >rec.out 2>&1 || fail "recommend: $(cat rec.out)"
grep -q '^#   tiny3: build_failed: tiny3.c:1:2: error: needs IEEE NaNs' gentoo/env/no-unroll-loops.conf 2>/dev/null &&
	grep -q '^CFLAGS="${CFLAGS} -fno-unroll-loops"$' gentoo/env/no-unroll-loops.conf ||
	fail "env/no-unroll-loops.conf: $(cat gentoo/env/no-unroll-loops.conf 2>&1)"
grep -q '^#app-misc/tiny3 no-unroll-loops.conf$' gentoo/package.env || fail "package.env: $(cat gentoo/package.env)"
grep -q '^#   tiny2: wrong_output' gentoo/env/no-O3.conf 2>/dev/null || fail "env/no-O3.conf: $(ls gentoo/env)"
fs recommend --db merged.db --format dpkg-buildflags -o deb >rec2.out 2>&1 || fail "dpkg: $(cat rec2.out)"
grep -q '^export DEB_CFLAGS_MAINT_STRIP += -funroll-loops$' deb/no-unroll-loops.mk 2>/dev/null ||
	fail "no-unroll-loops.mk: $(ls deb; cat deb/no-unroll-loops.mk 2>&1)"
echo "ok 4 - recommend names the broken packages' env files and debian/rules lines"
finish_counted
