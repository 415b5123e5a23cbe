#!/bin/bash
# bench/calibrate.sh [REPEAT] [DIR] - the A/A proof of `flagscope calibrate`
# (issue 27): calibrate this machine with the calibrate preset (crc32,
# nbody, sortmem, alias4k; REPEAT runs a build, default 10), then run a
# separate A/A study: gcc -O2 against eight other alignment-only builds of
# it and the baseline's copy (run --noise-floor), REPEAT runs each, on
# the same four workloads: 36 pairs whose true difference is layout and
# noise only.  Prints the calibration table, then how many of the pairs
# the verdict calls significant with the fixed 1% and with the calibrated
# floors (--min-effect auto), pairs whose builds are identical to the
# baseline's (the same runs) left out and counted.  It asserts nothing: a
# rule that holds its level calls at most 5% of them significant.
# Results are kept in DIR (default a fresh folder under /tmp).
set -euo pipefail
repeat=${1:-10}
dir=${2:-$(mktemp -d /tmp/flagscope-calibrate.XXXXXX)}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${FLAGSCOPE_BIN:-$here/build/flagscope}
mkdir -p "$dir"
cd "$dir"
echo "bench/calibrate.sh: results in $dir; $(lscpu | sed -n 's/^Model name: *//p'), load $(cut -d' ' -f1-3 /proc/loadavg)"

# a DIR that holds a calibration already keeps it (the A/A study resumes)
if [ -s r.db ] && [ "$(sqlite3 r.db 'select count(*) from calibrations' 2>/dev/null)" -gt 0 ]; then
	echo "keeping the calibration in $dir/r.db"
	sqlite3 -column -header r.db "select item, runs, builds, round(100 * noise, 2) as noise_log_pct,
		round(100 * layout, 2) as layout_log_pct, round(100 * floor, 2) as floor_pct,
		round(100 * aslr, 2) as aslr_log_pct, round(100 * env, 2) as env_pct,
		round(100 * spread, 2) as spread_pct from calibrations order by item"
else
	"$bin" calibrate --db r.db --repeat "$repeat" -q
fi

set -- # lib_it.sh's helpers only (an argument would make a scratch folder)
. "$here/tests/lib_it.sh"
aa_study aa.study aa "crc32 nbody sortmem alias4k" "$repeat" 1 f8=-falign-functions=8 \
	f128=-falign-functions=128 f256=-falign-functions=256 l16=-falign-loops=16 \
	l128=-falign-loops=128 l256=-falign-loops=256 j64=-falign-jumps=64 j128=-falign-jumps=128
"$bin" run aa.study --db r.db --repeat "$repeat" --noise-floor -q >/dev/null || true
# the same runs judged by CPU time too (user): a calibration of it costs
# no runs, every run's user time is stored already
"$bin" calibrate --db r.db --repeat "$repeat" --metric user -q
for m in time user; do
	"$bin" report --db r.db --study aa --metric $m --min-effect 1% --format json >fixed-$m.json
	"$bin" report --db r.db --study aa --metric $m --min-effect auto --format json >auto-$m.json
done

for m in time user; do
	python3 "$here/bench/aa_count.py" fixed-$m.json "$m, the fixed 1%"
	python3 "$here/bench/aa_count.py" auto-$m.json "$m, the calibrated floor"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
