#!/bin/bash
# it_rerun_finished.sh - a newcomer runs `flagscope run my.study` a second
# time (issue 28's first hour, from an installed copy): before, the second
# run printed the study's header and the same ranking, nothing saying that
# nothing was measured, so it read as a new measurement that agreed
# perfectly.  tiny at O2 and O1, two repetitions.  Expected: the first
# run does not say "nothing was measured"; the second says "every run is
# stored already, nothing was measured now" and exits 0 with the report;
# a third with a higher --repeat measures again and does not say it.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_rerun_finished
count_failures
tiny_study s.study 2 "every configuration ok" O2 O1
fs run s.study --db s.db >1.out 2>1.err || fail "first run: $(tail -3 1.err)"
grep -q "nothing was measured" 1.err && fail "the first run says nothing was measured: $(grep -m1 nothing 1.err)"
fs run s.study --db s.db >2.out 2>2.err || fail "second run: $(tail -3 2.err)"
grep -q "study s: every run is stored already, nothing was measured now; the report below is of the stored runs" 2.err ||
	fail "the second run does not say it measured nothing: $(cat 2.err)"
grep -q "^rank" 2.out || fail "the second run prints no report: $(head -5 2.out)"
ok "a finished study run again says nothing was measured"
fs run s.study --db s.db --repeat 3 >3.out 2>3.err || fail "third run: $(tail -3 3.err)"
grep -q "nothing was measured" 3.err && fail "a higher repeat measured nothing: $(cat 3.err)"
ok "a higher repeat measures again"
finish_counted
