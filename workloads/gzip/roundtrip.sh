#!/bin/sh
# roundtrip.sh CORPUS - the round trip with this build's gzip (the one
# beside this script): compress at -6 and at -9, decompress, compare with
# CORPUS byte for byte.  One line per level on stdout (roundtrip.expected);
# exit 1 on a difference.  The compressed file goes in the current (run)
# folder and is removed.
#
# The script itself runs natively, also in a cross-built configuration:
# gzip starts through $EMU, which flagscope sets to a command running it
# under QEMU on the study's CPU model and counting its instructions (empty
# natively; see workloads/README.md).  cmp runs natively and is not counted.
set -e
gz=$(dirname "$0")/gzip
for level in 6 9; do
	$EMU "$gz" -"$level" -n -c <"$1" >roundtrip.gz
	if $EMU "$gz" -d -c <roundtrip.gz | cmp -s - "$1"; then
		echo "-$level: decompress(compress(corpus)) == corpus"
	else
		echo "-$level: the round trip differs from the corpus"
		rm -f roundtrip.gz
		exit 1
	fi
done
rm -f roundtrip.gz
