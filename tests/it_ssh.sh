#!/bin/bash
# it_ssh.sh - the ssh runner against real OpenSSH servers on 127.0.0.1
# (Debian's openssh-server, each with its own host key and sshd_config in
# a temporary folder, a generated user key, known_hosts pinned).  Expect:
#  1. every kind of run works through the runner (tests/test_ssh_runner.c
#     basic): outputs, stdin, inputs, exit status, signals, timeouts,
#     scripts with their siblings, perf, copies made once, board facts;
#     hostile arguments, host values and work folders run nothing; a host
#     key that does not match the pinned one is refused
#  2. a new process finds the helper and the files on the board: 0 copies;
#     the options (test_ssh_runner options): per_board 1 runs two threads'
#     runs one after the other, per_board 2 both at once; hostile
#     helper_cc words run nothing; the described CPU is in the facts
#  3. a pool of two boards: the board running a program is killed mid-run
#     (every sshd process): the run is retried on the other board and
#     succeeds; the program on the lost board was stopped
#  4. a board that stops answering (sshd frozen with SIGSTOP) mid-run: the
#     run is retried on the other board
#  5. a single board killed mid-run: a board fault (RUNNER_SSH_FAULT, not
#     the -1 of a program that cannot start) with every attempt's reason,
#     no crash
# The marker file that hostile values try to create never exists.  Every
# sshd started here is stopped at the end.
set -euo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
T=$FLAGSCOPE_TEST_TMP/it_ssh
DRIVER=$(dirname "$FLAGSCOPE_BIN")/tests/test_ssh_runner
[ -x /usr/sbin/sshd ] || { echo "SKIP: no /usr/sbin/sshd (apt-get install openssh-server)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: the test sshd must run as root to log root in"; exit 77; }
[ -x "$DRIVER" ] || { echo "SKIP: $DRIVER is not built"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$T"; mkdir -p "$T"
export FLAGSCOPE_TEST_TMP=$T/tmp FLAGSCOPE_CACHE=$T/cache

SSHD_BASE=$T
. "$FLAGSCOPE_SRC/tests/lib_sshd.sh"
trap stop_all_sshd EXIT

sshd_keys
ssh-keygen -q -t ed25519 -N '' -f "$T/other_key"
start_sshd a || fail "sshd a"
start_sshd b || fail "sshd b"
echo "[127.0.0.1]:${SSHD_PORT[a]} $(cut -d' ' -f1,2 "$T/other_key.pub")" >"$T/bad_known"
A=root@127.0.0.1:${SSHD_PORT[a]}
B=root@127.0.0.1:${SSHD_PORT[b]}
export FS_SSH_IDENTITY=$T/user_key FS_SSH_KNOWN_HOSTS=$T/known_hosts FS_SSH_BAD_KNOWN=$T/bad_known
export FS_SSH_WORKDIR=$T/board FS_SSH_MARKER=$T/MARKER

# 1, 2
FS_SSH_HOST=$A "$DRIVER" basic || fail "runs through the ssh runner"
[ -e "$T/MARKER" ] && fail "a hostile value ran a command"
echo "ok 1 - runs, outputs, copies once, hostile values, pinned host key"
FS_SSH_HOST=$A "$DRIVER" again || fail "a new process copied again"
echo "ok 2 - a new process finds everything on the board"
FS_SSH_HOST=$A "$DRIVER" options || fail "per_board, helper_cc, cpu"
[ -e "$T/MARKER" ] && fail "a hostile helper_cc ran a command"
echo "ok 2b - per_board, helper_cc, the described CPU"

# slow_run HOSTS: a run of 6 s in the background; waits until it started
slow_run() {
	rm -f "$T/started" "$T/finished"
	FS_SSH_HOST=$1 "$DRIVER" slow "$T/started" "$T/finished" >"$T/slow.out" 2>"$T/slow.err" &
	SLOW=$!
	local i
	for i in $(seq 300); do
		[ -s "$T/started" ] && return 0
		sleep 0.1
	done
	fail "the slow run did not start: $(cat "$T/slow.err")"
}
lines() { [ -f "$1" ] && wc -l <"$1" || echo 0; }

# 3. killed mid-run in a pool
slow_run "$A $B"
kill_sshd a
wait "$SLOW" || fail "the driver crashed: $(cat "$T/slow.err")"
grep -qx "ok $B" "$T/slow.out" || fail "not retried on the other board: $(cat "$T/slow.out" "$T/slow.err")"
[ "$(lines "$T/started")" = 2 ] || fail "the run started $(lines "$T/started") times, not twice"
[ "$(lines "$T/finished")" = 1 ] || fail "the program on the lost board went on running"
echo "ok 3 - a board killed mid-run: retried on the other board, the lost run stopped"

# 4. a board that stops answering (ssh notices after 3 x 5 s)
start_sshd a "${SSHD_PORT[a]}" || fail "sshd a again"
slow_run "$A $B"
signal_sshd STOP a
wait "$SLOW" || fail "the driver crashed: $(cat "$T/slow.err")"
signal_sshd CONT a
grep -qx "ok $B" "$T/slow.out" || fail "a frozen board: $(cat "$T/slow.out" "$T/slow.err")"
[ "$(lines "$T/started")" = 2 ] || fail "the run started $(lines "$T/started") times, not twice"
echo "ok 4 - a board that stops answering: retried on the other board"

# 5. the only board killed mid-run: a fault, the reasons, no crash
slow_run "$B"
kill_sshd b
wait "$SLOW" || fail "the driver crashed: $(cat "$T/slow.err")"
grep -q "^fault no board could run it after 3 attempts: $B: " "$T/slow.out" ||
	fail "a lost single board: $(cat "$T/slow.out" "$T/slow.err")"
grep -q "cannot connect" "$T/slow.out" || fail "the retries' reasons are missing: $(cat "$T/slow.out")"
echo "ok 5 - the only board lost: a fault with the reasons"

[ -e "$T/MARKER" ] && fail "a hostile value ran a command"
echo "it_ssh: all passed"
