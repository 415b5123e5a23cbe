#!/bin/sh
# unixbench.sh SECONDS SHELL_SECONDS - the UnixBench index tests, one pass
# each, one copy, run the way UnixBench's Run runs them but with the
# durations given here (Run: 10 or 30 s per test, 60 s for the shell
# scripts, 3 or 10 passes each; flagscope repeats the whole set instead).
#
# Each test runs in ./work (a copy of UnixBench's testdir) with UB_BINDIR
# set to the programs' folder, as Run does, and prints "COUNT|n|base|unit"
# (and for some "TIME|s") on stderr.  Its score is computed as Run computes
# a pass: n / (time / base) when base > 0, else n, where time is the
# test's TIME line or else its elapsed wall time.  The index of a test is
# score / baseline * 10 with the baseline from UnixBench's pgms/index.base;
# the overall index is 10 times the geometric mean of score / baseline.
#
#   stdout  one line per test: "<name>: ok (<unit>)" when the program exited
#           0 and reported a count (and, for Whetstone, did not say "Wrong
#           answer"), else "<name>: FAILED ..."; then "index: ok (N tests)".
#           Deterministic, compared with the baseline configuration's.
#   stderr  "<name> score: S <unit> (index I)" per test, then
#           "index score: X" -- the metrics the recipe reads -- and every
#           program's own output.
#   exit    0 when every test passed, else 1.
#
# Tests (Run's names and arguments; SECONDS replaces Run's durations, the
# Whetstone program times itself for 10 s):
#   dhry2reg          Dhrystone 2 using register variables    dhry2reg S
#   whetstone-double  Double-Precision Whetstone              whetstone-double
#   execl             Execl Throughput                        execl S
#   fstime            File Copy 1024 bufsize 2000 maxblocks   fstime -c -t S -b 1024 -m 2000
#   fsbuffer          File Copy 256 bufsize 500 maxblocks     fstime -c -t S -b 256 -m 500
#   fsdisk            File Copy 4096 bufsize 8000 maxblocks   fstime -c -t S -b 4096 -m 8000
#   pipe              Pipe Throughput                         pipe S
#   context1          Pipe-based Context Switching            context1 S
#   spawn             Process Creation                        spawn S
#   syscall           System Call Overhead                    syscall S
#   shell1            Shell Scripts (1 concurrent)            looper SH multi.sh 1
#   shell8            Shell Scripts (8 concurrent)            looper SH multi.sh 8
# (fstime sleeps about 11 s of its own around each copy test to let the
# file system settle; Run's tests do the same.)
set -u
secs=${1:?usage: unixbench.sh SECONDS SHELL_SECONDS}
shsecs=${2:?usage: unixbench.sh SECONDS SHELL_SECONDS}
here=$(cd "$(dirname "$0")" && pwd) || exit 2
ub=$here/ub
pgms=$ub/pgms
base=$pgms/index.base
run=$PWD
export UB_BINDIR="$pgms"
# Run sets LANG so that the shell tests' sort behaves the same everywhere
export LANG=en_US.utf8
unset LC_ALL LC_COLLATE LC_CTYPE

rm -rf work tmp
mkdir work tmp
cp -R "$ub/testdir/." work/

now() { date +%s.%N; }

failures=0
# one NAME PROGRAM ARGS...: run a test, print its stdout line, keep its
# score in scores.txt as "NAME SCORE UNIT"
one() {
	name=$1
	shift
	start=$(now)
	(cd "$run/work" && "$@") >"$run/$name.out" 2>"$run/$name.err"
	status=$?
	end=$(now)
	cat "$run/$name.out" "$run/$name.err" >&2
	line=$(awk -F'|' -v name="$name" -v start="$start" -v end="$end" -v status="$status" '
		$1 == "COUNT" && NF >= 4 { count = $2; tb = $3; unit = $4; have = 1 }
		$1 == "TIME" && NF >= 2 { t = $2 }
		END {
			if (status != 0) { printf "FAILED exit status %d\n", status; exit }
			if (!have) { print "FAILED no COUNT line"; exit }
			if (t == "") t = end - start
			if (tb > 0 && t > 0) score = count / (t / tb)
			else score = count
			printf "%s %.6f %s\n", name, score, unit
		}' "$run/$name.err")
	if [ "$name" = whetstone-double ] && grep -q 'Wrong answer' "$run/$name.out"; then
		line="FAILED Wrong answer"
	fi
	case $line in
	FAILED*)
		echo "$name: $line"
		failures=$((failures + 1))
		;;
	*)
		echo "$line" >>"$run/scores.txt"
		echo "$name: ok (${line##* })"
		;;
	esac
}

: >"$run/scores.txt"
one dhry2reg "$pgms/dhry2reg" "$secs"
one whetstone-double "$pgms/whetstone-double"
one execl "$pgms/execl" "$secs"
one fstime "$pgms/fstime" -c -t "$secs" -d "$run/tmp" -b 1024 -m 2000
one fsbuffer "$pgms/fstime" -c -t "$secs" -d "$run/tmp" -b 256 -m 500
one fsdisk "$pgms/fstime" -c -t "$secs" -d "$run/tmp" -b 4096 -m 8000
one pipe "$pgms/pipe" "$secs"
one context1 "$pgms/context1" "$secs"
one spawn "$pgms/spawn" "$secs"
one syscall "$pgms/syscall" "$secs"
one shell1 "$pgms/looper" "$shsecs" "$pgms/multi.sh" 1
one shell8 "$pgms/looper" "$shsecs" "$pgms/multi.sh" 8

# scores against index.base ("name|time|unit|sum|score|iterations", #
# comments), Run's indexResults()
awk -F'|' '
	FNR == NR {
		sub(/#.*/, "")
		if (NF >= 5 && $1 != "") baseline[$1] = $5
		next
	}
	{
		split($0, f, " ")
		name = f[1]; score = f[2]; unit = f[3]
		if (!(name in baseline) || baseline[name] <= 0) {
			printf "%s score: %.3f %s (not in index.base)\n", name, score, unit
			missing++
			next
		}
		ratio = score / baseline[name]
		printf "%s score: %.3f %s (index %.1f)\n", name, score, unit, ratio * 10
		if (ratio > 0.000001) sum += log(ratio)
		n++
	}
	END {
		if (n > 0) printf "index score: %.3f (%d tests)\n", exp(sum / n) * 10, n
		if (missing) exit 1
	}' "$base" "$run/scores.txt" >"$run/index.txt" || failures=$((failures + 1))
cat "$run/index.txt" >&2
n=$(sed -n 's/^index score: .*(\([0-9]*\) tests)$/\1/p' "$run/index.txt")
if [ "$failures" = 0 ] && [ -n "$n" ]; then
	echo "index: ok ($n tests)"
	exit 0
fi
echo "index: FAILED ($failures test(s) failed or missing from index.base)"
exit 1
