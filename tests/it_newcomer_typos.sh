#!/bin/bash
# it_newcomer_typos.sh - issue 28's newcomer pass (session 12): the typos a
# new user makes in the first study, each said at its cause with the
# nearest right name.  Expected:
#   1. a study file that is not there: "cannot read: no such file or
#      directory" (lowercase, as every error), not strerror's capital;
#   2. 'workloads = tinyy': "unknown workload 'tinyy' (did you mean
#      'tiny'? ...)" at its line;
#   3. 'baseline = o2' of a level O2: "did you mean 'O2'?";
#   4. 'flagscope reprot': "did you mean 'report'?"; 'run --repeats':
#      "did you mean '--repeat'?";
#   5. a name far from every known one gets no suggestion;
#   6. report --study with a typo: the nearest stored study, else the
#      studies the database holds;
#   7. report -o report.html without --format writes HTML (it wrote the
#      text table into the .html file), .json JSON; --format still wins.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_newcomer_typos
count_failures
set +e
fs run missing.study >e1 2>&1
grep -qx "flagscope: missing.study: cannot read: no such file or directory (check the path)" e1 ||
	fail "a missing study file: $(cat e1)"
tiny_study good.study 1 "loads" O2
sed 's/^workloads = tiny$/workloads = tinyy/' good.study >w.study
fs run w.study --dry-run >e2 2>&1
grep -qE "^flagscope: w.study:[0-9]+: unknown workload 'tinyy' \(did you mean 'tiny'\? see flagscope list workloads\)$" e2 ||
	fail "a mistyped workload: $(cat e2)"
printf '; expect: refused: baseline o2 is level O2\n[study]\nname = b\nworkloads = tiny\nbaseline = o2\n[axis opt]\nO2 = -O2\nO3 = -O3\n' >b.study
fs run b.study --dry-run >e3 2>&1
grep -q "^flagscope: b.study:5: baseline names level 'o2', which no axis has (did you mean 'O2'? " e3 ||
	fail "a mistyped baseline: $(cat e3)"
fs reprot >e4 2>&1
grep -qx "flagscope: 'reprot' is not a command (did you mean 'report'? see flagscope --help)" e4 ||
	fail "a mistyped command: $(cat e4)"
fs run good.study --repeats 4 >e8 2>&1
grep -qx "flagscope: run: unknown option '--repeats' (did you mean '--repeat'? see flagscope run --help)" e8 ||
	fail "a mistyped option: $(cat e8)"
fs frobnicate >e5 2>&1
grep -qx "flagscope: 'frobnicate' is not a command (see flagscope --help)" e5 ||
	fail "a name near nothing got a suggestion: $(cat e5)"
fs run good.study --db g.db -q >/dev/null 2>&1
fs report --db g.db --study goood >e6 2>&1
grep -q "no study 'goood' in this database (did you mean 'good'? " e6 || fail "a mistyped --study: $(cat e6)"
fs report --db g.db --study wc >e7 2>&1
grep -q "no study 'wc' in this database (it holds good; name one with --study)" e7 ||
	fail "a --study far from every stored one does not list them: $(cat e7)"
fs report --db g.db -o r.html >/dev/null 2>&1
head -1 r.html | grep -q '^<!DOCTYPE html>' || fail "report -o r.html without --format is not HTML: $(head -c 80 r.html)"
fs report --db g.db -o r.json >/dev/null 2>&1
head -c 1 r.json | grep -q '{' || fail "report -o r.json without --format is not JSON: $(head -c 80 r.json)"
fs report --db g.db -o t.html --format table >/dev/null 2>&1
head -1 t.html | grep -q '^study good' || fail "--format table -o t.html: the given format must win: $(head -c 80 t.html)"
set -e
ok "typos said with the nearest name"
finish_counted
