#!/bin/bash
# it_big_output.sh - a workload that prints a lot does not make flagscope
# as big as its output.  "big" prints $T/big.mib MiB of lines on stdout
# (and as much on stderr), then its metric line "sum 42".  The build is
# made first (--build-only), so the peak RSS GNU time reports for
# `flagscope run` is flagscope's own (the program writes through an 8 KiB
# buffer).  Expect, side by side (the ratio printed):
#  1. a run printing 256 MiB on stdout and on stderr: every run ok, its
#     metric found after the 256 MiB (it was matched on the whole output
#     read into memory: flagscope's peak RSS grew by the output's size)
#  2. flagscope's peak RSS within 64 MiB of a run printing 1 MiB
#  3. the output is still compared in full with the baseline's: a second
#     configuration whose last line of the 256 MiB differs is wrong_output
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_big_output
[ -x /usr/bin/time ] || { echo "SKIP: no /usr/bin/time (GNU time) to read the peak RSS"; exit 77; }
free_mib=$(df -Pm "$T" | awk 'NR == 2 { print $4 }')
[ "$free_mib" -gt 2200 ] || { echo "SKIP: $free_mib MiB free under $T, the outputs need 2.2 GiB"; exit 77; }

mkdir -p home/workloads/big
cat >home/workloads/big/big.c <<C
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* $T/big.mib MiB of lines on stdout and stderr; -DPLANT_WRONG changes the last one */
int main(void)
{
	char text[32] = "1";
	int fd = open("$T/big.mib", O_RDONLY);
	ssize_t got = fd < 0 ? 0 : read(fd, text, sizeof(text) - 1);
	text[got > 0 ? got : 1] = '\\0';
	long mib = atol(text);
	char line[64];
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\\n';
	for (long i = 0; i < mib * 16384; i++) {
#ifdef PLANT_WRONG
		if (i == mib * 16384 - 1)
			line[0] = 'y';
#endif
		fwrite(line, 1, sizeof(line), stdout);
		fwrite(line, 1, sizeof(line), stderr);
	}
	printf("sum 42\\n");
	return 0;
}
C
cat >home/workloads/big/recipe.ini <<'R'
; big: prints $T/big.mib MiB on stdout and stderr, then "sum 42" (it_big_output.sh)
[workload]
description = a program with a big output
source = bundled

[build]
script = $CC $CFLAGS -o big "$RECIPE/big.c" $LDFLAGS
binaries = big

[run]
args = big
timeout = 300
metric.sum = ^sum ([0-9]+)
R
printf '[study]\nname = big\nworkloads = big\nrepeat = 1\nmeters = rusage\nbaseline = O2\n[axis opt]\nO2 = -O2\nwrong = -O2 -DPLANT_WRONG\n' >big.study
fs run big.study --db build.db --build-only -q >build.out 2>&1 || fail "build: $(cat build.out)"

# peak MIB DB: flagscope's peak RSS in KiB for a run printing MIB MiB
peak() {
	echo "$1" >big.mib
	rm -rf cache/refs
	/usr/bin/time -f '%M' -o "rss.$1" "$FLAGSCOPE_BIN" run big.study --db "$2" -q >"$2.out" 2>&1 ||
		[ $? = 1 ] || fail "$1 MiB: $(tail -3 "$2.out")"
	tail -1 "rss.$1"
}
small=$(peak 1 small.db)
large=$(peak 256 large.db)
echo "flagscope peak RSS: $((small / 1024)) MiB printing 1 MiB, $((large / 1024)) MiB printing 256 MiB (ratio $(awk "BEGIN { printf \"%.2f\", $large / $small }"))"
[ "$(sql large.db "select status || ' ' || count(*) from runs where config_id = (select id from configs where label = 'O2') group by status")" = "ok 2" ] ||
	fail "256 MiB: the baseline's runs: $(sql large.db "select rep, status, detail from runs")"
[ "$(sql large.db "select count(*) from samples where metric = 'sum' and value = 42 and config_id = (select id from configs where label = 'O2')")" -ge 2 ] ||
	fail "256 MiB: the metric after the output not stored: $(sql large.db "select rep, status, detail from runs")"
echo "ok - 256 MiB of output: the baseline's runs ok, its metric found after it"
[ $((large - small)) -lt $((64 * 1024)) ] ||
	fail "flagscope's peak RSS grew by $(((large - small) / 1024)) MiB with 255 MiB more output"
echo "ok - flagscope's peak RSS grew by $(((large - small) / 1024)) MiB"
# read whole before grep: grep -q stops at its first match, and under
# pipefail the query's broken pipe failed the check it had passed
wrong=$(sql large.db "select status || ' ' || detail from runs where config_id = (select id from configs where label = 'wrong')")
grep -q "^wrong_output stdout differs from the reference at byte 268435392" <<<"$wrong" ||
	fail "the differing last line: $(sql large.db "select rep, status, detail from runs")"
echo "ok - the output is still compared in full: a difference in its last line is wrong_output"
echo PASS
rm -rf "$T"
