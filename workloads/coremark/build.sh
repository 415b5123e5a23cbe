# build.sh - CoreMark with its own Makefile (the `linux` port, which at the
# pinned commit is the POSIX port: clock_gettime timing, seeds from argv,
# data on the heap), twice in this build directory:
#   coremark     one context
#   coremark-mt  four contexts on POSIX threads (-DMULTITHREAD=4 -DUSE_PTHREAD)
# Environment as in doc/recipe-format.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS.
#
# Flags: CoreMark compiles every unit in one command,
#   $(CC) $(CFLAGS) $(XCFLAGS) <sources> -o coremark.exe $(LFLAGS_END)
# with CFLAGS = $(PORT_CFLAGS) -I... -DFLAGS_STR=... and PORT_CFLAGS = -O2 in
# the port's core_portme.mak.  PORT_CFLAGS on make's command line replaces
# that -O2 with exactly $CFLAGS, so the configuration's flags are the only
# optimisation flags of every unit; XCFLAGS carries only the multithreading
# defines.  LFLAGS_END on the command line keeps the port's -lrt and adds
# $LDFLAGS (-static reaches the link: CoreMark links with the compiler
# driver).  ITERATIONS stays 0 (CoreMark picks the count itself).
#
# The source is copied (it is small): CoreMark's Makefile works in its own
# folder (vpath, relative -I) and writes coremark.exe there.
set -e
for variant in st mt; do
	rm -rf "src-$variant"
	cp -R "$SRC/." "src-$variant"
	rm -rf "src-$variant/.git" # a local: tree may be a clone
	case $variant in
	st) xcflags= ;;
	mt) xcflags="-DMULTITHREAD=4 -DUSE_PTHREAD -pthread" ;;
	esac
	make -C "src-$variant" PORT_DIR=linux CC="$CC" PORT_CFLAGS="$CFLAGS" \
		XCFLAGS="$xcflags" LFLAGS_END="-lrt $LDFLAGS" link
done
cp src-st/coremark.exe coremark
cp src-mt/coremark.exe coremark-mt
cp "$RECIPE/coremark.sh" coremark.sh
chmod +x coremark.sh
