# build.sh - LAME's command-line encoder from the upstream tree in $SRC,
# built out of tree (the cached source is shared and never written).
# Environment as in doc/recipe-format.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS HOST.
#
# FLAGSCOPE_CONFIG_CACHE, when set, is an autoconf cache file for this build
# alone (a copy, without its ac_cv_env_* lines, of the cache an earlier
# configuration with the same toolchain, libc, linkage and target flags
# wrote): configure then skips the checks it already knows.  See
# bench/configure-cache.sh.
set -e

# libtool takes -static to mean "no shared libtool libraries" and drops it
# from the final link, so the binary would still be dynamic; -all-static is
# what makes libtool pass -static to the compiler driver.  configure's own
# link tests run through the compiler, so they get $LDFLAGS unchanged.
lt_ldflags=
for f in $LDFLAGS; do
	case $f in -static) f=-all-static ;; esac
	lt_ldflags="$lt_ldflags $f"
done

# The terminal library only draws the progress display; leaving it out makes
# the build the same on machines with and without ncurses, and keeps a
# static link from needing libtinfo.a.
"$SRC/configure" CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" ${HOST:+--host="$HOST"} \
	${FLAGSCOPE_CONFIG_CACHE:+--cache-file="$FLAGSCOPE_CONFIG_CACHE"} \
	--disable-shared --disable-gtktest --disable-mp3x --disable-mp3rtp \
	ac_cv_lib_termcap_initscr=no ac_cv_lib_curses_initscr=no ac_cv_lib_ncurses_initscr=no

# CFLAGS on make's command line, so every unit gets exactly $CFLAGS: with
# clang, LAME's configure puts its own -O3 in front of the user's CFLAGS
# (with gcc it does so only when CFLAGS is empty).
make -j"$JOBS" CFLAGS="$CFLAGS" LDFLAGS="$lt_ldflags"
cp frontend/lame lame
