#!/bin/sh
# roundtrip.sh CORPUS PROGRAM OPTION... - the round trip of a compressor
# this build made: for each OPTION (a level: -6, -19, --best), PROGRAM
# OPTION -c compresses CORPUS, PROGRAM -d -c decompresses that, and cmp
# compares the result with CORPUS byte for byte.  One line per OPTION on
# stdout (the recipe's roundtrip.expected); exit 1 on a difference.  The
# compressed file goes in the current (run) folder and is removed.
#
# Shared by the compressor recipes: gzip, lz4, zstd, xz and bzip2 all take
# -LEVEL -c and -d -c between stdin and stdout.  gzip's build.sh copies it
# into the build folder; lz4, zstd, xz and bzip2 hold a symlink to this
# file and their [input] scripts copy it into the input folder (their
# builds are `system = make` or `autotools`, which copy nothing of the
# recipe).
#
# The script itself runs natively, also in a cross-built configuration:
# PROGRAM starts through $EMU, which flagscope sets to a command running it
# under QEMU on the study's CPU model and counting its instructions (empty
# natively; see doc/recipe-format.md).  cmp runs natively and is not counted.
set -e
if [ $# -lt 3 ]; then
	echo "usage: roundtrip.sh CORPUS PROGRAM OPTION..." >&2
	exit 2
fi
corpus=$1 prog=$2
shift 2
for opt in "$@"; do
	$EMU "$prog" "$opt" -c <"$corpus" >roundtrip.z
	if $EMU "$prog" -d -c <roundtrip.z | cmp -s - "$corpus"; then
		echo "$opt: decompress(compress(corpus)) == corpus"
	else
		echo "$opt: the round trip differs from the corpus"
		rm -f roundtrip.z
		exit 1
	fi
done
rm -f roundtrip.z
