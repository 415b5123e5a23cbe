#!/bin/bash
# it_build_status.sh - issue 28: "no progress while building: 18 s of
# silence, then one line"; runs had a status line, builds had none.
# A workload whose build takes 3 s (its Makefile sleeps), in two
# configurations built one at a time.  Expected: on a terminal (script(1))
# the status line names the build in flight with its elapsed seconds
# ("builds 0/2: building O2 slowbuild 2 s") while it builds, then each
# build's line gives its time; redirected, each build still has its line
# "[build i/2] ... (N s)" and no carriage return.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_build_status
count_failures
command -v script >/dev/null || { echo "SKIP: no script(1) (util-linux) to give flagscope a terminal"; exit 77; }
mkdir -p src workloads/slowbuild
printf '#include <stdio.h>\nint main(void) { puts("slow"); return 0; }\n' >src/s.c
printf 's: s.c\n\tsleep 3\n\t$(CC) $(CFLAGS) -o s s.c\n' >src/Makefile
printf '; expect: builds in 3 s, prints slow\n[workload]\nsource = local:%s/src\n[build]\nsystem = make\nbinaries = s\n[run]\nargs = s\n' "$T" \
	>workloads/slowbuild/recipe.ini
printf '; expect: both ok\n[study]\nname = slow\nworkloads = slowbuild\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\nO1 = -O1\n' >s.study
script -qec "$FLAGSCOPE_BIN run s.study --db tty.db -j1" tty.out >/dev/null 2>&1 || fail "run on a terminal: $(tail -c 400 tty.out)"
tr '\r' '\n' <tty.out >tty.lines
grep -qE 'builds 0/2: building (O2|O1) slowbuild [12] s' tty.lines ||
	fail "no status line naming the build in flight with its seconds: $(grep -a builds tty.lines | head -5)"
rm -rf "$T/cache"
FLAGSCOPE_CACHE=$T/cache2 fs run s.study --db file.db -j1 >file.out 2>file.err || fail "run to a file: $(tail -3 file.err)"
[ "$(grep -cE '^flagscope: \[build [12]/2\] (O2|O1) slowbuild: ok \([3-9]\.[0-9] s\)' file.err)" = 2 ] ||
	fail "redirected: want one '[build i/2] ... ok (N s)' line per build: $(grep build file.err)"
grep -q $'\r' file.err && fail "stderr to a file carries a carriage return"
ok "builds in flight named with their seconds on a terminal; each build's line has its time"
finish_counted
