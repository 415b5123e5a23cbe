#!/bin/bash
# it_power_layouts: run's "too few runs" warning (doc/flagscope-run.md) is
# Mann-Whitney's bound on the runs a side; with layouts = 2 or more the
# layouts are the units (Welch's test on their medians, doc/layout.md) and
# 3 runs a layout can be significant, so the dry run says no such line;
# the report's rule names the test that judges (Welch, not the bootstrap).
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_power_layouts
count_failures

tiny_study one.study 3 "one layout: the dry run warns that 3 runs a side cannot be significant" O2 O0
fs run one.study --db one.db --dry-run >one.out 2>one.err || fail "layouts = 1 dry run: $(tail -2 one.err)"
grep -q "^flagscope: warning: one.study:[0-9]*: repeat = 3: with 3 runs a side no workload can be significant" one.err ||
	fail "layouts = 1, repeat = 3: no power warning: $(cat one.err)"

tiny_study three.study 3 "3 layouts: no power warning, the rule says Welch" O2 O0
sed -i 's/^repeat = 3$/repeat = 3\nlayouts = 3\nmeters = rusage/' three.study
fs run three.study --db three.db --dry-run >three.out 2>three.err || fail "layouts = 3 dry run: $(tail -2 three.err)"
grep -q "no workload can be significant" three.err &&
	fail "layouts = 3, repeat = 3: warned by the Mann-Whitney bound: $(grep significant three.err)"
grep -q "O2 \[layout 2\]" three.out || fail "layouts = 3: the dry run lists no variant: $(head -5 three.out)"
if fs run three.study --db three.db >run.out 2>run.err; then
	grep -q "significant when Welch's t test on the logs of the layouts' medians" run.out ||
		fail "the report's rule does not name Welch's test: $(grep -i layouts run.out)"
else
	grep -q "ld.lld\|-fuse-ld=lld" run.err || fail "layouts = 3 run: $(tail -3 run.err)"
	echo "no lld: the report's rule is not checked"
fi
finish_counted
