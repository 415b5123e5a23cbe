#!/bin/bash
# it_logs_failed_named.sh - issue 28: with run --logs DIR a failed build's
# line named the build cache's build.log, not the copy kept in DIR (the
# cache may be cleaned; the copy is the one the user asked for).
# A workload whose -DBREAK configuration does not compile, run with
# --logs kept.  Expected: the progress line, the text report, JSON, the
# pivot's details and recommend's evidence name $T/kept/c/BREAK.log, never
# the cache's build.log, and that copy holds the error after the build
# cache is removed.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_logs_failed_named
count_failures
mkdir -p src workloads/c
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
printf 'c: c.c\n\t$(CC) $(CFLAGS) -o c c.c\n' >src/Makefile
printf '; expect: BREAK fails to compile, O2 ok\n[workload]\nsource = local:%s\n[build]\nsystem = make\ntargets = c\nbinaries = c\n[run]\nargs = c\n' \
	"$T/src" >workloads/c/recipe.ini
printf '; expect: BREAK fails to compile, O2 ok\n[study]\nname = c\nworkloads = c\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\nBREAK = -O2 -DBREAK\n' >c.study
set +e; fs run c.study --db c.db --logs kept >c.out 2>c.err; set -e
kept="$T/kept/c/BREAK.log"
err_re="c.c:5:[0-9]+: error: .undeclared_here. undeclared"
grep -qE "build_failed.*: $err_re.*log: $kept" c.err ||
	fail "the progress line does not name the kept log $kept: $(grep build_failed c.err)"
grep -q "cache/builds/[0-9a-f]*/build.log" c.err c.out &&
	fail "the run names the cache's build.log: $(grep -h 'cache/builds' c.err c.out)"
fs report --db c.db >r.txt 2>&1 || true
fs report --db c.db --format json >r.json 2>&1 || true
fs report --db c.db --pivot sweep >r.pivot 2>&1 || true
fs recommend --db c.db >r.rec 2>&1 || true
for f in r.txt r.json r.pivot r.rec; do
	grep -q "cache/builds/[0-9a-f]*/build.log" $f && fail "$f names the cache's build.log: $(grep 'cache/builds' $f)"
done
grep -qE "$err_re.*log: $kept" r.txt || fail "the text report does not name $kept: $(cat r.txt)"
grep -qE "$err_re.*log: $kept" r.json || fail "JSON does not name $kept: $(head -c 800 r.json)"
grep -q "$kept" r.rec || fail "recommend's evidence does not name $kept: $(cat r.rec)"
rm -rf "$T/cache"
grep -q "error: .undeclared_here. undeclared" "$kept" || fail "$kept does not hold the error once the cache is gone"
ok "run --logs: every failure report names the kept log"
finish_counted
