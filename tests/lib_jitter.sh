# lib_jitter.sh - sourced by tests of repeat = stable on the fixture
# jitter (a metric `drawn` of controlled noise, tests/fixtures/workloads/
# jitter); after lib_it.sh.  Copies jitter into the test's home and
# defines jitter_study NAME EXTRA-LINES LEVEL...: writes NAME.study, ranked
# by drawn with the rusage meter, baseline a, the [study] lines EXTRA-LINES
# and one axis opt of the levels ("a = -O2 -DFACTOR=100", ...).
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/jitter" home/workloads/
jitter_study() {
	local name=$1 extra=$2
	shift 2
	{
		echo "; expect: the groups the levels' factors make (${0##*/})"
		printf '[study]\nname = %s\nworkloads = jitter\nmetric = drawn\nmeters = rusage\nbaseline = a\n' "$name"
		[ -z "$extra" ] || echo "$extra"
		echo "[axis opt]"
		printf '%s\n' "$@"
	} > "$name.study"
}
