#!/bin/sh
# roundtrip.sh FLAC WAV - FLAC's round trip with this build's flac (FLAC):
# encode WAV at -8, decode the stream, compare the decoded file with WAV byte
# for byte (flac writes the same canonical 44-byte header genwav.c does, so
# equal files mean equal PCM).  One line on stdout (roundtrip.expected); exit
# 1 on a difference.  The files go in the current (run) folder and are
# removed.  Runs natively also in a cross-built configuration: flac starts
# through $EMU (empty natively; see doc/recipe-format.md).
set -e
$EMU "$1" -8 --silent --no-seektable -f -o roundtrip.flac "$2"
$EMU "$1" --silent -d -f -o roundtrip.wav roundtrip.flac
if cmp -s roundtrip.wav "$2"; then
	echo "-8: decode(encode(signal.wav)) == signal.wav"
	rm -f roundtrip.flac roundtrip.wav
else
	echo "-8: the decoded PCM differs from signal.wav"
	rm -f roundtrip.flac roundtrip.wav
	exit 1
fi
