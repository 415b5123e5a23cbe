#!/bin/bash
# it_store_full.sh - no sample lost without an error.  The database's room
# is filled in the middle of a study with SQLite's own limit, PRAGMA
# max_page_count, set through the test hook FLAGSCOPE_TEST_DB_MAX_PAGES
# (pipeline_init in pipeline/pipeline.c): a write past it fails with
# SQLITE_FULL, "database or disk is full", exactly as on a full disk, and
# needs no mount (a tmpfs needs CAP_SYS_ADMIN) and no RLIMIT_FSIZE (which
# would limit the compilers and the workloads too).
# Expect: exit 2, one line "flagscope: PATH: cannot store results: database
# or disk is full (...)", no run reported that was not stored, and a resumed
# run (with room again) completes every (config, workload, run, rep) once.
# Then a database locked by another writer past the busy timeout: exit 2 and
# the same line with "database is locked".
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_store_full

cat > full.study <<'S'
; expect: 3 configurations x tiny, 1 warm-up + 6 repetitions each
[study]
name = full
workloads = tiny
repeat = 6
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
Os = -Os
S
pages() { python3 -c "import sqlite3;print(sqlite3.connect('$1').execute('pragma page_count').fetchone()[0])"; }
count_runs() { python3 -c "import sqlite3;print(sqlite3.connect('$1').execute(\"select count(*) from runs where run<>'@build'\").fetchone()[0])"; }

# 1. the builds and configurations are stored; the runs are what fills
# it: the room left is half of what the runs take (measured in probe.db)
fs run full.study --db probe.db --build-only -q > /dev/null
built=$(pages probe.db)
fs run full.study --db probe.db -q > /dev/null
runs=$(( $(pages probe.db) - built ))
[ "$runs" -ge 2 ] || fail "the runs took $runs pages: too few to fill half-way"
fs run full.study --db full.db --build-only -q > /dev/null
limit=$(( $(pages full.db) + runs / 2 ))
set +e
FLAGSCOPE_TEST_DB_MAX_PAGES=$limit fs run full.study --db full.db > full.out 2> full.err
rc=$?
set -e
[ "$rc" = 2 ] || fail "full database: exit $rc, not 2: $(tail -3 full.err)"
n=$(grep -c "cannot store results" full.err || true)
[ "$n" = 1 ] || fail "want one 'cannot store results' line, got $n: $(cat full.err)"
grep -qx "flagscope: full.db: cannot store results: database or disk is full (.*)" full.err ||
	fail "message: $(grep 'cannot store' full.err)"
[ "$(tail -1 full.err)" = "$(grep 'cannot store' full.err)" ] ||
	fail "the study went on after the failed write: $(tail -3 full.err)"
[ ! -s full.out ] || fail "a report was printed for a study that could not be stored"
stored=$(count_runs full.db)
reported=$(grep -c '^flagscope: \[run ' full.err || true)
[ "$stored" -gt 0 ] && [ "$stored" -lt 21 ] || fail "the database did not fill mid-study ($stored runs stored)"
# the baseline's warm-up is never recorded twice; every run reported was stored
[ "$reported" = "$stored" ] || fail "$reported runs reported, $stored stored"
echo "ok 1 - a full database stops the study: exit 2, one line, nothing reported unstored ($stored of 21 runs)"

# 2. with room again the study resumes and completes, every sample once
fs run full.study --db full.db --format json -q > resumed.json
python3 - <<'P'
import json, sqlite3
r = json.load(open("resumed.json"))
assert {c["label"] for c in r["configs"]} == {"O2", "O1", "Os"}, r["configs"]
for c in r["configs"]:
    assert c["status"] == "ok" and c["workloads"][0]["n"] == 6, c
db = sqlite3.connect("full.db")
ids = [i for (i,) in db.execute("select id from configs where study='full'")]
assert len(ids) == 3, ids
dup = db.execute("select count(*) from (select 1 from runs group by study, config_id, workload, run, rep having count(*) > 1)").fetchone()[0]
assert dup == 0, "duplicated runs"
for cid in ids:
    reps = sorted(rep for (rep,) in db.execute(
        "select rep from runs where config_id=? and workload='tiny' and run='' and status='ok'", (cid,)))
    assert reps == list(range(0, 7)), (cid, reps)
    t = sorted(rep for (rep,) in db.execute(
        "select rep from samples where config_id=? and workload='tiny' and run='' and metric='time'", (cid,)))
    assert t == list(range(0, 7)) or t == list(range(1, 7)), (cid, t)
P
echo "ok 2 - resumed with room: every (config, workload, run, rep) exactly once, no gaps"

# 3. a database another writer holds past the busy timeout
fs run full.study --db locked.db --build-only -q > /dev/null
python3 - <<'P' &
import sqlite3, time
db = sqlite3.connect("locked.db", isolation_level=None)
db.execute("begin exclusive")
open("locked.held", "w").close()
time.sleep(25)
P
holder=$!
for i in $(seq 1 600); do [ -e locked.held ] && break; sleep 0.1; done # python may start slowly
set +e
fs run full.study --db locked.db -q > /dev/null 2> locked.err
rc=$?
set -e
kill $holder 2>/dev/null || true
wait $holder 2>/dev/null || true
[ "$rc" = 2 ] || fail "locked database: exit $rc, not 2: $(cat locked.err)"
grep -qx "flagscope: locked.db: cannot store results: database is locked: another connection held it past [0-9]* s (another program holds it.*)" locked.err ||
	fail "message: $(cat locked.err)"
echo "ok 3 - a database locked past the timeout stops the study: exit 2, one line"
