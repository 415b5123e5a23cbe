#!/bin/bash
# it_unranked.sh - a run in which nothing can be ranked ends with exit 1 and
# one line that says why, and `report` on it does the same (both printed
# every configuration `ok` with no ratio and exited 0).
# Expected: a study whose only workload crashes in every configuration
# (left out) and one whose configurations fail differently (each failed)
# exit 1 from run and report with "nothing ranked: ..."; a study that
# ranks exits 0.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_unranked

# run STUDY DB: run it, keep stderr, return run's exit status in $rc
study() {
	set +e; fs run "$1" --db "$2" -q > "$2.out" 2> "$2.err"; rc=$?; set -e
	sed 's/^/# /' "$2.err"
}

cat > leftout.study <<'S'
; expect: tiny crashes in every configuration, so it is left out: nothing ranked, exit 1
[study]
name = leftout
workloads = tiny
repeat = 1
[axis opt]
a = -DPLANT_CRASH
b = -DPLANT_CRASH -O1
S
study leftout.study l.db
[ "$rc" = 1 ] || fail "run: every workload left out must exit 1, got $rc"
line="flagscope: nothing ranked: every workload is left out of the ranking (tiny: crashed in every configuration"
[ "$(grep -c "^$line" l.db.err)" = 1 ] || fail "run must say once why nothing is ranked"
for f in table json csv html; do
	set +e; fs report --db l.db --format $f > report.$f 2> report.err; r=$?; set -e
	[ "$r" = 1 ] || fail "report --format $f on a study that ranks nothing must exit 1, got $r"
	grep -q "^$line" report.err || fail "report --format $f must say why nothing is ranked"
	[ -s report.$f ] || fail "report --format $f must still print the report"
done
python3 -c 'import json; json.load(open("report.json"))' || fail "the json report must stay json"

cat > failed.study <<'S'
; expect: a crashes and b exits 3: every configuration failed, exit 1
[study]
name = failed
workloads = tiny
repeat = 1
[axis opt]
a = -DPLANT_CRASH
b = -DPLANT_EXIT
S
study failed.study f.db
[ "$rc" = 1 ] || fail "run: every configuration failed must exit 1, got $rc"
grep -q "^flagscope: nothing ranked: every configuration failed (a: tiny: killed by signal 11" f.db.err ||
	fail "run must say every configuration failed"
set +e; fs report --db f.db > /dev/null 2> report.err; r=$?; set -e
[ "$r" = 1 ] && grep -q "^flagscope: nothing ranked: every configuration failed" report.err ||
	fail "report must exit 1 and say every configuration failed, got $r"

cat > fine.study <<'S'
; expect: ranked, exit 0
[study]
name = fine
workloads = tiny
repeat = 1
[axis opt]
O1 = -O1
S
study fine.study ok.db
[ "$rc" = 0 ] || fail "a study that ranks must exit 0, got $rc"
! grep -q "nothing ranked" ok.db.err || fail "a ranked study says nothing ranked"
fs report --db ok.db > /dev/null || fail "report of a ranked study must exit 0"
echo "PASS it_unranked"
