#!/bin/bash
# it_identical.sh - identical builds as the noise floor (pipeline/identical.c,
# harness/identical.h) and run --noise-floor.
# Expect: O2, "O2 -Wall" and "O2 -fno-ident" build the same code, though
# their files differ (each build's folder is in .debug_line_str, and gcc
# records -fno-ident in .GCC.command.line), so O2w and O2i are not run (3
# measured runs per configuration that runs: O2 and O1 only) yet have their
# own 3 rows, and the reports say "identical to O2" (JSON identical_to,
# CSV column identical_to); O1 is different code.  --noise-floor adds "O2 (noise floor)": built (not the O2 build)
# and run as its own configuration, never reused.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_identical

cat > id.study <<'S'
; expect: O2w identical to O2 (runs reused); O1 different
[study]
name = id
workloads = tiny
repeat = 3
baseline = O2
[axis opt]
O2 = -O2
O2w = -O2 -Wall
O2i = -O2 -fno-ident
O1 = -O1
S
fs run id.study --db id.db --meters rusage > id.txt 2> id.err
measured=$(grep -c ' tiny rep [1-9]' id.err || true)
[ "$measured" = 6 ] || fail "measured runs: $measured, want 6 (O2 and O1 x 3; O2w and O2i reused)"
grep -q "O2w tiny: identical code to O2, its runs are reused" id.err || fail "no identical line: $(cat id.err)"
grep -q "^O2w: identical to O2 (tiny)" id.txt && grep -q "^O2i: identical to O2 (tiny)" id.txt || fail "the report does not say identical: $(cat id.txt)"
rows() { python3 -c "
import sqlite3, sys
db = sqlite3.connect('id.db')
print(db.execute(\"select count(*) from runs r join configs c on c.id=r.config_id and c.study=r.study where c.label=? and r.rep>=1\", (sys.argv[1],)).fetchone()[0])" "$1"; }
[ "$(rows O2w)" = 3 ] && [ "$(rows O2i)" = 3 ] && [ "$(rows O2)" = 3 ] && [ "$(rows O1)" = 3 ] ||
	fail "rows: O2 $(rows O2), O2w $(rows O2w), O1 $(rows O1) (want 3 each)"
echo "ok 1 - O2 -Wall, O2 -fno-ident: identical to O2, run once, stored under each"

file_of() { python3 -c "
import sqlite3, sys
db = sqlite3.connect('id.db')
print(db.execute(\"select b.key from builds b join configs c on c.id=b.config_id and c.study=b.study where c.label=?\", (sys.argv[1],)).fetchone()[0])" "$1"; }
o2=cache/builds/$(file_of O2)/out/tiny; o2i=cache/builds/$(file_of O2i)/out/tiny
! cmp -s "$o2" "$o2i" || fail "the two files are byte-identical: the test shows nothing about sections"
out_has -- -fno-ident readelf -p .GCC.command.line "$o2i" || fail "no -fno-ident in O2i's .GCC.command.line"
! out_has -- -fno-ident readelf -p .GCC.command.line "$o2" || fail "-fno-ident in O2's .GCC.command.line"
fs report --db id.db --format json | python3 -c "
import json, sys
d = {c['label']: c for c in json.load(sys.stdin)['configs']}
assert d['O2w']['identical_to'] == 'O2' and d['O2w']['identical_on'] == ['tiny'], d['O2w']
assert d['O1']['identical_to'] is None and d['O2']['identical_to'] is None
" || fail "JSON identical_to"
fs report --db id.db --format csv | python3 -c "
import csv, sys
rows = {r['label']: r for r in csv.DictReader(sys.stdin)}
assert rows['O2w']['identical_to'] == 'O2' and rows['O2i']['identical_to'] == 'O2', rows['O2w']
assert rows['O1']['identical_to'] == '' and rows['O2']['identical_to'] == '', rows['O1']
" || fail "CSV identical_to: $(fs report --db id.db --format csv | head -3)"
echo "ok 2 - the files differ (.GCC.command.line, .debug_line_str), the code does not; O1 is not identical"

fs run id.study --db nf.db --meters rusage --noise-floor > nf.txt 2> nf.err
grep -q "^builds in the last run: 1 built, 4 cached" nf.txt || fail "the noise floor is not built on its own: $(grep builds nf.txt)"
nfruns=$(grep -c 'O2 (noise floor) tiny rep [1-9]' nf.err || true)
[ "$nfruns" = 3 ] || fail "the noise floor ran $nfruns times, want 3"
grep -q "O2 (noise floor)" nf.txt && ! grep -q "O2 (noise floor): identical" nf.txt ||
	fail "noise floor report: $(cat nf.txt)"
echo "ok 3 - --noise-floor: the baseline again, built and run as its own configuration"

# 4. a study stopped between a run's row and its copy for an identical
# build (killed, or the disk filled between the two writes) lacks the
# copy: a resumed run measures that repetition again and stores it under
# both, the same samples
python3 -c "
import sqlite3
db = sqlite3.connect('id.db')
for t in ('samples', 'runs'):
    db.execute(f\"delete from {t} where rep=2 and config_id=(select id from configs where label='O2w')\")
db.commit()"
[ "$(rows O2w)" = 2 ] || fail "the copy of rep 2 was not removed"
fs run id.study --db id.db --meters rusage > resumed.txt 2> resumed.err
[ "$(rows O2w)" = 3 ] || fail "after the resume O2w has $(rows O2w) runs, not 3: $(cat resumed.err)"
same=$(sql id.db "select count(*) from samples a join samples b on a.workload=b.workload and a.run=b.run
	and a.rep=b.rep and a.metric=b.metric and a.value=b.value
	where a.config_id=(select id from configs where label='O2') and b.config_id=(select id from configs where label='O2w') and a.rep=2")
total=$(sql id.db "select count(*) from samples where rep=2 and config_id=(select id from configs where label='O2')")
[ "$same" -gt 0 ] && [ "$same" = "$total" ] || fail "rep 2: $same of $total samples of O2 are O2w's"
echo "ok 4 - a copy missing after a stop is made again on resume, the same samples as the original"
