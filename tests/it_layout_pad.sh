#!/bin/bash
# it_layout_pad: the layout of each measured run (harness/layout.h, issue
# 27).  A tiny program appends the address of a local to a file on every
# run.  Under `setarch -R` (ASLR off) the runner pads the environment by a
# different amount each run, so the program's stack moves: at least 5 of
# the 6 runs of a 5-repetition study (and its first run) see different
# addresses, and each stored run says "aslr=off env=N pad=N" with
# different pads.  With ASLR on (where the kernel has it on), runs are
# not padded and say "aslr=on ... pad=0".  Before the padding, every run
# under setarch -R had the same stack address.  Expected: PASS.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh"
scratch it_layout_pad
count_failures
command -v setarch >/dev/null || { echo "SKIP: no setarch (util-linux)"; exit 77; }
setarch -R true 2>/dev/null || { echo "SKIP: setarch -R (ADDR_NO_RANDOMIZE) is refused here"; exit 77; }

export FLAGSCOPE_HOME=$T/home
stackaddr_workload stackaddr "$T/addrs"
printf '; expect: 6 runs ok, each with its layout stored\n[study]\nworkloads = stackaddr\nrepeat = 5\nmeters = rusage\n[axis opt]\nO2 = -O2\n' >s.study

rm -f addrs
if ! setarch -R "$FLAGSCOPE_BIN" run s.study --db off.db -q >off.out 2>off.err </dev/null; then
	fail "setarch -R flagscope run: $(tail -n 3 off.err)"
else
	check_padded_runs off.db addrs "ASLR off"
	distinct=$(sort -u addrs | wc -l)
	[ "$failures" = 0 ] && ok "ASLR off: $distinct stack addresses over $(wc -l <addrs) runs; layouts $(sql off.db "select layout from runs order by rep limit 3" | tr '\n' ',')..."
fi

aslr=$(cat /proc/sys/kernel/randomize_va_space 2>/dev/null || echo 0)
if [ "$aslr" = 0 ]; then
	echo "not checked: ASLR on (randomize_va_space is $aslr here)"
elif ! "$FLAGSCOPE_BIN" run s.study --db on.db -q >on.out 2>on.err </dev/null; then
	fail "flagscope run: $(tail -n 3 on.err)"
else
	bad=$(sql on.db "select rep || ': ' || layout from runs where layout not glob 'aslr=on env=[0-9]* pad=0'")
	[ -z "$bad" ] || fail "ASLR on: runs whose layout is not 'aslr=on env=N pad=0': $bad"
	envs=$(sql on.db "select count(distinct layout) from runs")
	[ "$envs" = 1 ] || fail "ASLR on: $envs different layouts, want one (no padding)"
	[ "$failures" = 0 ] && ok "ASLR on: $(sql on.db "select layout from runs limit 1") on every run"
fi
finish_counted
