# build.sh - lmbench 3's lat_ops, par_ops, lat_syscall and lat_proc (and
# hello, which lat_proc's exec test runs), built by lmbench's own
# scripts/build in a copy of the tree.  Environment as in doc/recipe-format.md:
# CC CFLAGS LDFLAGS SRC RECIPE HOST SYSROOT.
#
# How lmbench builds (src/Makefile and scripts/build at the pinned commit):
# `make` in src/ runs scripts/build with CFLAGS=-O, which probes the
# compiler (bcopy, valloc, getrusage, uint64, drand48, sched_setaffinity,
# -lnsl/-lsocket/-lrt ...), adds -D defines to CFLAGS and runs
#   make OS=$OS CC=$CC CFLAGS=$CFLAGS LDLIBS=$LDLIBS O=../bin/$OS TARGETS
# where every program is `$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) -o $O/prog
# prog.c $O/lmbench.a $(LDLIBS)`.  This script runs scripts/build itself
# with CFLAGS set to the configuration's flags (so they, not lmbench's -O,
# are the only optimisation flags of every unit, the library included),
# LDFLAGS in the environment (make passes it to every link: -static
# arrives), OS=flagscope, MAKE=make, and names the five programs as targets
# (the default target would build all 50 and the whole results machinery).
# A cross build passes AR=$HOST-ar (the Makefile's AR=ar).
#
# bench.h includes <rpc/rpc.h>, which glibc no longer ships (2.32+): the
# build uses libtirpc's copy (-I/usr/include/tirpc, Debian's libtirpc-dev)
# when the compiler does not find one, with -ltirpc in LDLIBS as Debian's
# own lmbench package does, when the configuration can link it (musl-gcc
# cannot: glibc's libtirpc is not on its library path; the five programs
# call no RPC function, so they link without it).  A cross sysroot without <rpc/rpc.h> (the musl
# sysroots of the MIPS studies) fails here, and says so: lmbench is a
# native workload (its timing loops calibrate their iteration counts to the
# clock, so instruction counts under QEMU would not be exact anyway).
set -e
rm -rf lmbench
cp -R "$SRC/." lmbench
rm -rf lmbench/.git # a local: tree may be a clone
extra= libs=
if ! printf '#include <rpc/rpc.h>\n' | $CC $CFLAGS -E -x c - >/dev/null 2>&1; then
	if [ -z "$HOST" ] && [ -f /usr/include/tirpc/rpc/rpc.h ]; then
		extra=-I/usr/include/tirpc
		printf 'int main(void) { return 0; }\n' > tirpc-probe.c
		if $CC $CFLAGS -o tirpc-probe tirpc-probe.c $LDFLAGS -ltirpc >/dev/null 2>&1; then
			libs=-ltirpc
		fi
		rm -f tirpc-probe tirpc-probe.c
	else
		echo "build.sh: $CC finds no <rpc/rpc.h>, which lmbench's bench.h includes" \
			"(natively: install libtirpc-dev; a cross sysroot needs its own)" >&2
		exit 1
	fi
fi
ar=
[ -z "$HOST" ] || ar="AR=$HOST-ar"
o=../bin/flagscope
cd lmbench/src
env CC="$CC" CFLAGS="$CFLAGS${extra:+ $extra}" LDFLAGS="$LDFLAGS" LDLIBS="$libs" OS=flagscope \
	MAKE=make TARGET=linux sh ../scripts/build $ar \
	$o/lat_ops $o/par_ops $o/lat_syscall $o/lat_proc $o/hello
cd ../..
for p in lat_ops par_ops lat_syscall lat_proc hello; do
	cp "lmbench/bin/flagscope/$p" "$p"
done
