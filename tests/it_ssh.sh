#!/bin/bash
# it_ssh.sh - the ssh runner against real OpenSSH servers on 127.0.0.1
# (Debian's openssh-server, each with its own host key and sshd_config in
# a temporary folder, a generated user key, known_hosts pinned).  Expect:
#  1. every kind of run works through the runner (tests/test_ssh_runner.c
#     basic): outputs, stdin, inputs, exit status, signals, timeouts,
#     scripts with their siblings, perf, copies made once, board facts;
#     hostile arguments, host values and work folders run nothing; a host
#     key that does not match the pinned one is refused
#  2. a new process finds the helper and the files on the board: 0 copies
#  3. a pool of two boards: the board running a program is killed mid-run
#     (every sshd process): the run is retried on the other board and
#     succeeds; the program on the lost board was stopped
#  4. a board that stops answering (sshd frozen with SIGSTOP) mid-run: the
#     run is retried on the other board
#  5. a single board killed mid-run: a fault with every attempt's reason,
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
rm -rf "$T"; mkdir -p "$T" /run/sshd
export FLAGSCOPE_TEST_TMP=$T/tmp FLAGSCOPE_CACHE=$T/cache

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# every process below pid, deepest first
descendants() {
	local c
	for c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		descendants "$c"
		echo "$c"
	done
}

declare -A SSHD_PID SSHD_PORT
# start_sshd NAME [PORT]: an sshd with its own host key under $T/NAME
start_sshd() {
	local name=$1 d=$T/$1 port=${2:-$(free_port)}
	mkdir -p "$d"
	[ -f "$d/host_key" ] || ssh-keygen -q -t ed25519 -N '' -f "$d/host_key"
	cat >"$d/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $d/host_key
PidFile $d/sshd.pid
AuthorizedKeysFile $T/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
MaxSessions 64
MaxStartups 64
EOF
	/usr/sbin/sshd -D -e -f "$d/sshd_config" 2>>"$d/sshd.log" &
	SSHD_PID[$name]=$!
	SSHD_PORT[$name]=$port
	local i
	for i in $(seq 100); do
		grep -q "Server listening" "$d/sshd.log" 2>/dev/null && break
		sleep 0.1
	done
	grep -q "Server listening" "$d/sshd.log" || fail "sshd $name did not start: $(cat "$d/sshd.log")"
	if ! grep -q "^\[127.0.0.1\]:$port " "$T/known_hosts" 2>/dev/null; then
		echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$d/host_key.pub")" >>"$T/known_hosts"
	fi
}

# kill_sshd NAME: the listener and every session it forked (a board gone)
kill_sshd() {
	local pid=${SSHD_PID[$1]:-}
	[ -n "$pid" ] || return 0
	kill -9 $(descendants "$pid") "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	SSHD_PID[$1]=
	# the listener's log says so: the next start waits for its own line
	: >"$T/$1/sshd.log"
}

# signal_sshd SIG NAME: only the sshd processes (not the programs they run)
signal_sshd() {
	local p
	for p in $(descendants "${SSHD_PID[$2]}") "${SSHD_PID[$2]}"; do
		[ "$(cat /proc/"$p"/comm 2>/dev/null)" = sshd ] && kill -"$1" "$p" 2>/dev/null || true
	done
}

cleanup() {
	local n
	for n in "${!SSHD_PID[@]}"; do
		[ -n "${SSHD_PID[$n]}" ] && signal_sshd CONT "$n"
		kill_sshd "$n"
	done
}
trap cleanup EXIT

ssh-keygen -q -t ed25519 -N '' -f "$T/user_key"
cp "$T/user_key.pub" "$T/authorized_keys"
ssh-keygen -q -t ed25519 -N '' -f "$T/other_key"
start_sshd a
start_sshd b
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
start_sshd a "${SSHD_PORT[a]}"
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
