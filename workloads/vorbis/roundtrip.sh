#!/bin/sh
# roundtrip.sh WAV - Vorbis's round trip with this build's oggvorbis (the one
# beside this script): encode WAV at an average 128 kbit/s, decode the
# stream into decoded.wav (the run's output, compared with the baseline's
# and, when it differs, accepted by the recipe's SNR tolerance).  The Ogg
# file goes in the current (run) folder and is removed.  Runs natively also
# in a cross-built configuration: oggvorbis starts through $EMU (empty
# natively; see doc/recipe-format.md).
set -e
ov=$(dirname "$0")/oggvorbis
$EMU "$ov" enc 128 "$1" roundtrip.ogg
$EMU "$ov" dec roundtrip.ogg decoded.wav
rm -f roundtrip.ogg
