#!/bin/bash
# it_run_options.sh - command-line typos of run and search are refused
# before anything builds (they were taken: `--meters "rusage perff"` ran
# the whole study without the misspelt meter, `--meters cachegrnd` one
# with no meter at all, ending "nothing ranked"; `--jobs 0`, `--repeat 0`
# and `--repeat -1` ran with a meaning nobody asked for); a --db that is
# a folder, or in a folder that does not exist, was told "check the folder
# is writable"; a mistyped --metric (or a study's metric =) ran the whole
# study and failed at ranking, exit 1, as did --meters perf (no time, the
# default metric).
# Expect: exit 2, one line naming the option, no build made.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_run_options
tiny_study t.study 2 "refused before it builds" O2 O1
printf '[space]\nflags = -funroll-loops\n' > t.space

# refused PATTERN CMD ARG...: exit 2, one line on stderr matching PATTERN, nothing built
refused() {
	local pat=$1 rc=0
	shift
	fs "$@" > out 2> err || rc=$?
	[ "$rc" = 2 ] || fail "$*: exit $rc, not 2: $(cat err)"
	[ "$(wc -l < err)" = 1 ] && grep -q -- "$pat" err || fail "$*: message: $(cat err)"
	[ ! -d cache/builds ] || fail "$*: built before refusing"
}
refused "^flagscope: --meters: unknown meter 'perff' (known: rusage " run t.study --meters "rusage perff"
refused "^flagscope: --meters: unknown meter 'cachegrnd' (known: " run t.study --dry-run --meters cachegrnd
for a in "--jobs 0" "--jobs -3" "--repeat 0" "--repeat -1"; do
	# shellcheck disable=SC2086
	refused "^flagscope: run: ${a%% *} needs a number of at least 1, not '${a#* }'" run t.study $a
done
for a in "--batch 0" "--jobs 0" "--repeat 0" "--minimise-repeat 0"; do
	# shellcheck disable=SC2086
	refused "^flagscope: search: ${a%% *} needs a number of at least 1" search t.study --space t.space $a
done
# the metrics a study can give are known before it builds: its meters',
# its recipes' metric.NAME, the build sizes; selectors as the ranking reads them
refused "^flagscope: --metric: study 't' gives no metric 'tiem' (its metrics: time, .*sum, mhz" run t.study --metric tiem -q
refused "^flagscope: --metric: study 't' gives no metric 'perf/cycles' " run t.study --metric perf/cycles --meters rusage -q
refused "^flagscope: --metric: study 't' gives no metric 'tiny/summ' " run t.study --metric tiny/summ -q
sed 's/^repeat = 2$/repeat = 2\nmetric = sun/' t.study > m.study
# its line, like every other key's (it had none)
refused "^flagscope: .*m.study:6: study 't' gives no metric 'sun' " run m.study -q
# natively only cachegrind counts instructions (qemu-insn comes with emulated runs)
refused "^flagscope: --metric: study 't' gives no metric 'insns' " run t.study --metric insns -q
for m in sum size.text mem.res perf/task-clock tiny tiny/sum; do
	fs run t.study --metric "$m" --dry-run > out 2> err || fail "--metric $m refused: $(cat err)"
done
fs run t.study --meters "rusage cachegrind" --metric insns --dry-run > out 2> err ||
	fail "--metric insns with cachegrind refused: $(cat err)"
# a recipe's metric belongs to its workload: tiny2 prints "total", not "sum"
mkdir -p workloads/tiny2
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny/." workloads/tiny2/
sed -i 's/^metric\.sum = ^sum/metric.total = ^sum/' workloads/tiny2/recipe.ini
sed 's/^workloads = tiny$/workloads = tiny tiny2/' t.study > two.study
refused "^flagscope: --metric: study 't' gives no metric 'tiny2/sum' (its metrics: .*, sum, mhz, total;" run two.study --metric tiny2/sum -q
refused "^flagscope: --metric: study 't' gives no metric 'tiny/total' " run two.study --metric tiny/total -q
for m in total tiny2/total tiny/sum sum; do
	fs run two.study --metric "$m" --dry-run > out 2> err || fail "two.study --metric $m refused: $(cat err)"
done
# the study's default metric too: --meters perf gives no time, so ranking by
# it would rank nothing after the whole study ran (exit 1)
refused "^flagscope: t.study: study 't' gives no metric 'time' (its default; pass --metric, or a meter" run t.study --meters perf -q
fs run t.study --meters perf --metric perf/task-clock --dry-run > out 2> err ||
	fail "--meters perf --metric perf/task-clock refused: $(cat err)"
# a hardware event perf cannot count here (a virtual machine's perf says
# "<not supported>") was taken, and every run then had no value: refused
# for native runs, naming the event and what to rank by instead; a
# machine with the counters takes it (checked where perf counts cycles)
if ! command -v perf >/dev/null; then
	echo "SKIP: perf/cycles probe: perf is not installed"
elif perf stat -x, -e cycles -- true 2>&1 | grep -q '<not supported>'; then
	refused "^flagscope: --metric: this machine does not count perf/cycles (perf stat says <not supported>: no hardware counters here); rank by perf/task-clock, time, or insns with --meters cachegrind" run t.study --metric perf/cycles -q
	refused "^flagscope: --metric: this machine does not count perf/instructions " run t.study --metric tiny/perf/instructions --dry-run
	sed 's/^repeat = 2$/repeat = 2\nmetric = perf\/branch-misses/' t.study > hw.study
	refused "^flagscope: .*hw.study:6: this machine does not count perf/branch-misses " run hw.study -q
	# and the list of metrics a mistyped one gets does not offer them
	fs run t.study --meters perf --metric perf/tsk-clock --dry-run > out 2> err && fail "perf/tsk-clock taken"
	grep -q "its metrics: perf/task-clock" err || fail "perf/tsk-clock: $(cat err)"
	! grep -q "perf/cycles" err || fail "the metric list offers perf/cycles, which this machine does not count: $(cat err)"
	echo "SKIP: perf/cycles accepted where counted: this machine has no hardware counters (perf says <not supported>)"
else
	fs run t.study --metric perf/cycles --dry-run > out 2> err || fail "--metric perf/cycles refused where perf counts cycles: $(cat err)"
	echo "SKIP: perf/cycles refused without counters: this machine has them"
fi
# search's objectives are a fixed few: named when one is mistyped
refused "^flagscope: search: --metric does not take 'tiem' (it takes: time, insns" search t.study --space t.space --metric tiem
mkdir folder
refused "^flagscope: folder: cannot open results database: .*(it is a folder: pass the path of a file)" run t.study --db folder -q
refused "^flagscope: no/x.db: cannot open results database: .*(its folder does not exist: make it" run t.study --db no/x.db -q
# nothing is ranked after --build-only: its default metric is not asked for
fs run t.study --meters perf --build-only -q > out 2> err || fail "--build-only --meters perf: $(cat err)"
echo "ok - unknown meters and metrics, counts below 1 and a --db that is a folder or in none are refused before building: exit 2, one line"
rm -rf "$T"
