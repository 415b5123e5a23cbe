#!/bin/bash
# it_cache_race.sh - two flagscope runs of one study on one build cache at
# once (two shells, two databases) build each key once.  The workload
# "slowb" is tiny whose build script logs a line to $T/builds.log and
# sleeps 2 s, so the two runs' builds overlap.  Expect:
#  1. both runs exit 0 and store every build ok, every run ok
#  2. each build key was built once (two lines in builds.log for two
#     configurations): the second run waited for the first one's lock and
#     reused its build (it used to take the lock as soon as the first
#     build's script ended, before that build was verified and marked
#     done, and build the key again in the same folder)
#  3. the second run stored the builds as cached
#  4. a flagscope killed (SIGKILL) while it builds takes the build's
#     script with it (it left it running in its own group, and a run
#     started then waited for that script), so the run started then
#     builds the key again at once: never two scripts of one key at once
#     (orphan.log: the killed build's start, then the new build's start
#     and end)
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_cache_race

tiny_copy slowb "tiny with a build that logs itself and sleeps 2 s" "echo \"\$CFLAGS\" >>$T/builds.log; sleep 2; "
printf '[study]\nname = race\nworkloads = slowb\nrepeat = 2\nbaseline = O2\n[axis opt]\nO2 = -O2\nO1 = -O1\n' >race.study

fs run race.study --db a.db -q >a.out 2>&1 &
a=$!
for i in $(seq 200); do [ -s builds.log ] && break; sleep 0.05; done
fs run race.study --db b.db -q >b.out 2>&1 &
b=$!
rc_a=0 rc_b=0
wait "$a" || rc_a=$?
wait "$b" || rc_b=$?
[ "$rc_a" = 0 ] || fail "first run: exit $rc_a: $(tail -3 a.out)"
[ "$rc_b" = 0 ] || fail "second run: exit $rc_b: $(tail -3 b.out)"
for db in a.db b.db; do
	[ "$(sql $db "select count(*) || ' ' || sum(status = 'ok') from builds")" = "2 2" ] ||
		fail "$db builds: $(sql $db 'select config_id, status, detail from builds')"
	[ "$(sql $db "select count(*) || ' ' || sum(status = 'ok') from runs")" = "6 6" ] ||
		fail "$db runs: $(sql $db 'select config_id, rep, status, detail from runs')"
done
echo "ok - both runs at once: exit 0, every build and run ok"
[ "$(wc -l <builds.log)" = 2 ] || fail "each key built once: builds.log has $(wc -l <builds.log) lines: $(cat builds.log)"
echo "ok - each build key was built once"
[ "$(sql b.db "select sum(cached) from builds")" = 2 ] ||
	fail "the second run's builds not cached: $(sql b.db 'select config_id, cached, seconds from builds')"
echo "ok - the second run reused the first one's builds"
# 4. a killed flagscope's build still running
log='"$RECIPE/../../../orphan.log"' # $T/orphan.log, in fewer characters
tiny_copy orphan "tiny whose build logs its start and end" "echo start >>$log; sleep 2.17; echo end >>$log; "
printf '[study]\nname = orphan\nworkloads = orphan\nrepeat = 1\n[axis opt]\nO2 = -O2\n' >orphan.study
setsid "$FLAGSCOPE_BIN" run orphan.study --db k.db -q >k.out 2>&1 &
k=$!
for i in $(seq 200); do [ -s orphan.log ] && break; sleep 0.05; done
[ -s orphan.log ] || fail "the orphan build never started: $(cat k.out)"
kill -KILL "$k"
wait "$k" 2>/dev/null || true
for i in $(seq 100); do pgrep -s "$k" -f '^sleep 2\.17$' >/dev/null || break; sleep 0.1; done
! pgrep -s "$k" -f '^sleep 2\.17$' >/dev/null || fail "the killed flagscope's build still runs"
fs run orphan.study --db c.db -q >c.out 2>&1 || fail "the run after the kill: $(tail -3 c.out)"
[ "$(tr '\n' ' ' <orphan.log)" = "start start end " ] ||
	fail "after a kill (want the killed build's start, then one whole build): $(tr '\n' ' ' <orphan.log)"
echo "ok - a killed flagscope's build dies with it; the next run builds the key once, alone"
echo PASS
rm -rf "$T"
