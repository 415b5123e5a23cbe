#!/bin/sh
# libc-bench.sh NAME - run libc-bench (all of it: its main takes no
# arguments and forks once per benchmark) in the current directory and
# report NAME's figures through parse.sh.  libc-bench's own output, with its
# timings, goes to stderr (never compared); stdout is parse.sh's "NAME ok".
here=$(dirname "$0")
"$here/libc-bench" > libc-bench.out || {
	echo "libc-bench.sh: libc-bench exited with status $?" >&2
	exit 1
}
cat libc-bench.out >&2
exec sh "$here/parse.sh" "$1" < libc-bench.out
