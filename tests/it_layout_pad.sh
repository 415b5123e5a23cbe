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

mkdir -p home/workloads/stackaddr
export FLAGSCOPE_HOME=$T/home
cat >home/workloads/stackaddr/stackaddr.c <<'C'
/* stackaddr FILE: appends the address of a local to FILE; prints "ok" */
#include <stdio.h>
int main(int argc, char **argv)
{
	volatile int local = 0;
	FILE *f = argc == 2 ? fopen(argv[1], "a") : NULL;
	if (!f)
		return 2;
	fprintf(f, "%p\n", (void *)&local);
	fclose(f);
	printf("ok\n");
	return local;
}
C
cat >home/workloads/stackaddr/recipe.ini <<R
; expect: every run ok; each appends its stack address to $T/addrs
[workload]
description = appends the address of a local to a file
source = bundled
[build]
script = \$CC \$CFLAGS -o stackaddr "\$RECIPE/stackaddr.c" \$LDFLAGS
binaries = stackaddr
[run]
args = stackaddr $T/addrs
R
printf '; expect: 6 runs ok, each with its layout stored\n[study]\nworkloads = stackaddr\nrepeat = 5\nmeters = rusage\n[axis opt]\nO2 = -O2\n' >s.study

rm -f addrs
if ! setarch -R "$FLAGSCOPE_BIN" run s.study --db off.db -q >off.out 2>off.err </dev/null; then
	fail "setarch -R flagscope run: $(tail -n 3 off.err)"
else
	runs=$(sql off.db "select count(*) from runs where status='ok'")
	distinct=$(sort -u addrs | wc -l)
	[ "$runs" -ge 6 ] || fail "ASLR off: $runs ok runs stored, want 6"
	[ "$distinct" -ge 5 ] || fail "ASLR off: $distinct different stack addresses in $(wc -l <addrs) runs, want at least 5: $(tr '\n' ' ' <addrs)"
	bad=$(sql off.db "select rep || ': ' || layout from runs where layout not glob 'aslr=off env=[0-9]* pad=[0-9]*'")
	[ -z "$bad" ] || fail "ASLR off: runs whose layout is not 'aslr=off env=N pad=N': $bad"
	pads=$(sql off.db "select count(distinct layout) from runs")
	[ "$pads" -ge 5 ] || fail "ASLR off: $pads different layouts stored over $runs runs, want at least 5"
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
