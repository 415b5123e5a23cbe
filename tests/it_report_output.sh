#!/bin/bash
# it_report_output.sh - report -o FILE writes the report there instead of
# stdout, in every format and with --pivot, and so do recommend (its
# single-file formats) and compare; a path that cannot be written exits 2,
# and a report that fails writes no file; an option the output would
# ignore (--memory without a pivot, lnt with --pivot or --metric,
# --pareto with csv or a pivot) is refused; -o never overwrites a results
# database or a study file (search says so before it searches); a
# baseline name that cannot read back (a
# space, a slash) is refused.  --pivot with a
# --metric selector pivots that metric over those items only.
# Expected: each file equals what stdout gets without -o; stdout stays empty.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_report_output

tiny_study two.study 2 "both ok and ranked" O2 O1
fs run two.study -q > /dev/null

for f in table csv json html lnt; do
	fs report -f $f > want.$f
	fs report -f $f -o got.$f > stdout.$f
	[ -s got.$f ] || fail "report -f $f -o wrote nothing"
	[ ! -s stdout.$f ] || fail "report -f $f -o must not print the report on stdout too"
	cmp -s want.$f got.$f || fail "report -f $f -o differs from its stdout: $(diff want.$f got.$f | head -3)"
done
fs report --pivot opt -f csv > want.pivot
fs report --pivot opt -f csv --output got.pivot > stdout.pivot
cmp -s want.pivot got.pivot && [ ! -s stdout.pivot ] || fail "report --pivot -o must write the pivot there"

for f in make.conf shell json; do
	fs recommend -f $f > want.rec.$f
	fs recommend -f $f -o got.rec.$f > stdout.rec.$f || fail "recommend -f $f -o FILE failed"
	cmp -s want.rec.$f got.rec.$f && [ ! -s stdout.rec.$f ] ||
		fail "recommend -f $f -o must write it there: $(head -3 got.rec.$f)"
done
set +e; fs compare --baseline O2 --candidate O1 -f json > want.cmp; want=$?
fs compare --baseline O2 --candidate O1 -f json -o got.cmp > stdout.cmp; got=$?; set -e
[ "$want" = "$got" ] && [ "$got" != 2 ] && cmp -s want.cmp got.cmp && [ ! -s stdout.cmp ] ||
	fail "compare -o must write it there with the same exit status ($want, $got)"
set +e; fs recommend -o no/such/dir/m.conf 2> bad.err; rc=$?; set -e
[ "$rc" = 2 ] && grep -q "^flagscope: no/such/dir/m.conf: cannot write the output" bad.err ||
	fail "recommend to an unwritable path must exit 2 and say so, got $rc: $(cat bad.err)"

set +e; fs report -o no/such/dir/r.txt 2> bad.err; rc=$?; set -e
[ "$rc" = 2 ] && grep -q "^flagscope: no/such/dir/r.txt: cannot write the output" bad.err ||
	fail "an unwritable path must exit 2 and say so, got $rc: $(cat bad.err)"
set +e; fs report -m nosuchmetric -o failed.txt 2> /dev/null; rc=$?; set -e
[ "$rc" = 2 ] && [ ! -e failed.txt ] || fail "a report that fails must write no file (rc $rc)"

# --pivot takes --metric selectors: the selected metric over the selected items
fs report --pivot opt --metric tiny/sum > sel.txt
grep -q "^metric sum over tiny, " sel.txt || fail "--pivot --metric tiny/sum: $(head -2 sel.txt)"
set +e; fs report --pivot opt --metric tiny/nosuch > /dev/null 2> sel.err; rc=$?; set -e
[ "$rc" = 2 ] && grep -q "tiny/nosuch: workload tiny has no run or metric 'nosuch'" sel.err ||
	fail "a selector naming nothing must be refused with --pivot, got $rc"
# -o naming a results database (a slip: -o flagscope.db) never overwrites it
for cmd in report recommend "compare --baseline O2 --candidate O1"; do
	set +e; fs $cmd -o flagscope.db > db.out 2> db.err; rc=$?; set -e
	[ "$rc" = 2 ] && grep -q "flagscope.db: is a results database" db.err ||
		fail "$cmd -o flagscope.db: rc $rc: $(cat db.err)"
	fs report > /dev/null || fail "$cmd -o flagscope.db destroyed the database"
done
# -o naming a study file (a slip: -o two.study) never overwrites it: a
# *.study name, or any file that reads as a study (a [study] section)
cp two.study copy.txt
for cmd in report recommend "compare --baseline O2 --candidate O1"; do
	for target in two.study copy.txt new.study; do
		set +e; fs $cmd -o $target > st.out 2> st.err; rc=$?; set -e
		[ "$rc" = 2 ] && [ "$(wc -l < st.err)" = 1 ] && grep -q "$target: .*study" st.err ||
			fail "$cmd -o $target: want one line and exit 2, got $rc: $(cat st.err)"
	done
	cmp -s two.study copy.txt && [ ! -e new.study ] || fail "$cmd -o wrote over a study file"
done
# search refuses it before it searches (its -o is written at the end)
set +e; fs search two.study --budget 1 -o copy.txt > se.out 2> se.err; rc=$?; set -e
[ "$rc" = 2 ] && [ ! -s se.out ] && [ "$(wc -l < se.err)" = 1 ] && grep -q "copy.txt: is a study file" se.err &&
	cmp -s two.study copy.txt || fail "search -o copy.txt: rc $rc: $(cat se.err)"
# a baseline name must read back (report --study baseline:NAME, baseline
# list): a space or a slash is refused in one line, the database untouched
for name in "a b" "a/b" "-x"; do
	set +e; fs baseline save --keep -- "$name" > bn.out 2> bn.err; rc=$?; set -e
	[ "$rc" = 2 ] && [ "$(wc -l < bn.err)" = 1 ] && grep -q "baseline name" bn.err ||
		fail "baseline save '$name': want one line and exit 2, got $rc: $(cat bn.err bn.out)"
done
fs baseline list | grep -q "^no baselines" || fail "a refused name was saved: $(fs baseline list)"
fs baseline save --keep gcc-12.2_O2 > /dev/null || fail "baseline save gcc-12.2_O2 refused"
fs baseline delete gcc-12.2_O2 > /dev/null
# a --pareto metric the study never stored is refused (a typo), not warned
set +e; fs report --pareto time,mem.rss > par.out 2> par.err; rc=$?; set -e
[ "$rc" = 2 ] && [ ! -s par.out ] && grep -q "^flagscope: report: --pareto: mem.rss: " par.err ||
	fail "--pareto time,mem.rss: want one line and exit 2, got $rc: $(cat par.err)"
# options that the chosen output would ignore are refused, not dropped
for args in "--memory mem.virt,mem.res,mem.dirty" "--pivot distro --memory a,b,c" \
	"-f lnt --pivot opt" "-f lnt --metric tiny" "-f csv --pareto time,size.text" \
	"--pivot opt --pareto time,size.text"; do
	set +e; fs report $args > ign.out 2> ign.err; rc=$?; set -e
	[ "$rc" = 2 ] && [ ! -s ign.out ] && [ "$(wc -l < ign.err)" = 1 ] ||
		fail "report $args: want one line and exit 2, got $rc: $(cat ign.err ign.out | head -3)"
done
echo "PASS it_report_output"
