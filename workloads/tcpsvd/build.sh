# build.sh - tcpsvd from ipsvd's upstream tree in $SRC, built out of tree
# (the cached source is shared and never written: its src/ folder is copied,
# about 300 small files).
# Environment as in doc/recipe-format.md: CC CFLAGS LDFLAGS SRC RECIPE JOBS.
#
# ipsvd builds the djb way: conf-cc's first line is the command that
# compiles every unit (package/compile turns it into ./compile), conf-ld's
# the command that links (./load).  Writing them from the configuration is
# what gives every unit, and the feature probes (choose, trylib), exactly
# $CC $CFLAGS.  The link gets $CFLAGS too, as an autotools link does, so
# link-time flags such as -flto or -fprofile-generate reach it.  Upstream's
# conf-ld adds -s; it is left out so the binary keeps the symbols and
# recorded switches `flagscope verify` reads.
set -e

tree=
for d in "$SRC/src" "$SRC"/*/src; do
	if [ -f "$d/tcpsvd.c" ]; then
		tree=$d
		break
	fi
done
if [ -z "$tree" ]; then
	echo "build.sh: no src/tcpsvd.c under $SRC (is this ipsvd's source?)" >&2
	exit 1
fi

cp -R "$tree" src
echo "$CC $CFLAGS" >src/conf-cc
echo "$CC $CFLAGS $LDFLAGS" >src/conf-ld
# tcpsvd alone: udpsvd, ipsvd-cdb and the SSL programs are not measured.
(cd src && make -j"$JOBS" tcpsvd)
cp src/tcpsvd tcpsvd
