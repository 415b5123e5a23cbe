# build.sh - the webservice workload's servers, every unit with the
# configuration's $CC $CFLAGS $LDFLAGS (environment: doc/recipe-format.md):
#
#   lighttpd  from $SRC (Debian's lighttpd), out of tree with its autotools
#             build, static-plugin variant (LIGHTTPD_STATIC: the modules are
#             linked into the one binary, so there is no dlopen and a static
#             configuration works; plugin-static.h names the three used);
#             without pcre2 and zlib (neither is used by the pages, and
#             neither need be in a cross sysroot); a musl target gets the
#             build machine's <sys/queue.h> (ls-hpack needs it);
#   shop      the dynamic page: shop.c and fcgi.c of this folder, linked with
#   sqlite3.o SQLite from $SRC_sqlite (Debian's sqlite3).  Debian's tree is
#             SQLite's full source: its amalgamation sqlite3.c is generated
#             by the build machine's tools (tclsh, the native cc for lemon
#             and mkkeywordhash: no target code), then compiled here with
#             the configuration's flags.
set -e
: "${SRC_sqlite:?the recipe's source.sqlite is not set (a flagscope without extra sources)}"
export LC_ALL=C

# SQLite's amalgamation, made natively in sqlite-gen/
mkdir sqlite-gen
(cd sqlite-gen && env -u CFLAGS -u LDFLAGS CC=cc "$SRC_sqlite/configure" --disable-tcl \
	--disable-readline >configure.log 2>&1 && make sqlite3.c >make.log 2>&1) || {
	tail -20 sqlite-gen/configure.log sqlite-gen/make.log >&2
	echo "build.sh: SQLite's amalgamation could not be generated (is tclsh installed?)" >&2
	exit 1
}
$CC $CFLAGS -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_DEFAULT_MEMSTATUS=0 \
	-c sqlite-gen/sqlite3.c -o sqlite3.o
$CC $CFLAGS -Isqlite-gen -o shop "$RECIPE/shop.c" "$RECIPE/fcgi.c" sqlite3.o $LDFLAGS -lm

# lighttpd, static-plugin build, in lighttpd/
static=
case " $LDFLAGS " in *" -static "*) static=yes ;; esac
# ls-hpack includes the BSD <sys/queue.h>, which glibc has and musl has
# not: without it, the build machine's copy (macros only, no code) is put
# on the include path through CPPFLAGS (not CFLAGS: no code-generation flag)
cppflags=
if ! echo '#include <sys/queue.h>' | $CC $CFLAGS -E - >/dev/null 2>&1; then
	mkdir -p compat/sys
	cp "/usr/include/$(cc -dumpmachine)/sys/queue.h" compat/sys/queue.h
	cppflags="-I$PWD/compat"
fi
mkdir lighttpd
cd lighttpd
LIGHTTPD_STATIC=yes "$SRC/configure" CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
	CPPFLAGS="$cppflags" \
	--enable-static --disable-shared --without-pcre2 --without-zlib \
	${HOST:+--host="$HOST" --build="$(cc -dumpmachine)"}
printf 'PLUGIN_INIT(mod_fastcgi)\nPLUGIN_INIT(mod_staticfile)\nPLUGIN_INIT(mod_indexfile)\n' \
	>src/plugin-static.h
# libtool drops -static from a program's link; -all-static reaches the driver
set --
if [ -n "$static" ]; then
	lt=
	for f in $LDFLAGS; do
		[ "$f" = -static ] && f=-all-static
		lt="$lt $f"
	done
	set -- LDFLAGS="$lt"
fi
# lighttpd alone (its BUILT_SOURCES first: versionstamp.h, the config
# parser); "all" would build lighttpd's unit-test program too
make -C src versionstamp parsers
make -j"$JOBS" -C src "$@" lighttpd
cd ..
cp lighttpd/src/lighttpd lighttpd-bin
mv lighttpd lighttpd-build
mv lighttpd-bin lighttpd
cp "$RECIPE/serve.sh" serve.sh
chmod +x serve.sh
