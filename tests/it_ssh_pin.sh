#!/bin/bash
# it_ssh_pin.sh - pin = CPU-LIST on a board over ssh (an OpenSSH server on
# 127.0.0.1, tests/lib_sshd.sh), on the affinity fixture (each run reads
# its own Cpus_allowed_list).  Expect:
#  1. pin = 0-1: every measured run on the board was allowed CPUs 0 and 1
#     exactly (allowed_n 2, min 0, max 1), the list reaching the board's
#     helper as one -c per CPU;
#  2. pin = 0,1000: the board's helper refuses the run (CPU 1000 is not one
#     it may run on) instead of pinning to fewer CPUs: every run fails at
#     once (run_failed, "cannot start ...: pin: CPU 1000 ..."), not retried
#     as a board fault; nothing ranked, nothing measured.
# About 10 s.
set -euo pipefail
[ -x /usr/sbin/sshd ] || { echo "SKIP: no /usr/sbin/sshd (apt-get install openssh-server)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: the test sshd must run as root to log root in"; exit 77; }
command -v python3 > /dev/null || { echo "SKIP: python3 reads the database"; exit 77; }
python3 -c "import os, sys; sys.exit(0 if {0, 1} <= os.sched_getaffinity(0) else 1)" ||
	{ echo "SKIP: a pin to CPUs 0-1 is told from no pin only when CPUs 0 and 1 are allowed"; exit 77; }
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_ssh_pin
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/affinity" home/workloads/
SSHD_BASE=$T
. "$FLAGSCOPE_SRC/tests/lib_sshd.sh"
trap stop_all_sshd EXIT
sshd_keys
start_sshd a || fail "sshd a"
board() { # NAME PIN
	cat > "$1.study" <<S
; expect: see it_ssh_pin.sh
[study]
workloads = affinity
repeat = 2
baseline = O2
pin = $2
[axis opt]
O2 = -O2
O1 = -O1
[run]
host = root@127.0.0.1:${SSHD_PORT[a]}
identity = $T/user_key
known_hosts = $T/known_hosts
workdir = $T/board
S
}
q() { python3 -c "import sqlite3,sys; print('|'.join(map(str, sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone())))" "$@"; }

board two 0-1
fs run two.study --db two.db -q > two.txt 2> two.err || fail "pin = 0-1 on a board: $(cat two.err)"
got=$(q two.db "select count(*), min(s.value), max(s.value) from samples s where s.metric='allowed_n'")
[ "$got" = "6|2.0|2.0" ] || fail "pin = 0-1: (runs, min, max) of allowed_n $got, want 6|2.0|2.0"
got=$(q two.db "select min(value), max(value) from samples where metric in ('allowed_min', 'allowed_max')")
[ "$got" = "0.0|1.0" ] || fail "pin = 0-1: the CPUs allowed were $got, want 0.0|1.0"
echo "ok 1 - pin = 0-1 on a board: every run allowed CPUs 0 and 1"

board far 0,1000
set +e
fs run far.study --db far.db -q > far.txt 2> far.err; rc=$?
set -e
[ "$rc" = 1 ] || fail "pin = 0,1000 on a board: exit $rc, want 1 (nothing ranked): $(cat far.err)"
got=$(q far.db "select count(*), min(status), max(status) from runs where run <> '@build'")
case $got in *"|run_failed|run_failed") ;; *) fail "pin = 0,1000: runs $got, want run_failed only";; esac
q far.db "select detail from runs where run <> '@build' limit 1" |
	grep -q "pin: CPU 1000 is not one this board lets the helper run on" ||
	fail "pin = 0,1000: the reason is not the board's: $(q far.db "select detail from runs limit 1")"
[ "$(q far.db "select count(*) from samples where metric like 'allowed_%'")" = 0 ] ||
	fail "pin = 0,1000: something was measured"
echo "ok 2 - pin = 0,1000 on a board: refused by the board's helper, never pinned to fewer CPUs"
