#!/bin/sh
# scan.sh IN - the clamav workload's run: clamscan (the one built next to
# this script) scans IN/tree recursively, offline, with only the databases
# in IN/sigs, and prints the detections sorted (clamscan prints them in
# directory order, which the file system decides).
#   stdout  "tree/PATH: NAME FOUND" lines, sorted bytewise
#   exit    0 when clamscan exits 0 (nothing found) or 1 (found something);
#           clamscan's own status otherwise (2: an error)
# Paths are made relative to IN (clamscan prints them absolute), so the
# output does not depend on where the input folder is.
build=$(cd "$(dirname "$0")" && pwd) || exit 2
run=$PWD
cd "$1" || exit 2
status=0
"$build/clamscan/clamscan" --no-summary --infected --recursive \
	--database=sigs tree >"$run/detections.raw" || status=$?
[ "$status" -le 1 ] || exit "$status"
# clamscan prints each path made absolute (and resolved): cut IN off
awk -v p1="$(pwd -P)/" -v p2="$PWD/" '{
	if (index($0, p1) == 1) $0 = substr($0, length(p1) + 1)
	else if (index($0, p2) == 1) $0 = substr($0, length(p2) + 1)
	print
}' "$run/detections.raw" | LC_ALL=C sort
