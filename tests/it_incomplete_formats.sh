#!/bin/bash
# it_incomplete_formats.sh - issue 26 "an interrupted study reports as if
# complete", what it_incomplete.sh left: the "incomplete: N of M runs" line
# reached stderr and JSON only, and `run --workloads W` stored its plan as
# the whole study's, so the last such run decided completeness.  Expected:
#   1. the table, CSV (columns complete, runs_done, runs_expected on every
#      row; the file stays one header and rows) and HTML of an incomplete
#      study say it, with its counts; a complete study's say complete (CSV
#      has rows only for what was ranked: checked once tiny ran);
#   2. a study of tiny and tiny2 built only (0 of 8 runs), then run with
#      --workloads tiny to its end, stays incomplete (4 of 8): tiny2 never
#      ran; then --workloads tiny2 makes it complete (8 of 8); a later
#      --build-only --workloads tiny makes it incomplete again.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_incomplete_formats
count_failures
cp -r home/workloads/tiny home/workloads/tiny2
sed -i 's/^; tiny:/; tiny2:/' home/workloads/tiny2/recipe.ini
tiny_study w.study 2 "O2 and O1 on tiny and tiny2, built only first" O2 O1
sed -i 's/^workloads = tiny$/workloads = tiny tiny2/' w.study

# complete, done, expected from the JSON report
state() { fs report --db w.db --format json 2>/dev/null | python3 -c '
import json, sys; r = json.load(sys.stdin); print(r["complete"], r["runs_done"], r["runs_expected"])'; }

fs run w.study --db w.db --build-only -q >/dev/null 2>b.err || fail "--build-only: $(tail -3 b.err)"
[ "$(state)" = "False 0 8" ] || fail "built only: want 'False 0 8', got '$(state)'"

fs report --db w.db >t.txt 2>/dev/null || true
grep -q "^incomplete: 0 of 8 runs" t.txt || fail "table: no incomplete line: $(head -3 t.txt)"
fs report --db w.db --format html >t.html 2>/dev/null || true
grep -q 'id="incomplete"><b>incomplete: 0 of 8 runs' t.html || fail "html: no incomplete line"
[ "$failures" = 0 ] && ok "table and html say incomplete: 0 of 8 runs"

fs run w.study --db w.db --workloads tiny -q >/dev/null 2>r1.err || fail "--workloads tiny: $(tail -3 r1.err)"
[ "$(state)" = "False 4 8" ] || fail "after --workloads tiny: want 'False 4 8' (tiny2 never ran), got '$(state)'"
# CSV has a row per item ranked: tiny's now
fs report --db w.db --format csv >t.csv 2>/dev/null || true
python3 - <<'P' || fail "csv (above)"
import csv
rows = list(csv.DictReader(open("t.csv")))
assert rows, "no rows"
for r in rows:
    assert (r["complete"], r["runs_done"], r["runs_expected"]) == ("0", "4", "8"), r
P
fs run w.study --db w.db --workloads tiny2 -q >/dev/null 2>r2.err || fail "--workloads tiny2: $(tail -3 r2.err)"
[ "$(state)" = "True 8 8" ] || fail "after --workloads tiny2: want 'True 8 8', got '$(state)'"
fs report --db w.db >t2.txt 2>/dev/null || true
! grep -q "incomplete" t2.txt || fail "a complete study's table says: $(grep incomplete t2.txt)"
fs report --db w.db --format csv >t2.csv 2>/dev/null || true
python3 -c '
import csv
rows = list(csv.DictReader(open("t2.csv")))
assert rows and all((r["complete"], r["runs_expected"]) == ("1", "8") for r in rows), rows[:1]' ||
	fail "csv of the complete study (above)"
fs run w.study --db w.db --workloads tiny --build-only -q >/dev/null 2>r3.err || fail "--build-only --workloads tiny: $(tail -3 r3.err)"
[ "$(state)" = "False 8 8" ] || fail "after --build-only --workloads tiny: want 'False 8 8', got '$(state)'"
[ "$failures" = 0 ] && ok "run --workloads W replaces W's plan only: a partial run never decides for the rest"
finish_counted
