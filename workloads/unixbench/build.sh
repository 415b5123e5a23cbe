# build.sh - the UnixBench index programs, built with UnixBench's own
# Makefile from a copy of the upstream tree's UnixBench/ folder (the cached
# source is shared and never written).  Environment as in
# doc/recipe-format.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS.
#
# Flags: the Makefile compiles and links each program in one command,
#   $(CC) -o pgms/X $(CFLAGS) <sources> [$(LDFLAGS)]
# with CFLAGS += -Wall -pedantic $(OPTON) -I ./src -DTIME and
# OPTON = $(UB_GCC_OPTIONS) when that is set (otherwise its own
# "-O3 -ffast-math -march=native").  UB_GCC_OPTIONS carries the
# configuration's $CFLAGS and $LDFLAGS: the rules for dhry2 and dhry2reg
# leave $(LDFLAGS) out, so linker flags (-static) reach every program only
# this way.  CFLAGS and LDFLAGS are emptied in make's environment so the
# Makefile's own `CFLAGS +=` does not repeat them.
#
# Only the programs of the index tests are built: dhry2reg,
# whetstone-double, execl, fstime, pipe, context1, spawn, syscall, looper
# (shell scripts 1 and 8 run pgms/multi.sh and pgms/tst.sh under looper).
set -e
rm -rf ub
cp -R "$SRC/UnixBench" ub
(cd ub && env CFLAGS= LDFLAGS= make -j"$JOBS" CC="$CC" UB_GCC_OPTIONS="$CFLAGS $LDFLAGS" \
	pgms/dhry2reg pgms/whetstone-double pgms/execl pgms/fstime pgms/pipe \
	pgms/context1 pgms/spawn pgms/syscall pgms/looper)
for f in pgms/index.base pgms/multi.sh pgms/tst.sh testdir/sort.src; do
	if [ ! -f "ub/$f" ]; then
		echo "unixbench: UnixBench/$f is missing from the source tree" >&2
		exit 1
	fi
done
cp "$RECIPE/unixbench.sh" unixbench.sh
chmod +x unixbench.sh
