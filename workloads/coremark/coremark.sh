#!/bin/sh
# coremark.sh PROGRAM SEED1 SEED2 SEED3 ITERATIONS EXECS ... - one CoreMark
# run of PROGRAM (coremark or coremark-mt, next to this script), with its
# output split so that stdout is deterministic:
#   stdout  CoreMark's lines that do not depend on time or on the iteration
#           count: the run kind ("2K performance run parameters ..."),
#           "CoreMark Size", "Parallel PThreads : N", seedcrc, each
#           context's crclist/crcmatrix/crcstate (CoreMark checks them
#           against its known values), any "ERROR!" line, and the verdict
#           "Correct operation validated. ..." (or "Errors detected")
#   stderr  CoreMark's whole output (ticks, seconds, Iterations/Sec, the
#           iteration count, crcfinal -- which folds in every iteration, so
#           it changes with the count CoreMark picks --, compiler and
#           flags), then the lines this script derives:
#             "Seconds per 1000 iterations : S"  (1000 / Iterations/Sec)
#             "CPU MHz : M" and "CoreMark/MHz : X" when /proc/cpuinfo has a
#             "cpu MHz" line (the first CPU's), else "CPU MHz : unknown"
#   exit    0 when CoreMark printed "Correct operation validated", else 1
# With ITERATIONS 0, CoreMark picks a count that runs at least 10 s (its
# reporting rule: shorter runs are not validated).
here=$(cd "$(dirname "$0")" && pwd) || exit 2
prog=$1
shift
"$here/$prog" "$@" >coremark.log 2>&1
status=$?
cat coremark.log >&2
if [ "$status" != 0 ]; then
	echo "coremark.sh: $prog exited with status $status" >&2
	exit "$status"
fi
ips=$(sed -n 's/^Iterations\/Sec *: *\([0-9.]*\).*/\1/p' coremark.log)
if [ -n "$ips" ]; then
	awk -v ips="$ips" 'BEGIN { if (ips > 0) printf "Seconds per 1000 iterations : %.6f\n", 1000 / ips }' >&2
	mhz=$(awk -F: '/^cpu MHz/ { print $2 + 0; exit }' /proc/cpuinfo 2>/dev/null)
	if [ -n "$mhz" ] && [ "$mhz" != 0 ]; then
		awk -v ips="$ips" -v mhz="$mhz" 'BEGIN { printf "CPU MHz : %.3f\nCoreMark/MHz : %.4f\n", mhz, ips / mhz }' >&2
	else
		echo "CPU MHz : unknown (no cpu MHz line in /proc/cpuinfo): no CoreMark/MHz" >&2
	fi
fi
grep -E '^(2K|6k|Profile) .*parameters|^CoreMark Size|^Parallel |^seedcrc|^\[[0-9]+\]crc(list|matrix|state) |ERROR!|^Correct operation validated|^Errors detected|^Cannot validate' coremark.log
grep -q '^Correct operation validated' coremark.log || {
	echo "coremark.sh: CoreMark did not validate its results" >&2
	exit 1
}
exit 0
