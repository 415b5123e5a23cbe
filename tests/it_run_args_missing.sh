#!/bin/bash
# it_run_args_missing.sh - a newcomer's first recipe (issue 28's first
# hour, walked again from an installed copy): a Makefile project whose
# program is wfreq, and a [run] whose args name wfreqq.  Before, every run
# said "run_failed: cannot start /root/.cache/flagscope/builds/<64 hex>/out/
# wfreqq: No such file or directory", a path in the cache the user never
# wrote, and the "nothing ranked" line cut it before the name.  Expected:
# the run is run_failed with "recipe.ini:N: [run] args starts with
# 'wfreqq', which the build did not make (name one of its programs first:
# wfreq)", N the [run] section's line, in the progress and the report; a
# correct args runs ok.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_run_args_missing
count_failures
make_workload wfreq "run_failed, args names a program the build did not make" \
	'wfreq: main.c\n\t$(CC) $(CFLAGS) $(LDFLAGS) -o wfreq main.c\n' wfreq "wfreqq 1000"
printf '; expect: nothing ranked (the recipe names the wrong program)\n[study]\nname = w\nworkloads = wfreq\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\n' >w.study
set +e; fs run w.study --db w.db >w.out 2>w.err; set -e
want="workloads/wfreq/recipe.ini:8: \[run\] args starts with 'wfreqq', which the build did not make \(name one of its programs first: wfreq\)"
grep -qE "O2 wfreq warm-up: run_failed: .*$want" w.err ||
	fail "the run does not name the recipe's line and the program: $(grep 'O2 wfreq' w.err | head -2)"
grep -q "No such file or directory" w.err && fail "exec's error on a cache path is still said: $(grep -m1 'No such' w.err)"
fs report --db w.db >r.out 2>&1 || true
grep -qE "$want" r.out || fail "the report does not say it: $(head -20 r.out)"
ok "a [run] naming a program the build did not make is said at the recipe's line, with what it made"

sed -i 's/^args = wfreqq 1000$/args = wfreq 1000/' workloads/wfreq/recipe.ini
fs run w.study --db ok.db >ok.out 2>ok.err || fail "the corrected recipe does not run: $(tail -3 ok.err)"
grep -q "O2 wfreq warm-up: ok" ok.err || fail "the corrected run is not ok: $(grep 'O2 wfreq' ok.err | head -2)"
ok "the corrected args runs"
finish_counted
