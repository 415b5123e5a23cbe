#!/bin/bash
# it_stub_configure.sh - issue 28: `workload new` guessed autotools for a
# tree whose configure is a stub (it names cmake; the tree also keeps an
# older configure.ac), and the build then ran that stub ("make: *** No
# targets specified").  The tree here: a stub configure that prints "use
# cmake" and exits 0, configure.ac + Makefile.am, CMakeLists.txt, one C
# file.  Expected:
#   1. workload new guesses cmake (the system the stub names), saying why;
#      the recipe builds and runs ok;
#   2. the same tree with system = autotools (the user's choice) is
#      rebuilt with autoreconf: the stub never runs (its words are not in
#      the build log) and the build is ok (needs autoreconf; else SKIP).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_stub_configure
count_failures
mkdir -p tree
cat >tree/configure <<'C'
#!/bin/sh
echo "STUB-CONFIGURE: this project builds with cmake now (mkdir out; cd out; cmake ..)"
C
chmod +x tree/configure
printf 'AC_INIT([x],[1])\nAM_INIT_AUTOMAKE([foreign])\nAC_PROG_CC\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n' >tree/configure.ac
printf 'bin_PROGRAMS = x\nx_SOURCES = x.c\n' >tree/Makefile.am
printf 'cmake_minimum_required(VERSION 3.10)\nproject(x C)\nadd_executable(x x.c)\n' >tree/CMakeLists.txt
printf '#include <stdio.h>\nint main(void) { puts("x 42"); return 0; }\n' >tree/x.c

fs workload new x --source "local:$T/tree" --dir workloads >new.out 2>new.err || fail "workload new: $(cat new.err)"
grep -q '^system = cmake .*guessed from the tree.s CMakeLists.txt.*it names cmake' workloads/x/recipe.ini ||
	fail "want cmake, guessed because the stub names it: $(grep '^system' workloads/x/recipe.ini)"
sed -i 's/^; binaries = PROGRAM .*/binaries = x/; s/^; \[run\] .*/[run]/; s/^; args = PROGRAM ARGS .*/args = x/' workloads/x/recipe.ini
cat >x.study <<'S'
; expect: x built (cmake, or autotools through autoreconf) and run ok
[study]
name = x
workloads = x
repeat = 1
[axis opt]
O2 = -O2
S
fs run x.study --db c.db -q >c.out 2>c.err || fail "the guessed recipe: $(cat c.err c.out)"
grep -qE '^1 +O2 .* ok' c.out || fail "the guessed recipe did not build and run ok: $(cat c.out)"

if ! command -v autoreconf >/dev/null || ! command -v automake >/dev/null; then
	echo "SKIP (part): no autoreconf/automake: system = autotools on the stub tree not built"
else
	sed -i 's/^system = cmake .*/system = autotools/' workloads/x/recipe.ini
	fs run x.study --db a.db -q >a.out 2>a.err || fail "system = autotools: $(cat a.err a.out)"
	grep -qE '^1 +O2 .* ok' a.out || fail "system = autotools on a stub configure did not build ok: $(cat a.out)"
	log=$(find "$T/cache" -name build.log -newer c.db | head -1)
	[ -n "$log" ] || fail "no build log of the autotools build in the cache"
	if [ -n "$log" ] && grep -q STUB-CONFIGURE "$log"; then fail "the build ran the stub configure: $log"; fi
fi
ok "stub configure: cmake guessed; autotools rebuilds configure with autoreconf"
finish_counted
