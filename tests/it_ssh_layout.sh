#!/bin/bash
# it_ssh_layout: the run-time layout of runs on a board over ssh (issue 27,
# harness/layout.h): the board's helper reads the board's ASLR and, where
# it is off, pads the environment by the amount flagscope passes per run
# (-p), as the native runner does.  A loopback board (sshd on 127.0.0.1)
# that starts every command under `setarch -R` (ASLR off, as on many
# boards) runs a program that appends the address of a local to a file:
# at least 5 of the 6 runs see different stack addresses, and each stored
# run says "aslr=off env=N pad=N" with different pads.  A second board
# without setarch (ASLR on, where the kernel has it on) stores "aslr=on
# ... pad=0" on every run.  Before, runs on boards recorded no layout and
# were never padded.  Expected: PASS.
set -u
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
[ -x /usr/sbin/sshd ] || { echo "SKIP: no /usr/sbin/sshd (apt-get install openssh-server)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: the test sshd must run as root to log root in"; exit 77; }
command -v setarch >/dev/null || { echo "SKIP: no setarch (util-linux)"; exit 77; }
setarch -R true 2>/dev/null || { echo "SKIP: setarch -R (ADDR_NO_RANDOMIZE) is refused here"; exit 77; }
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_ssh_layout
count_failures
SSHD_BASE=$T
. "$FLAGSCOPE_SRC/tests/lib_sshd.sh"
trap stop_all_sshd EXIT
sshd_keys
mkdir -p "$T/off" "$T/on"
# every command of board "off" runs with ASLR off, as setarch -R sets it
echo "ForceCommand setarch -R /bin/sh -c \"\$SSH_ORIGINAL_COMMAND\"" >"$T/off/sshd_extra"
start_sshd off || fail "sshd off"
start_sshd on || fail "sshd on"

for b in off on; do
	stackaddr_workload "stack$b" "$T/addrs.$b"
	{
		printf '; expect: 6 runs ok on board %s, each with its layout stored\n' "$b"
		printf '[study]\nname = %s\nworkloads = stack%s\nrepeat = 5\nmeters = rusage\n[axis opt]\nO2 = -O2\n' "$b" "$b"
		printf '%s\n' "[run]" "host = root@127.0.0.1:${SSHD_PORT[$b]}" "identity = $T/user_key" \
			"known_hosts = $T/known_hosts" "workdir = $T/board.$b"
	} >"$b.study"
	rm -f "addrs.$b"
	fs run "$b.study" --db "$b.db" -q >"$b.out" 2>"$b.err" </dev/null || fail "run on board $b: $(tail -n 3 "$b.err")"
done

check_padded_runs off.db addrs.off "board with ASLR off"
distinct=$(sort -u addrs.off | wc -l)
[ "$failures" = 0 ] && ok "board with ASLR off: $distinct stack addresses over $(wc -l <addrs.off) runs; $(sql off.db "select layout from runs order by rep limit 2" | tr '\n' ',')..."

aslr=$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo 0)
if [ "$aslr" = 0 ]; then
	echo "not checked: ASLR on (randomize_va_space is $aslr here)"
else
	bad=$(sql on.db "select rep || ': ' || layout from runs where layout not glob 'aslr=on env=[0-9]* pad=0'")
	[ -z "$bad" ] || fail "ASLR on: runs whose layout is not 'aslr=on env=N pad=0': $bad"
	[ "$(sql on.db "select count(distinct layout) from runs")" = 1 ] || fail "ASLR on: more than one layout (padded)"
	[ "$failures" = 0 ] && ok "board with ASLR on: $(sql on.db "select layout from runs limit 1") on every run"
fi
finish_counted
