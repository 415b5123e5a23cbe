#!/bin/bash
# local-fingerprint.sh - what a local: tree's fingerprint costs a study: the
# time of `flagscope run --dry-run` (which fetches every source, so a
# local: tree is read for its build key) of a one-workload study whose
# source is local:TREE, for one or two flagscope binaries side by side,
# and the same study with a bundled source (the rest of a dry run).
#
# Usage: bench/local-fingerprint.sh TREE FLAGSCOPE [FLAGSCOPE...]
#   TREE       an unpacked source tree, e.g. Debian's clamav
#   FLAGSCOPE  a flagscope binary (e.g. one built from main, and this one)
# Env: N (default 5) runs each, interleaved; the median is printed.  The
# tree is read once before timing, so the times are of a tree in the page
# cache (a tree just edited is); a cold read adds the disk's time for the
# tree's size.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,/^set/p' "$0" | sed '$d'; exit 2; }
tree=$(cd "$1" && pwd)
shift
n=${N:-5}
tmp=$(mktemp -d /tmp/local-fingerprint.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/workloads/lt" "$tmp/workloads/bt"
for w in lt bt; do
	src="local:$tree"
	[ $w = bt ] && src=bundled
	cat >"$tmp/workloads/$w/recipe.ini" <<EOF
; $w: the fingerprint bench's recipe (never built)
[workload]
description = fingerprint bench
source = $src
[build]
script = true
binaries = prog
[run]
args = prog
EOF
	printf '[study]\nname = %s\nworkloads = %s\nrepeat = 1\n[axis opt]\nO2 = -O2\n' \
		$w $w >"$tmp/$w.study"
done
export FLAGSCOPE_CACHE=$tmp/cache
find "$tree" -type f -print0 | xargs -0 cat >/dev/null
echo "tree: $tree, $(find "$tree" -type f | wc -l) files, $(du -sh "$tree" | cut -f1)"

# one timed dry run: seconds
once() { # BIN STUDY
	local s e
	s=$(date +%s.%N)
	"$1" run "$2" --dry-run --db "$tmp/x.db" >/dev/null 2>"$tmp/err" ||
		{ echo "$1 $2: $(tail -2 "$tmp/err")" >&2; exit 1; }
	e=$(date +%s.%N)
	rm -f "$tmp/x.db"
	echo "$e - $s" | bc
}
median() { sort -n | awk '{v[NR] = $1} END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

declare -A t
for ((i = 0; i < n; i++)); do
	for b in "$@"; do
		for w in lt bt; do
			t[$b.$w]+="$(once "$b" "$tmp/$w.study") "
		done
	done
done
printf '%-50s %12s %12s %10s\n' "flagscope" "local: (s)" "bundled (s)" "ratio"
for b in "$@"; do
	l=$(tr ' ' '\n' <<<"${t[$b.lt]}" | grep . | median)
	u=$(tr ' ' '\n' <<<"${t[$b.bt]}" | grep . | median)
	printf '%-50s %12.3f %12.3f %10.1f\n' "$b" "$l" "$u" "$(echo "$l / $u" | bc -l)"
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores; $n runs each, medians"
