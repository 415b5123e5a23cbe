#!/bin/bash
# it_kill_resume.sh - a flagscope run killed outright (kill -9: a node
# lost, a batch system's hard stop, the OOM killer) in the middle of a
# build.  Workloads "quick" and "slow" (tiny with a build that records
# that it started in $T/started, and for slow then sleeps 300.37 s while
# $T/slow.on exists); configurations O2 and O1, one build at a time (O2
# quick, O2 slow, O1 quick, O1 slow).  Expect:
#  1. once flagscope is SIGKILLed while O2's slow build sleeps, no process
#     of its builds survives it (the sleep ran on, 300 s, holding the
#     build's lock)
#  2. no build lock is left held: another flagscope can take every one at
#     once (the orphaned script held O2 slow's, and a resume waited for it)
#  3. the half-made build is not counted as done (no status in its folder)
#  4. the same command again resumes at the build it was in: O2 quick is
#     not built again, O2 slow is the first build started, every build
#     and run is ok and each run is stored once
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_kill_resume
count_failures

# (the recipe's folder is $T/home/workloads/NAME: a line holds no long $T)
tiny_copy quick "tiny, its build says it started" "echo \"quick \$CFLAGS\" >>\"\$RECIPE/../../../started\"; "
tiny_copy slow "tiny with a build that sleeps while slow.on exists" \
	"echo \"slow \$CFLAGS\" >>\"\$RECIPE/../../../started\"; if [ -e \"\$RECIPE/../../../slow.on\" ]; then sleep 300.37; fi; "
cat >k.study <<'S'
; expect: every configuration ok on both workloads once resumed
[study]
name = k
workloads = quick slow
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
S
# started WORKLOAD LEVEL: how many builds of WORKLOAD at -LEVEL started
started() { grep -c "^$1 -$2 " started || true; }

touch slow.on
setsid "$FLAGSCOPE_BIN" run k.study --db k.db --jobs 1 -q >k1.out 2>&1 &
pid=$!
for ((i = 0; i < 600; i++)); do
	pgrep -s "$pid" -f '^sleep 300\.37$' >/dev/null || ! kill -0 "$pid" 2>/dev/null && break
	sleep 0.1
done
pgrep -s "$pid" -f '^sleep 300\.37$' >/dev/null || fail "the slow build never started: $(cat k1.out)"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true

# 1. every process of flagscope's session (its builds' groups are in it)
left=
for ((i = 0; i < 100; i++)); do
	left=$(pgrep -s "$pid" || true)
	[ -z "$left" ] && break
	sleep 0.1
done
if [ -n "$left" ]; then
	fail "the build outlived a SIGKILLed flagscope by 10 s: $(ps -o pid=,args= -p "$(tr '\n' , <<<"$left" | sed 's/,$//')")"
fi
[ "$failures" = 0 ] && ok "1 - the build in flight dies with a SIGKILLed flagscope"

# 2. the locks (taken as build.c takes them: flock on <key>.lock)
n=0
for lock in cache/builds/*.lock; do
	[ -e "$lock" ] || continue
	n=$((n + 1))
	flock -n -x "$lock" true || fail "$lock is still held after flagscope was killed"
done
[ "$n" -ge 2 ] || fail "$n build locks found (want the two builds started)"
[ -z "$left" ] || kill -9 $left 2>/dev/null || true # after the look at the locks they held
[ "$failures" = 0 ] && ok "2 - no build lock outlives the killed flagscope ($n locks free)"

# 3. the killed build's folder: the build whose log names its sleep
slowdir=$(grep -l 'sleep' cache/builds/*/build.log 2>/dev/null | head -1 || true)
[ -z "$slowdir" ] || [ ! -e "$(dirname "$slowdir")/status" ] ||
	fail "the killed build has a status: $(cat "$(dirname "$slowdir")/status")"
[ "$(started quick O2)|$(started slow O2)|$(started quick O1)" = "1|1|0" ] ||
	fail "before the kill: builds started: $(cat started)"
[ "$failures" = 0 ] && ok "3 - the killed build is not counted as done"

# 4. resume
rm -f slow.on
: >started
fs run k.study --db k.db --jobs 1 -q >k2.out 2>&1 || fail "the resume failed: $(tail -3 k2.out)"
head -1 started | grep -q '^slow -O2 ' ||
	fail "the resume did not start with O2's slow build: $(cat started)"
[ "$(started quick O2)|$(started slow O2)|$(started quick O1)|$(started slow O1)" = "0|1|1|1" ] ||
	fail "the resume built (quick O2, slow O2, quick O1, slow O1): $(cat started)"
[ "$(sql k.db "select count(*) || ' ' || sum(status = 'ok') from builds")" = "4 4" ] ||
	fail "builds: $(sql k.db 'select workload, config_id, status, detail from builds')"
[ "$(sql k.db "select count(*) || ' ' || count(distinct config_id||workload||run||rep) || ' ' || sum(status = 'ok') from runs")" = "12 12 12" ] ||
	fail "runs (want 12 = 2 x 2 x (1 + 2), once each, ok): $(sql k.db 'select config_id, workload, rep, status from runs')"
[ "$failures" = 0 ] && ok "4 - the resume starts at the killed build, keeps the finished one, completes"
finish_counted
