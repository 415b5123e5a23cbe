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
#  5. a run in flight is killed, not waited for: "nap" sleeps 60 s while
#     $T/nap.on exists; SIGINT while its warm-up naps (a plain run), then
#     while a repetition naps (stopped at exit by the memory meter; the
#     third run of the program naps): flagscope ends within 20 s (it waited out the run, and the
#     warm-up's perf-wrapped run after it: 16 s for an 8 s run), the nap is
#     gone, the killed run is not stored; the resumed study completes
#  6. SIGHUP (the terminal went away) stops it as SIGTERM does (it killed
#     flagscope outright, exit 129, the build left running)
#  7. a stopped study prints one line, what it stopped and how to resume,
#     as its last, and no ranking (it ranked the half-measured study)
#  8. no input script starts after a stop, and the one in flight is
#     killed: SIGTERM to flagscope alone while workload ina's input script
#     sleeps (it waited the sleep out, then ran inb's input script too)
#  9. run --help says what the three signals do
# 10. a profile-guided build's training run is stopped too: SIGTERM to
#     flagscope alone while the training run of nap (napgo, pgo gen-use)
#     naps: exit 1 within 20 s (it waited out the 60 s nap, then built),
#     the nap gone, no build stored; the resumed study builds and runs it
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_interrupt

tiny_copy slow "tiny with a build that sleeps 7.31 s" "sleep 7.31; "
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
# the build's sleep in the session of flagscope $pid (setsid made it; other
# tests on this machine may sleep 7.31 s too)
sleeper() { pgrep -s "$pid" -f '^sleep 7\.31$' || true; }

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
	tail -1 int.out | grep -q '^flagscope: interrupted during the builds.*run the same command again to resume' ||
		fail "$sig: the last line is not the interrupt line: $(tail -3 int.out)"
	echo "ok - $sig to the $target during a build: exit 1, the build stopped, nothing more built or stored as failed"
}
interrupt_build TERM pid
interrupt_build HUP pid
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
tail -1 runs.out | grep -q '^flagscope: interrupted during the runs ([0-9]* of [0-9]* done).*run the same command again to resume' ||
	fail "SIGINT during the runs: the last line is not the interrupt line: $(tail -3 runs.out)"
! grep -q -E '^rank |^study int:' runs.out || fail "SIGINT during the runs: a ranking was printed: $(grep -A3 '^rank ' runs.out)"
fs run int.study --db int.db --jobs 1 -q >resume2.out 2>&1 || fail "resume 2: $(cat resume2.out)"
read -r n distinct bad <<<"$(sql int.db "select count(*), count(distinct config_id||workload||run||rep), sum(status <> 'ok') from runs" | tr '|' ' ')"
[ "$n" = 28 ] && [ "$distinct" = 28 ] && [ "$bad" = 0 ] ||
	fail "resume 2: $n runs, $distinct distinct, $bad not ok (want 28 = 2 x 2 x (1 + 6), all ok)"
echo "ok - SIGINT during the runs: exit 1, $kept runs kept, the resumed study completed once each"

# 5. the run in flight
nap_workload nap
printf '[study]\nname = nap\nworkloads = nap\nrepeat = 3\nmeters = rusage perf memory\n[axis opt]\nO2 = -O2\n' >nap.study
napper() { pgrep -u "$(id -u)" -f "^$T/cache/builds/.*/nap\$" || true; }
# interrupt_run WHAT STUDY SIG TARGET FINDER: STUDY.study into STUDY.db in
# a session of its own, SIG to flagscope (TARGET "pid") or its group
# ("group") once FINDER finds the napping program: flagscope ends within
# 20 s with exit 1, and the program is gone
interrupt_run() {
	local what=$1 study=$2 sig=$3 target=$4 finder=$5 pid rc=0 i
	setsid "$FLAGSCOPE_BIN" run "$study.study" --db "$study.db" >"$study.out" 2>&1 &
	pid=$!
	for i in $(seq 400); do [ -n "$($finder)" ] && break; sleep 0.05; done
	[ -n "$($finder)" ] || fail "$what: the nap never ran: $(cat "$study.out")"
	if [ "$target" = group ]; then kill "-$sig" -- "-$pid"; else kill "-$sig" "$pid"; fi
	for i in $(seq 400); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL -- "-$pid"
		fail "$what: flagscope still ran 20 s after SIG$sig (it waits for the run in flight)"
	fi
	wait "$pid" || rc=$?
	[ "$rc" = 1 ] || fail "$what: exit $rc, not 1: $(tail -3 "$study.out")"
	[ -z "$($finder)" ] || fail "$what: the nap still runs after flagscope ended"
}
touch nap.on
interrupt_run "SIGINT during the warm-up" nap INT group napper
[ "$(sql nap.db 'select count(*) from runs')" = 0 ] ||
	fail "the interrupted warm-up was stored: $(sql nap.db 'select rep, status, detail from runs')"
