#!/bin/bash
# it_build_timeout.sh - builds and input scripts had no timeout: a build
# step that waits forever (a configure asking a question, a hung test
# program) held the study for good.  Expected: [build] timeout = 2 kills
# the build with its children (none left running) and stores build_failed
# saying so; [input] timeout = 2 kills the input script and its runs say
# why; the defaults are in the recipe format's documentation.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_build_timeout
count_failures

tiny_copy hang "tiny whose build hangs" "sleep 61.25 \& sleep 61.25; "
sed -i 's/^binaries = tiny$/binaries = tiny\ntimeout = 2/' home/workloads/hang/recipe.ini
tiny_copy gen "tiny whose input script hangs" ""
printf '[input]\nscript = sleep 61.5 & sleep 61.5\ntimeout = 2\n' >>home/workloads/gen/recipe.ini
grep -q '^timeout = 2$' home/workloads/hang/recipe.ini || fail "the build timeout was not written"
printf '[study]\nname = h\nworkloads = hang gen\nrepeat = 1\n[axis opt]\nO2 = -O2\n' >h.study
rc=0
fs run h.study --db h.db -q >h.out 2>h.err || rc=$?
got=$(sql h.db "select status || '|' || detail from builds where workload = 'hang'")
[[ $got == "build_failed|killed after 2 s: the build ran past its timeout"* ]] ||
	fail "the hung build: '$got' (exit $rc: $(tail -2 h.err))"
pgrep -f "sleep 61.25" >/dev/null && fail "the hung build's children still run: $(pgrep -af 'sleep 61.25')"
grep -q "gen: the input script was killed after 2 s" h.err h.out ||
	fail "the hung input script is not said: $(cat h.err)"
pgrep -f "sleep 61.5" >/dev/null && fail "the input script's children still run"
for k in '^timeout = 7200 .*default 7200' '^timeout = 600 .*default 600'; do
	grep -q "$k" "$FLAGSCOPE_SRC/doc/recipe-format.md" || fail "doc/recipe-format.md lacks '$k'"
done
[ "$failures" = 0 ] && ok "a hung build and a hung input script are killed at their timeouts"
finish_counted
