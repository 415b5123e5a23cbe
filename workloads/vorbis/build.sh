# build.sh - libogg and libvorbis (libvorbis, libvorbisenc, libvorbisfile)
# from Debian's sources, static, and the workload's front end oggvorbis.c
# linked with them, all under the configuration's flags.  Environment as in
# doc/recipe-format.md: CC CFLAGS LDFLAGS SRC (libvorbis) SRC_libogg RECIPE
# JOBS HOST.  Both trees are built out of tree (the cached sources are
# shared and never written): libogg in ogg/ and installed into prefix/
# (its headers include the generated config_types.h), libvorbis's lib/ in
# vorbis/ against that prefix.
#
# Both configure scripts put flags of their own in front of the user's
# CFLAGS, as in Debian's own builds: for gcc on x86 Linux libogg adds
# "-O2 -Wall -ffast-math -fsigned-char", libvorbis "-O3 -Wall -Wextra
# -ffast-math -mno-ieee-fp -D_REENTRANT -fsigned-char".  The configuration's
# CFLAGS come after them on every compile line, so its -O, -march and -f
# options are the ones that count (what verify checks); -ffast-math stays,
# as it does in the distribution's libvorbis.
#
# The front end is linked by the compiler driver with $LDFLAGS as they are,
# so -static needs no libtool translation.  FLAGSCOPE_CONFIG_CACHE, when set,
# is an autoconf cache file for this build alone, shared by both configure
# runs (autoconf's cache variables are meant to be shared between packages;
# see bench/configure-cache.sh).
set -e
top=$PWD
conf() {
	src=$1
	shift
	"$src/configure" CC="$CC" CFLAGS="$CFLAGS" LDFLAGS="$LDFLAGS" \
		${HOST:+--host="$HOST" --build="$(cc -dumpmachine)"} \
		${FLAGSCOPE_CONFIG_CACHE:+--cache-file="$FLAGSCOPE_CONFIG_CACHE"} \
		--disable-shared --prefix="$top/prefix" "$@"
}
mkdir -p ogg vorbis
(cd ogg && conf "$SRC_libogg" && make -j"$JOBS" && make install)
# OGG_CFLAGS and OGG_LIBS name the libogg just built (pkg-config would find
# the system's, if libogg-dev is installed); -L -l, as a path to libogg.a
# would make libtool copy the archive into libvorbis.a
(cd vorbis && conf "$SRC" --disable-oggtest OGG_CFLAGS="-I$top/prefix/include" \
	OGG_LIBS="-L$top/prefix/lib -logg" && make -j"$JOBS" -C lib)
lib=vorbis/lib/.libs
$CC $CFLAGS -I"$SRC/include" -I"$top/prefix/include" -o oggvorbis "$RECIPE/oggvorbis.c" \
	$lib/libvorbisfile.a $lib/libvorbisenc.a $lib/libvorbis.a prefix/lib/libogg.a -lm $LDFLAGS
cp "$RECIPE/roundtrip.sh" roundtrip.sh
chmod +x roundtrip.sh
