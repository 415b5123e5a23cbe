#!/bin/bash
# bench/aa_layouts.sh [REPEAT] [LAYOUTS] [DIR] - the A/A proof of the
# layout-aware verdict (issue 27, doc/layout.md "A/A with layouts"): gcc
# -O2 against six builds that differ from it in code alignment only
# (-falign-loops=8/32, -falign-labels=8/16/32, -fno-align-loops: the same
# instructions, other addresses, a different binary for each of the four
# workloads), on crc32, nbody, sortmem and alias4k, every configuration
# built LAYOUTS times (layouts = N, default 3) and each build run REPEAT
# times (default 10) interleaved.  24 pairs whose true difference is
# layout and noise only; a verdict that holds its level calls at most 5%
# of them significant.
# Prints, for the wall time (`time`) and the CPU time (`user`) of the same
# runs: how many pairs report (the nested rule, compare reads the same)
# calls significant with the fixed 1% (--min-effect 1%), and, for
# contrast, how many the per-binary rule a study without layouts uses
# calls significant: each variant against the baseline's variant of the
# same number.  Counts and ratios only; it asserts nothing and times
# nothing.  Results are kept in DIR (default a fresh folder under /tmp): a
# DIR that holds the study resumes it.
# bench/aa_layouts.sh --pure [REPEAT] [LAYOUTS] [DIR]: the pure A/A study
# instead: gcc -O2 against run --noise-floor's copy of itself (the same
# code under two names, built and run apart, its layout variants of other
# seeds than -O2's), on eight bundled workloads whose parts are judged
# each (alias4k crc32 nbody sortmem libcbench memtouch ops lz4: about 50
# pairs a study).
set -euo pipefail
pure=
if [ "${1:-}" = --pure ]; then
	pure=1
	shift
fi
repeat=${1:-10}
layouts=${2:-3}
dir=${3:-$(mktemp -d /tmp/flagscope-aa.XXXXXX)}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${FLAGSCOPE_BIN:-$here/build/flagscope}
mkdir -p "$dir"
cd "$dir"
started=$(date +%s)
echo "bench/aa_layouts.sh: repeat $repeat, layouts $layouts, results in $dir;" \
	"$(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"

set -- # lib_it.sh's helpers only (an argument would make a scratch folder)
. "$here/tests/lib_it.sh"
if [ -n "$pure" ]; then
	aa_study aa.study aa "alias4k crc32 nbody sortmem libcbench memtouch ops lz4" "$repeat" "$layouts"
	"$bin" run aa.study --db r.db --noise-floor -q >/dev/null || true
else
	aa_study aa.study aa "crc32 nbody sortmem alias4k" "$repeat" "$layouts" l8=-falign-loops=8 \
		l32=-falign-loops=32 lab8=-falign-labels=8 lab16=-falign-labels=16 lab32=-falign-labels=32 \
		nol=-fno-align-loops
	"$bin" run aa.study --db r.db -q >/dev/null || true
fi
echo "runs: $(sqlite3 r.db "select count(*) from runs where study = 'aa' and rep >= 1 and status = 'ok'") ok;" \
	"layout variants rejected by the check (their side judged over fewer layouts):" \
	"$(sqlite3 r.db "select count(*) from facts where study = 'aa' and key like 'layout.%' and value like 'rejected:%'")" \
	"of $(sqlite3 r.db "select count(*) from facts where study = 'aa' and key like 'layout.%'")"
for m in time user; do
	"$bin" report --db r.db --study aa --metric $m --min-effect 1% --format json >nested-$m.json
	python3 "$here/bench/aa_count.py" nested-$m.json "nested rule, layouts $layouts, min-effect 1% ($m)"
	python3 "$here/bench/aa_count.py" --per-binary r.db aa $m
done
echo "elapsed $(( $(date +%s) - started )) s; load after: $(cut -d' ' -f1-3 /proc/loadavg)"