rm -f nap.on
echo 0 >nap.count # the warm-up, its perf-wrapped run (where perf runs), then a repetition naps
interrupt_run "SIGINT during a repetition" nap INT group napper
# every stored run was said ok, and the napping one is neither
said=$(grep -c -E 'warm-up: ok|rep [0-9]+: ok' nap.out || true)
[ "$(sql nap.db "select count(*) || ' ' || sum(status = 'ok') from runs")" = "$said $said" ] && [ "$said" -lt 4 ] ||
	fail "the interrupted repetition was stored: $(sql nap.db 'select rep, status, detail from runs'); said: $(grep -E ': ok' nap.out)"
rm -f nap.on
fs run nap.study --db nap.db -q >nap2.out 2>&1 || fail "resume nap: $(cat nap2.out)"
[ "$(sql nap.db "select count(*), count(distinct rep), sum(status <> 'ok') from runs")" = "4|4|0" ] ||
	fail "resume nap: $(sql nap.db 'select rep, status from runs')"
echo "ok - SIGINT kills the run in flight (a plain warm-up, a traced repetition): nothing of it stored, the resume completes"

# 8. input scripts: ina's sleeps (a `sleep 6.29` nothing else runs), inb's
# leaves a mark
for w in ina inb; do
	tiny_copy $w "tiny with an input script" ""
	printf '\n[input]\nscript = %s\n' "$([ $w = ina ] && echo 'sleep 6.29; touch a' || echo "touch $T/inb.ran")" \
		>>home/workloads/$w/recipe.ini
done
printf '[study]\nname = inputs\nworkloads = ina inb\nrepeat = 2\n[axis opt]\nO2 = -O2\n' >in.study
insleeper() { pgrep -s "$pid" -f '^sleep 6\.29$' || true; }
rc=0
setsid "$FLAGSCOPE_BIN" run in.study --db in.db >in.out 2>&1 &
pid=$!
for i in $(seq 400); do [ -n "$(insleeper)" ] && break; sleep 0.05; done
[ -n "$(insleeper)" ] || fail "ina's input script never ran: $(cat in.out)"
kill -TERM "$pid"
wait "$pid" || rc=$?
[ "$rc" = 1 ] || fail "SIGTERM during an input script: exit $rc, not 1: $(tail -3 in.out)"
[ -z "$(insleeper)" ] || fail "SIGTERM: ina's input script still runs after flagscope ended"
[ ! -e inb.ran ] || fail "SIGTERM during ina's input script: inb's input script ran after the stop"
[ "$(sql in.db 'select count(*) from runs')" = 0 ] ||
	fail "SIGTERM during an input script: runs stored: $(sql in.db 'select workload, status, detail from runs')"
fs run in.study --db in.db -q >in2.out 2>&1 || fail "resume inputs: $(cat in2.out)"
[ -e inb.ran ] && [ "$(sql in.db "select count(*) || ' ' || sum(status = 'ok') from runs")" = "6 6" ] ||
	fail "resume inputs: $(sql in.db 'select workload, rep, status, detail from runs')"
echo "ok - SIGTERM during an input script: it is killed, no other input script starts, the resume makes them"

# 10. a training run
mkdir -p home/workloads/napgo
cp home/workloads/nap/nap.c home/workloads/napgo/
sed 's/^description = .*/description = nap with a training run that naps too/' home/workloads/nap/recipe.ini \
	>home/workloads/napgo/recipe.ini
printf '\n[train]\nargs = nap train\ntimeout = 120\n' >>home/workloads/napgo/recipe.ini
printf '[study]\nname = napgo\nworkloads = napgo\nrepeat = 1\nmeters = rusage\n[axis pgo]\ngen-use =\n' >napgo.study
trainer() { pgrep -u "$(id -u)" -f "^$T/cache/builds/.*/nap train\$" || true; }
echo 100 >nap.count
touch nap.on
interrupt_run "SIGTERM during a training run" napgo TERM pid trainer
[ "$(sql napgo.db 'select count(*) from builds')" = 0 ] ||
	fail "SIGTERM during a training run: builds stored: $(sql napgo.db 'select status, detail from builds')"
rm -f nap.on
fs run napgo.study --db napgo.db -q >napgo2.out 2>&1 || fail "resume napgo: $(cat napgo2.out)"
[ "$(sql napgo.db "select status || ' ' || count(*) from runs group by status")" = "ok 2" ] ||
	fail "resume napgo: $(sql napgo.db 'select rep, status, detail from runs')"
echo "ok - SIGTERM during a training run: killed at once, nothing stored, the resume trains and runs it"

# 9. the help
help=$(fs run --help)
for s in SIGINT SIGTERM SIGHUP resume; do
	grep -q "$s" <<<"$help" || fail "run --help does not mention $s"
done
echo "ok - run --help says what SIGINT, SIGTERM and SIGHUP do"
echo PASS
rm -rf "$T"
