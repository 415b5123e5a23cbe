#!/bin/sh
# speedtest.sh SIZE - SQLite's speedtest1 (the one beside this script) on an
# in-memory database at --size SIZE with --verify, its output split:
#   stdout  what does not depend on time: the header, each test's number and
#           name, and "Verification Hash: BYTES HASH" (the count and a hash of
#           every result row the tests read back), compared with the baseline
#   stderr  speedtest1's own output as it printed it, with its per-test and
#           TOTAL wall times
# Exit status: speedtest1's.  The script runs natively also in a cross-built
# configuration: speedtest1 starts through $EMU (empty natively; see
# doc/recipe-format.md).
set -e
$EMU "$(dirname "$0")/speedtest1" --verify --memdb --size "$1" speedtest.db >speedtest.log
cat speedtest.log >&2
sed -E 's/ +[0-9]+\.[0-9]+s$//' speedtest.log
rm -f speedtest.log
