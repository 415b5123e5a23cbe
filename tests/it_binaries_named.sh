#!/bin/bash
# it_binaries_named.sh - a newcomer's recipe names the program it guessed
# (binaries = wc) while the Makefile makes wcgen: every configuration was
# build_failed with "the build did not produce wc", naming neither what
# the build made nor its log.  Expected: the build's line names wcgen as
# what it made, says where to name it, and gives the log's path; a build
# that made no program says so.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_binaries_named
count_failures
mkdir -p src/sub workloads/wc workloads/none
printf '#include <stdio.h>\nint main(void) { puts("words 3"); return 0; }\n' >src/wc.c
printf 'all: sub/wcgen\nsub/wcgen: wc.c\n\t$(CC) $(CFLAGS) -o $@ wc.c\n' >src/Makefile
printf '; expect: builds sub/wcgen, not the wc it names\n[workload]\nsource = local:%s/src\n[build]\nsystem = make\nbinaries = wc\n[run]\nargs = wc\n' \
	"$T" >workloads/wc/recipe.ini
printf '; expect: wc\n[study]\nname = wc\nworkloads = wc\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\n' >wc.study
set +e; fs run wc.study --db wc.db >wc.out 2>wc.err; set -e
grep -qE "\[build 1/1\] O2 wc: build_failed .*the build did not produce wc; it made sub/wcgen \(name it in \[build\] binaries = and \[run\] args =\) \| log: $T/cache/builds/[0-9a-f]+/build.log" wc.err ||
	fail "the failed build does not name what it made and its log: $(grep 'build 1' wc.err)"

mkdir -p src2
printf 'all:\n\t@echo nothing to build\n' >src2/Makefile
printf '; expect: makes nothing\n[workload]\nsource = local:%s/src2\n[build]\nsystem = make\nbinaries = none\n[run]\nargs = none\n' \
	"$T" >workloads/none/recipe.ini
sed 's/^workloads = wc/workloads = none/; s/^name = wc/name = none/' wc.study >none.study
set +e; fs run none.study --db none.db >none.out 2>none.err; set -e
grep -qE "build_failed .*the build did not produce none, nor any other program \(see what it built in the log\) \| log: $T/cache/builds/[0-9a-f]+/build.log" none.err ||
	fail "a build that made no program: $(grep 'build 1' none.err)"
ok "a missing binary names what the build made and its log"
finish_counted
