# build.sh - the CPython 3.11 interpreter (python, run from this build tree)
# from Debian's python3.11 source in $SRC, built out of tree (the cached
# source is shared and never written).  Environment as in
# workloads/README.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS HOST.
#
# The flags.  CPython's Makefile compiles every unit with
#   $(BASECFLAGS) $(OPT) $(CONFIGURE_CFLAGS) $(CFLAGS) $(EXTRA_CFLAGS) ...
# where CONFIGURE_CFLAGS is the CFLAGS configure saw (the configuration's)
# and OPT is configure's "-DNDEBUG -g -fwrapv -O3 -Wall" unless OPT is set
# in its environment.  OPT below keeps CPython's own semantics flags
# (-fwrapv: signed overflow wraps, which CPython's C relies on; configure
# adds -DNDEBUG, and -fno-strict-aliasing under clang) and drops its -O3
# and -g, so the configuration's -O is the only one on each command line
# (and flagscope's -g -frecord-gcc-switches come with CFLAGS).  configure
# keeps CFLAGS whole (as CONFIGURE_CFLAGS, and make's CFLAGS is the same
# value), so every unit records them twice: verify shows "-O2 -O2".  No
# --enable-optimizations (flagscope's pgo axis does PGO) and no --with-lto
# (the study's flags do LTO).
#
# What is built: `make python` only, the interpreter with libpython3.11.a
# linked in (CPython's default, --disable-shared) and the modules it needs
# built into it (*static*): Setup.bootstrap's (posix, _io, _sre,
# _collections, ...) and, from Setup.local below, math and _json (the
# benchmark's nbody and json parts).  No shared extension modules, no
# ensurepip, test modules, tkinter or documentation.  pybuilddir.txt (the
# build tree's sysconfig data) lets ./python find its library, Lib/ of
# $SRC, when run from here.
#
# Byte code: nothing writes into $SRC.  The interpreters make runs
# (_bootstrap_python freezing modules, ./python writing the sysconfig data)
# get -B (they ignore PYTHONDONTWRITEBYTECODE: isolated or -E), and the
# benchmark's imports are compiled once here, under pycache/ of this build
# tree (-X pycache_prefix, as the recipe's runs say), so a measured run
# reads .pyc files and writes nothing.
#
# A static configuration (-static in LDFLAGS) links python statically: the
# link warns that dlopen, getpwnam and friends need glibc's shared
# libraries at run time, which the benchmark never calls (it imports no
# extension module from a file).
set -e
mkdir -p Modules
cat >Modules/Setup.local <<'SETUP'
*static*
math mathmodule.c
_json _json.c
SETUP
OPT="-fwrapv -Wall" "$SRC/configure" CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
	${HOST:+--host="$HOST" --build="$(cc -dumpmachine)"} \
	${FLAGSCOPE_CONFIG_CACHE:+--cache-file="$FLAGSCOPE_CONFIG_CACHE"} \
	--disable-shared --without-ensurepip --disable-test-modules
make -j"$JOBS" python PYTHON_FOR_FREEZE="./_bootstrap_python -B"
make pybuilddir.txt PYTHON_FOR_BUILD="./python -E -B"
cp "$RECIPE/bench.py" bench.py
./python -I -X pycache_prefix="$PWD/pycache" bench.py --imports-only
