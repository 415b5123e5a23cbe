#!/bin/bash
# it_input_retry.sh - issue 26 "a failed [input] script is stored as a
# permanent run_failed".  Expect: while tiny's [input] script fails, its
# runs are stored input_failed (not run_failed: nothing ran), the study
# says it is incomplete; once the script is fixed (here: the file it needs
# exists) the next `run` makes every run, all ok, and the study is
# complete.  Before this the runs stayed run_failed for good.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_input_retry

printf '[input]\nscript = test -e %s/input.ok\n' "$T" >> home/workloads/tiny/recipe.ini
tiny_study retry.study 2 "input_failed until input.ok exists, then every run ok" O2 O1
fs run retry.study --db retry.db > first.txt 2> first.err || true
st=$(sql retry.db "select group_concat(distinct status) from runs where rep>=1")
[ "$st" = input_failed ] || fail "with the [input] script failing the runs are '$st', want input_failed"
fs report --db retry.db > /dev/null 2> report1.err || true
grep -q "study retry is incomplete: 0 of 4 runs" report1.err ||
	fail "report does not say the study is incomplete: $(cat report1.err)"
ok "a failed [input] script: runs stored input_failed, the study incomplete"

touch input.ok
fs run retry.study --db retry.db > second.txt 2> second.err || fail "second run: $(tail -3 second.err)"
n=$(grep -c '\] O[12] tiny rep [1-9]: ok' second.err || true)
[ "$n" = 4 ] || fail "after the fix $n repetitions ran ok, want 4: $(grep '\[run ' second.err)"
[ "$(sql retry.db "select count(*) from runs where status<>'ok'")" = 0 ] || fail "runs not ok left: $(sql retry.db "select config_id, rep, status from runs where status<>'ok'")"
fs report --db retry.db > /dev/null 2> report2.err || fail "report: $(cat report2.err)"
! grep -q incomplete report2.err || fail "the fixed study still reads incomplete: $(cat report2.err)"
ok "the script fixed: the next run makes every run, and the study is complete"
echo PASS
