# build.sh - the CPython 3.11 interpreter (python, run from this build tree)
# from Debian's python3.11 source in $SRC, built out of tree (the cached
# source is shared and never written).  Environment as in
# doc/recipe-format.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS HOST.
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
# Two of configure's checks read the configuration's flags wrongly, so
# their answers are given here:
#   - the float word order (ax_cv_c_float_words_bigendian) is read from a
#     compiled object's data, which -flto objects (GIMPLE or LLVM bitcode)
#     do not hold: "Unknown float word ordering"; it is the target's byte
#     order, which the compiler's __BYTE_ORDER__ says;
#   - "whether $CC accepts and needs -fno-strict-aliasing"
#     (ac_cv_no_strict_aliasing) compiles under -Werror, where -fprofile-use
#     adds warnings: it answered yes in the profile-guided build only, so
#     that build's code differed from the instrumented build's and gcc
#     refused the profile ("the control flow of function ... does not match
#     its profile data").  GCC 12 needs no -fno-strict-aliasing (the check
#     says no without a profile), and clang gets CPython's
#     -fno-strict-aliasing anyway (CFLAGS_ALIASING).
#
# A static configuration (-static in LDFLAGS) links python statically: the
# link warns that dlopen, getpwnam and friends need glibc's shared
# libraries at run time, which the benchmark never calls (it imports no
# extension module from a file).
set -e
if [ -n "$HOST" ]; then
	echo "python3: no cross builds (CPython's build runs the python it builds; a cross build needs --with-build-python, a native python3.11 of the same source)" >&2
	exit 1
fi
mkdir -p Modules
cat >Modules/Setup.local <<'SETUP'
*static*
math mathmodule.c
_json _json.c
SETUP
case $($CC $CFLAGS -dM -E -x c /dev/null) in
*"__BYTE_ORDER__ __ORDER_BIG_ENDIAN__"*) bigendian=yes ;;
*) bigendian=no ;;
esac
OPT="-fwrapv -Wall" ax_cv_c_float_words_bigendian=$bigendian ac_cv_no_strict_aliasing=no \
	"$SRC/configure" CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
	${FLAGSCOPE_CONFIG_CACHE:+--cache-file="$FLAGSCOPE_CONFIG_CACHE"} \
	--disable-shared --without-ensurepip --disable-test-modules
make -j"$JOBS" python PYTHON_FOR_FREEZE="./_bootstrap_python -B"
make pybuilddir.txt PYTHON_FOR_BUILD="./python -E -B"
cp "$RECIPE/bench.py" bench.py
./python -I -X pycache_prefix="$PWD/pycache" bench.py --imports-only
