# build.sh - gzip from the upstream tree in $SRC, built out of tree (the
# cached source is shared and never written).  Environment as in
# doc/recipe-format.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS HOST.
#
# Every compile unit gets $CFLAGS: gzip's Makefiles use @CFLAGS@ alone (no
# optimisation flags of their own; checked with -frecord-gcc-switches in
# tests/it_lame_gzip.sh).  gzip links with the compiler driver, not libtool,
# so -static in $LDFLAGS reaches the link as it is.
#
# FLAGSCOPE_CONFIG_CACHE, when set, is an autoconf cache file for this build
# alone (a copy, without its ac_cv_env_* lines, of the cache an earlier
# configuration with the same toolchain, libc, linkage and target flags
# wrote): configure then skips the checks it already knows.  See
# bench/configure-cache.sh.
set -e
"$SRC/configure" CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" ${HOST:+--host="$HOST"} \
	${FLAGSCOPE_CONFIG_CACHE:+--cache-file="$FLAGSCOPE_CONFIG_CACHE"}
make -j"$JOBS"
cp "$RECIPE/roundtrip.sh" roundtrip.sh
chmod +x roundtrip.sh
