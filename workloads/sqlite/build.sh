# build.sh - SQLite's speedtest1 from Debian's sqlite3 source in $SRC, built
# out of tree (the cached source is shared and never written).  Environment
# as in doc/recipe-format.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS HOST.
#
# speedtest1 is SQLite's own Makefile target: test/speedtest1.c compiled and
# linked with the amalgamation sqlite3.c, which make first generates from
# src/ with tclsh (tool/mksqlite3c.tcl; Debian's tree ships no sqlite3.c).
# Both units get $CFLAGS: the Makefile compiles with ${CC} ${CFLAGS} and
# SQLite's configure adds only -D options to CFLAGS (no -O of its own unless
# --enable-debug).  The programs make runs on the build machine (lemon,
# mkkeywordhash) are built with BUILD_CC and are not part of speedtest1.
#
# The link goes through libtool with the LDFLAGS configure saw (@LDFLAGS@,
# not $(LDFLAGS)), so a static configuration's -all-static goes in
# LTLINK_EXTRAS, the Makefile's hook for extra link options (libtool drops a
# plain -static from a program's link).
#
# FLAGSCOPE_CONFIG_CACHE, when set, is an autoconf cache file for this build
# alone (see bench/configure-cache.sh).
set -e
lt=
for f in $LDFLAGS; do
	[ "$f" = -static ] && lt=-all-static
done
"$SRC/configure" CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
	${HOST:+--host="$HOST" --build="$(cc -dumpmachine)"} \
	${FLAGSCOPE_CONFIG_CACHE:+--cache-file="$FLAGSCOPE_CONFIG_CACHE"} \
	--disable-shared --disable-tcl --disable-readline --disable-load-extension
make -j"$JOBS" speedtest1 LTLINK_EXTRAS="$lt"
cp "$RECIPE/speedtest.sh" speedtest.sh
chmod +x speedtest.sh
