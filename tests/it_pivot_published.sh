#!/bin/bash
# it_pivot_published.sh - `report --pivot libc` prints both published
# libc-bench tables the shipped workloads/libcbench/published.ini holds,
# side by side, each named with its hardware and versions: Eta Labs' older
# table and the Raspberry Pi 4 study's (2022).  libcbench's malloc_big1
# and string_strstr_abc, built and run once under glibc and musl (dynamic).
# Expected: PASS, with
#   - the table's head names both sources ("published (etalabs)",
#     "published (rpi4)" with "Raspberry Pi 4B at 600 MHz") and their
#     figures in each row: strstr +54.4% by Eta Labs (0.088/0.057 - 1) and
#     -32.8% by the RPi 4 (0.022583204/0.033620482 - 1), the two tables
#     disagreeing in sign; malloc_big1 -40.7% and -64.6%;
#   - one "sign agreement" line per source;
#   - CSV has the rpi4 columns, JSON lists both sources with their hardware.
# On main before this, the pivot printed the Eta Labs table alone.
# SKIP when musl-gcc is not installed.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_pivot_published
command -v musl-gcc >/dev/null || { echo "SKIP: musl-gcc is not installed (apt-get install musl-tools)"; exit 77; }

runs="malloc_big1 string_strstr_abc"
libcbench_runs "$runs" published.ini
printf '; it_pivot_published: two libcbench runs, glibc and musl; expect ok\n[study]\nname = pubs\nworkloads = libcbench\nrepeat = 1\nbaseline = glibc\n[axis libc]\nglibc =\nmusl =\n' > pubs.study
fs run pubs.study --db pubs.db -q > run.out 2>&1 || fail "run: $(tail -5 run.out)"

fs report --db pubs.db --pivot libc > pivot.txt 2>&1 || fail "pivot: $(cat pivot.txt)"
grep -q '^published (etalabs): Eta Labs, Comparison of C/POSIX' pivot.txt ||
	fail "the Eta Labs source is not named:
$(cat pivot.txt)"
grep -q '^published (rpi4): .*; hardware: Raspberry Pi 4B at 600 MHz (AArch64), GCC 10.3.1; versions: ' pivot.txt ||
	fail "the Raspberry Pi 4 source is not named with its hardware:
$(cat pivot.txt)"
ok "both sources named, each with its hardware and versions"
grep -Eq '^libcbench/string_strstr_abc .* \+54\.4% +(yes|no) +-32\.8% +(yes|no)' pivot.txt ||
	fail "strstr: Eta Labs' +54.4% and the RPi 4's -32.8% side by side:
$(cat pivot.txt)"
grep -Eq '^libcbench/malloc_big1 .* -40\.7% +(yes|no) +-64\.6% +(yes|no)' pivot.txt ||
	fail "malloc_big1: -40.7% and -64.6%:
$(cat pivot.txt)"
ok "each row has both published ratios"
grep -q '^sign agreement: .* rows (etalabs: the metric' pivot.txt &&
	grep -q '^sign agreement: .* rows (rpi4: the metric' pivot.txt ||
	fail "one sign agreement line per source:
$(cat pivot.txt)"

out_has -F ',rpi4.published_row,' fs report --db pubs.db --pivot libc --format csv ||
	fail "csv: no rpi4 columns"
out_has -F '"label":"rpi4","source":"openEuler Embedded' fs report --db pubs.db --pivot libc --format json ||
	fail "json: no rpi4 source"
ok "csv and json carry the second source"
