#!/bin/bash
# it_ssh_stop.sh - a stop reaches a run on a board: a study whose [run]
# names a board (an OpenSSH server on 127.0.0.1), its program "nap"
# sleeping 60 s while $T/nap.on exists.  SIGINT to flagscope alone while
# the nap naps on the board.  Expect: flagscope ends within 20 s (it
# waited out the 60 s nap, and the runs after it) with exit 1 and the
# interrupted line; the nap is gone from the board (the helper kills it
# when the connection ends); nothing of the killed run is stored; the
# resumed study completes.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_ssh_stop
if [ ! -x /usr/sbin/sshd ] || [ "$(id -u)" != 0 ]; then
	echo "SKIP: a test sshd needs /usr/sbin/sshd (openssh-server) and root, to log root in"
	exit 77
fi
SSHD_BASE=$T
. "$FLAGSCOPE_SRC/tests/lib_sshd.sh"
trap stop_all_sshd EXIT
sshd_keys
start_sshd a || fail "sshd a"

nap_workload "nap 7.77"
echo 100 >nap.count # no third-run nap
printf '%s\n' "[study]" "name = nap" "workloads = nap" "repeat = 2" "meters = rusage" \
	"[axis opt]" "O2 = -O2" "[run]" "host = root@127.0.0.1:${SSHD_PORT[a]}" \
	"identity = $T/user_key" "known_hosts = $T/known_hosts" "workdir = $T/board" >nap.study
napper() { pgrep -u "$(id -u)" -f "^$T/board/.*/nap 7\.77\$" || true; }

touch nap.on
setsid "$FLAGSCOPE_BIN" run nap.study --db nap.db >nap.out 2>&1 &
pid=$!
for i in $(seq 600); do [ -n "$(napper)" ] && break; sleep 0.05; done
[ -n "$(napper)" ] || fail "the nap never ran on the board: $(cat nap.out)"
kill -INT "$pid"
for i in $(seq 400); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$pid" 2>/dev/null; then
	kill -KILL -- "-$pid"
	fail "flagscope still ran 20 s after SIGINT (it waits for the run on the board)"
fi
rc=0
wait "$pid" || rc=$?
[ "$rc" = 1 ] || fail "SIGINT during a board's run: exit $rc, not 1: $(tail -3 nap.out)"
grep -q '^flagscope: interrupted during the runs' nap.out || fail "no interrupted line: $(tail -3 nap.out)"
for i in $(seq 100); do [ -z "$(napper)" ] && break; sleep 0.05; done
[ -z "$(napper)" ] || fail "the nap still runs on the board 5 s after flagscope ended"
[ "$(sql nap.db 'select count(*) from runs')" = 0 ] ||
	fail "the killed run was stored: $(sql nap.db 'select rep, status, detail from runs')"
echo "ok - SIGINT during a run on a board: flagscope ends at once, exit 1, the nap gone, nothing stored"
rm -f nap.on
fs run nap.study --db nap.db -q >nap2.out 2>&1 || fail "resume: $(cat nap2.out)"
[ "$(sql nap.db "select count(*) || ' ' || sum(status = 'ok') from runs")" = "3 3" ] ||
	fail "resume: $(sql nap.db 'select rep, status, detail from runs')"
echo "ok - the resumed study completes"
echo PASS
rm -rf "$T"
