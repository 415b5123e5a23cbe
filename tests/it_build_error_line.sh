#!/bin/bash
# it_build_error_line.sh - issue 28: a compile error showed a source
# excerpt and a note: line, the error: line itself was cut, the summary
# read "build_failed in every configuration: 2, and more above" (a
# fragment of a source line), and the full log's path was in no output.
# A C file with an undeclared identifier (gcc prints the error, then the
# source line, a caret and a note).  Expected:
#   1. failing in every configuration: the run's progress, the "nothing
#      ranked" line, the text report, JSON and HTML each hold the error:
#      line ("b.c:5:...: error: 'x' undeclared") and the build log's path,
#      and that file holds the whole log (the note too);
#   2. failing in one configuration (-DBREAK) of two: its row in the text
#      table and its JSON detail say the error line and the log's path.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_build_error_line
count_failures
mkdir -p src workloads/b
cat >src/b.c <<'C'
#include <stdio.h>
int main(void)
{
	int y = 2;
	printf("%d\n", x + y);
	return 0;
}
C
cat >src/c.c <<'C'
#include <stdio.h>
int main(void)
{
#ifdef BREAK
	return undeclared_here;
#endif
	puts("c");
	return 0;
}
C
printf 'b: b.c\n\t$(CC) $(CFLAGS) -o b b.c\nc: c.c\n\t$(CC) $(CFLAGS) -o c c.c\n' >src/Makefile
for w in b c; do
	mkdir -p workloads/$w
	printf '; expect: %s\n[workload]\nsource = local:%s\n[build]\nsystem = make\ntargets = %s\nbinaries = %s\n[run]\nargs = %s\n' \
		"$w: see the test's comment" "$T/src" $w $w $w >workloads/$w/recipe.ini
done
printf '; expect: b fails to compile in both\n[study]\nname = b\nworkloads = b\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\nO3 = -O3\n' >b.study
set +e; fs run b.study --db b.db >b.out 2>b.err; rc=$?; set -e
[ "$rc" = 1 ] || fail "nothing ranked must exit 1, got $rc"
err_re="b.c:5:[0-9]+: error: .x. undeclared"
grep -qE "build_failed .*$err_re.*log: $T/cache/builds/[0-9a-f]+/build.log" b.err ||
	fail "the progress lines lack the error line or the log: $(cat b.err)"
grep -E "^flagscope: nothing ranked" b.err | grep -qE "$err_re" ||
	fail "the 'nothing ranked' line lacks the error line: $(grep 'nothing ranked' b.err)"
if grep -qE 'build_failed in every configuration: [0-9]+(,|\))' b.err b.out; then fail "a fragment instead of the error: $(cat b.err)"; fi
grep -qE "$err_re.*log: $T/cache/builds/[0-9a-f]+/build.log" b.out || fail "the text report lacks them: $(cat b.out)"
log=$(grep -oE "$T/cache/builds/[0-9a-f]+/build.log" b.out | head -1)
[ -n "$log" ] && grep -q 'note:' "$log" || fail "the named log $log does not hold the whole log"
fs report --db b.db --format json >b.json 2>/dev/null || true
grep -qE "$err_re.*log: $T/cache/builds/" b.json || fail "JSON lacks the error line and log: $(head -c 600 b.json)"
fs report --db b.db --format html -o b.html 2>/dev/null || true
grep -qE "error: &#39;x&#39; undeclared.*log: $T/cache/builds/" b.html || fail "HTML lacks the error line and log"

printf '; expect: BREAK fails to compile, O2 ok\n[study]\nname = c\nworkloads = c\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\nBREAK = -O2 -DBREAK\n' >c.study
set +e; fs run c.study --db c.db --format json >c.json 2>c.err; fs report --db c.db >c.out 2>&1; set -e
grep -qE "c.c:5:[0-9]+: error: .undeclared_here. undeclared.*log: $T/cache/builds/" c.out ||
	fail "the failed configuration's row lacks the error line and log: $(cat c.out)"
grep -qE "c.c:5:[0-9]+: error: .*log: $T/cache/builds/" c.json || fail "JSON of the failed configuration: $(head -c 800 c.json)"
ok "the first error: line and the build log's path in progress, text, JSON and HTML"
finish_counted
