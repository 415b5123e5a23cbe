#!/bin/bash
# it_interrupt.sh - Ctrl-C and SIGTERM in the middle of a study lose nothing
# and record nothing that did not happen.  A workload "slow" whose build
# sleeps (a `sleep 7.31` no other program runs) beside tiny; two
# configurations, one build at a time (--jobs 1: O2 tiny, O2 slow, O1 tiny,
# O1 slow).  Expect:
#  1. SIGTERM to flagscope alone (a batch system's stop) while O2's slow
#     build sleeps: exit 1 and "interrupted"; the build in flight is
#     stopped with its whole process tree, no later build starts (no O1
#     row in builds), and no build is stored as failed
#  2. SIGINT to flagscope's process group (a terminal's Ctrl-C reaches the
#     builds too): the same; the killed build is not stored as
#     build_failed (it was stored, "(empty build log)", and the report
#     said the baseline failed to build)
#  3. the resumed study builds the rest and runs every (configuration,
#     workload, run, repetition) exactly once, all ok
#  4. SIGINT during the runs: exit 1, the runs stored are kept, the resumed
#     study completes with no duplicates
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_interrupt

mkdir -p home/workloads/slow
cp home/workloads/tiny/*.c home/workloads/slow/
sed 's/^description = .*/description = tiny with a build that sleeps 7.31 s/; s|^script = |script = sleep 7.31; |' \
	home/workloads/tiny/recipe.ini >home/workloads/slow/recipe.ini
cat >int.study <<'S'
; expect: every configuration ok on both workloads once resumed
[study]
name = int
workloads = tiny slow
repeat = 3
baseline = O2
[axis opt]
O2 = -O2 -DPLANT_SLOW
O1 = -O1 -DPLANT_SLOW
S
sleeper() { pgrep -u "$(id -u)" -f '^sleep 7\.31$' || true; }

# interrupt_build SIGNAL TARGET: the study in its own session, SIGNAL sent
# to flagscope (TARGET "pid") or its process group ("group") once the slow
# build sleeps; checks 1-2
interrupt_build() {
	local sig=$1 target=$2 pid rc=0 i
	rm -f int.db
	rm -rf cache
	setsid "$FLAGSCOPE_BIN" run int.study --db int.db --jobs 1 >int.out 2>&1 &
	pid=$!
	for i in $(seq 200); do [ -n "$(sleeper)" ] && break; sleep 0.05; done
	[ -n "$(sleeper)" ] || fail "$sig: the slow build never started: $(cat int.out)"
	if [ "$target" = group ]; then kill "-$sig" -- "-$pid"; else kill "-$sig" "$pid"; fi
	wait "$pid" || rc=$?
	[ "$rc" = 1 ] || fail "$sig to the $target during a build: exit $rc, not 1: $(cat int.out)"
	grep -q '^flagscope: interrupted' int.out || fail "$sig: no 'interrupted' line: $(cat int.out)"
	[ -z "$(sleeper)" ] || fail "$sig: the interrupted build's sleep is still running"
	local failed later
	failed=$(sql int.db "select workload || ' ' || status || ' ' || detail from builds where status <> 'ok'")
	[ -z "$failed" ] || fail "$sig to the $target: an interrupted build was stored: $failed"
	later=$(sql int.db "select count(*) from builds b join configs c on c.id = b.config_id where c.label = 'O1'")
	[ "$later" = 0 ] || fail "$sig to the $target: $later build(s) of O1 started after the interrupt"
	echo "ok - $sig to the $target during a build: exit 1, the build stopped, nothing more built or stored as failed"
}
interrupt_build TERM pid
interrupt_build INT group

# 3. resume
fs run int.study --db int.db --jobs 1 -q >resume.out 2>&1 || fail "resume: $(cat resume.out)"
[ "$(sql int.db "select count(*) from builds where status = 'ok'")" = 4 ] ||
	fail "resume: builds $(sql int.db 'select workload, status from builds')"
read -r n distinct bad <<<"$(sql int.db "select count(*), count(distinct config_id||workload||run||rep), sum(status <> 'ok') from runs" | tr '|' ' ')"
[ "$n" = 16 ] && [ "$distinct" = 16 ] && [ "$bad" = 0 ] ||
	fail "resume: $n runs, $distinct distinct, $bad not ok (want 16 = 2 x 2 x (1 + 3), all ok)"
echo "ok - the resumed study built the rest and ran everything once"

# 4. SIGINT during the runs (tiny sleeps 0.1 s a run with -DPLANT_SLOW)
sed -i 's/^repeat = 3/repeat = 6/' int.study
rc=0
setsid "$FLAGSCOPE_BIN" run int.study --db int.db --jobs 1 >runs.out 2>&1 &
pid=$!
for i in $(seq 200); do grep -q 'rep 4' runs.out && break; sleep 0.05; done
kill -INT -- "-$pid"
wait "$pid" || rc=$?
[ "$rc" = 1 ] || fail "SIGINT during the runs: exit $rc, not 1: $(tail -3 runs.out)"
kept=$(sql int.db "select count(*) from runs")
[ "$kept" -gt 16 ] || fail "SIGINT during the runs: $kept runs stored (16 before)"
fs run int.study --db int.db --jobs 1 -q >resume2.out 2>&1 || fail "resume 2: $(cat resume2.out)"
read -r n distinct bad <<<"$(sql int.db "select count(*), count(distinct config_id||workload||run||rep), sum(status <> 'ok') from runs" | tr '|' ' ')"
[ "$n" = 28 ] && [ "$distinct" = 28 ] && [ "$bad" = 0 ] ||
	fail "resume 2: $n runs, $distinct distinct, $bad not ok (want 28 = 2 x 2 x (1 + 6), all ok)"
echo "ok - SIGINT during the runs: exit 1, $kept runs kept, the resumed study completed once each"
echo PASS
rm -rf "$T"
