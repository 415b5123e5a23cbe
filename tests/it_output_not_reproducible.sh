#!/bin/bash
# it_output_not_reproducible.sh - issue 28: a program printing the time got
# "wrong_output ... at byte 40: 0x35 '5' instead of 0x34 '4'", though the
# baseline's own repetitions disagreed with its warm-up, which means "this
# output is not reproducible".  A program whose second line is the time in
# nanoseconds, two configurations, two repetitions.  Expected: the
# baseline's runs after its warm-up are wrong_output with "output not
# reproducible: the baseline disagrees with itself at line 2" and both
# lines ('t=...' here, 't=...' in its warm-up), in the run's progress
# and the report; and the other configuration (O1), whose output differs
# from the reference for the same reason, is no_reference in every
# repetition with "the baseline's own output is not reproducible (see O2
# clock: output not reproducible)", never wrong_output, and the run says so
# (on main before this, O1 was wrong_output at the time's byte); the
# report's "left out of the ranking" names that cause, not "no samples of
# metric 'time'", and the run's "nothing ranked" blames the baseline in
# whole words (session 12's newcomer pass); a second run of the study
# measures nothing again.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_output_not_reproducible
count_failures
mkdir -p src workloads/clock
cat >src/clock.c <<'C'
#include <stdio.h>
#include <time.h>
int main(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	printf("hello\nt=%ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
	return 0;
}
C
printf 'clock: clock.c\n\t$(CC) $(CFLAGS) -o clock clock.c\n' >src/Makefile
printf '; expect: its output changes every run\n[workload]\nsource = local:%s/src\n[build]\nsystem = make\nbinaries = clock\n[run]\nargs = clock\n' "$T" \
	>workloads/clock/recipe.ini
printf '; expect: the baseline disagrees with itself\n[study]\nname = clock\nworkloads = clock\nrepeat = 2\nbaseline = O2\n[axis opt]\nO2 = -O2\nO1 = -O1\n' >c.study
set +e; fs run c.study --db c.db >c.out 2>c.err; set -e
want="output not reproducible: the baseline disagrees with itself at line 2: 't=[0-9.]+' here, 't=[0-9.]+' in its warm-up"
grep -qE "\[run [0-9]+/[0-9]+\] O2 clock rep 1: wrong_output: $want" c.err ||
	fail "the baseline's rep 1 is not said to be not reproducible: $(grep 'O2 clock' c.err | head -3)"
fs report --db c.db >r.out 2>&1 || true
grep -qE "$want" r.out || fail "the report does not say it: $(head -30 r.out)"
grep -qE "^flagscope: nothing ranked: the baseline O2 is wrong_output, so no configuration has a ratio to it \(clock: output not reproducible: .*( \.\.\.|clocks')\)$" c.err ||
	fail "the run's 'nothing ranked' does not blame the baseline, or cuts a word: $(grep 'nothing ranked' c.err)"
grep -A2 '^left out of the ranking' r.out | grep -qE "^  clock: no configuration measured: the baseline is wrong_output \($want" ||
	fail "the report's left-out line does not name the baseline's unreproducible output: $(grep -A2 '^left out' r.out)"
ok "the baseline disagreeing with itself is said as output not reproducible, at its line, with both lines"

o1=$(sql c.db "SELECT r.rep, r.status, r.detail FROM runs r JOIN configs c ON c.study = r.study AND c.id = r.config_id WHERE c.label = 'O1' ORDER BY r.rep")
[ "$(grep -c '|no_reference|the baseline'"'"'s own output is not reproducible (see O2 clock: output not reproducible); not judged: ' <<<"$o1")" = 3 ] ||
	fail "O1's warm-up and two repetitions are not no_reference pointing at the baseline: $o1"
grep -q '|wrong_output|' <<<"$o1" && fail "O1 still blamed with wrong_output: $o1"
grep -q "run(s) of other configurations are no_reference, not wrong_output: the baseline O2's own output is not reproducible" c.err ||
	fail "the run does not say why O1 is no_reference: $(tail -5 c.err)"
grep -qE "O1 .*no_reference|no_reference.*O1" r.out || grep -q "the baseline's own output is not reproducible" r.out ||
	fail "the report does not show O1's no_reference: $(head -40 r.out)"
ok "the other configuration is no_reference, pointing at the baseline's unreproducible output"

# run again: those no_reference rows are final (they would only differ again)
set +e; fs run c.study --db c.db >c2.out 2>c2.err; set -e
grep -q "every run is stored already, nothing was measured now" c2.err ||
	fail "a second run measures the no_reference runs again: $(grep -c '\[run' c2.err) runs: $(grep -m2 '\[run' c2.err)"
ok "a second run keeps them"
finish_counted
