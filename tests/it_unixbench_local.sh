#!/bin/bash
# it_unixbench_local.sh - the unixbench recipe (workloads/unixbench).
#
# Without the source (always):
#   - the recipe loads: `flagscope run --dry-run` of a gcc -O2/-O3 study
#     shows one unixbench build per configuration
#   - with no way to fetch the pinned commit, `flagscope run --build-only`
#     records unixbench as BUILD_FAILED (the git fetch) per configuration
#     and still builds the study's other workload (the bundled sysbench)
# With FLAGSCOPE_UNIXBENCH_SRC=/path/to/byte-unixbench (the tree that holds
# UnixBench/), through flagscope with a copy of the recipe whose source is
# local:$FLAGSCOPE_UNIXBENCH_SRC, gcc -O2 and -O3, one repetition:
#   - both builds ok (flags verified) and `flagscope verify --expect -O3`
#     passes on the nine -O3 programs: UnixBench's own "-O3 -ffast-math
#     -march=native" did not reach any unit
#   - the run is ok under both (stdout: every test ran, "index: ok (12
#     tests)"), with the 12 test scores and the index stored (> 0)
#   - the stored index is 10 times the geometric mean of score / baseline
#     over the 12 tests, with the baselines of the tree's pgms/index.base
# Expected: PASS with the source; SKIP (exit 77) after the source-free
# checks pass without it.
set -u
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_unixbench_local
count_failures

write_study() { # FILE WORKLOAD...
	local file=$1
	shift
	gcc_study "$file" "$*" O2 O3
}

write_study loads.study unixbench
"$FLAGSCOPE_BIN" run loads.study --dry-run --db loads.db >loads.out 2>loads.err
rc=$?
n=$(grep -c '^  unixbench  *build ' loads.out)
if [ $rc != 0 ] || [ "$n" != 2 ]; then
	fail "dry run: exit $rc, $n unixbench builds shown (want 0 and 2): $(tail -3 loads.err)"
else
	echo "ok: recipe loads, dry run shows a unixbench build under gcc O2 and gcc O3"
fi

write_study offline.study unixbench sysbench
if "$FLAGSCOPE_BIN" run offline.study --build-only --db offline.db -q >offline.out 2>offline.err; then
	summary=$(sql offline.db "select workload || ':' || status || ':' || count(*) from builds
		group by workload, status order by workload, status" | tr '\n' ' ')
	why=$(sql offline.db "select detail from builds where workload = 'unixbench' limit 1")
	if [ "$summary" != "sysbench:ok:2 unixbench:build_failed:2 " ]; then
		fail "builds without the source: $summary(want sysbench:ok:2 unixbench:build_failed:2)"
	elif [[ $why != *git* ]]; then
		fail "unixbench's BUILD_FAILED detail does not name the git fetch: $why"
	else
		echo "ok: without the source unixbench is BUILD_FAILED ($why); sysbench built"
	fi
else
	fail "the study with an unfetchable unixbench did not run: $(tail -3 offline.err)"
fi

local_recipe_or_skip unixbench FLAGSCOPE_UNIXBENCH_SRC UnixBench/Makefile
tree=$FLAGSCOPE_UNIXBENCH_SRC
write_study bench.study unixbench
t0=$(date +%s)
FLAGSCOPE_HOME=$T/home "$FLAGSCOPE_BIN" run bench.study --db bench.db -q >bench.out 2>bench.err ||
	fail "flagscope run with local:$tree: $(tail -5 bench.err)"
echo "flagscope run: $(($(date +%s) - t0)) s for 2 builds and 2 runs"

sql bench.db "select c.label, b.status, b.key, b.seconds, b.detail from builds b join configs c
	on c.study = b.study and c.id = b.config_id order by c.ord" >builds.txt
while IFS='|' read -r label status key secs detail; do
	[ "$status" = ok ] || { fail "build under $label: $status $detail"; continue; }
	echo "ok: build under $label verified (${secs%.*} s)"
	[ "$label" = "gcc O3" ] || continue
	pgms=$FLAGSCOPE_CACHE/builds/$key/out/ub/pgms
	set -- "$pgms"/{dhry2reg,whetstone-double,execl,fstime,pipe,context1,spawn,syscall,looper}
	"$FLAGSCOPE_BIN" verify --expect -O3 "$@" >verify.txt 2>&1 &&
		echo "ok: verify --expect -O3 on the 9 programs" || fail "verify: $(head -20 verify.txt)"
done <builds.txt

sql bench.db "select c.label, r.status, r.detail from runs r join configs c on c.study = r.study
	and c.id = r.config_id where r.rep >= 1" >runs.txt
[ "$(grep -c '|ok|' runs.txt)" = 2 ] && echo "ok: unixbench ran ok under both" || fail "runs: $(cat runs.txt)"

# the stored index against the stored scores and the tree's baselines
python3 - "$tree/UnixBench/pgms/index.base" bench.db <<'P' || failures=$((failures + 1))
import math, sqlite3, sys
names = {"dhrystone2": "dhry2reg", "whetstone": "whetstone-double", "execl": "execl",
         "file_copy_1024": "fstime", "file_copy_256": "fsbuffer", "file_copy_4096": "fsdisk",
         "pipe": "pipe", "context_switch": "context1", "process_creation": "spawn",
         "syscall": "syscall", "shell1": "shell1", "shell8": "shell8"}
base = {}
for line in open(sys.argv[1]):
    f = line.split("#")[0].strip().split("|")
    if len(f) >= 5:
        base[f[0]] = float(f[4])
db = sqlite3.connect(sys.argv[2])
bad = 0
for (cfg,) in db.execute("select distinct config_id from samples where workload = 'unixbench'"):
    got = dict(db.execute("select metric, value from samples where workload = 'unixbench' "
                          "and config_id = ? and rep >= 1", (cfg,)))
    missing = [m for m in list(names) + ["index"] if not got.get(m, 0) > 0]
    if missing:
        print("FAIL: config %s: no positive samples of %s" % (cfg, " ".join(missing)))
        bad += 1
        continue
    want = 10 * math.exp(sum(math.log(got[m] / base[t]) for m, t in names.items()) / len(names))
    if abs(want - got["index"]) > 0.001 * want + 0.01:
        print("FAIL: config %s: index %.3f stored, %.3f from the scores" % (cfg, got["index"], want))
        bad += 1
    else:
        print("ok: config %s: index %.1f = 10 x geometric mean of score/baseline" % (cfg, got["index"]))
sys.exit(1 if bad else 0)
P

finish_counted
