# build.sh - upstream libc-bench, every .c file of its tree in one program,
# with the configuration's CC, CFLAGS and LDFLAGS.  Its Makefile's own
# defaults (-Os, -static) would replace the configuration's flags, so it is
# not used; what it adds that the sources need is kept: -D_XOPEN_SOURCE=700
# and -lpthread -lrt.  Environment as in doc/recipe-format.md.
set -e
$CC $CFLAGS -D_XOPEN_SOURCE=700 -o libc-bench "$SRC"/*.c $LDFLAGS -lpthread -lrt
cp "$RECIPE/libc-bench.sh" "$RECIPE/parse.sh" .
chmod +x libc-bench.sh
