#!/bin/bash
# it_schedule.sh - what the schedule (pipeline/schedule.c) measures:
# repeat = auto closes an item on the metric the study is ranked by (the
# study's, or --metric's when given), and every run section of a workload
# is measured, however many it has.
# Expect: ranked by time with a target no wall time meets (0.01%), every
# item runs to max_repeat (8); ranked by --metric sum (tiny prints the same
# sum every run, an interval of width 0), every item stops after the first
# round (repeat's default, 5).
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_schedule

cat > auto.study <<'S'
; expect: time -> 8 repetitions per item; --metric sum -> 5
[study]
name = auto
workloads = tiny
repeat = auto
target = 0.01%
max_repeat = 8
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
S
reps() { python3 -c "
import sqlite3
db = sqlite3.connect('$1')
print(sorted(set(n for (n,) in db.execute(\"select count(*) from runs where run<>'@build' and rep>=1 group by config_id\"))))"; }
# every item stays NOISY, so nothing is ranked: exit 1 with that line
rc=0; fs run auto.study --db time.db -q > /dev/null 2>time.err || rc=$?
[ "$rc" = 1 ] && grep -q "nothing ranked: every configuration is noisy" time.err ||
	fail "a target no item meets: exit $rc, $(tail -1 time.err) (want 1, nothing ranked)"
[ "$(reps time.db)" = "[8]" ] || fail "ranked by time: repetitions per item $(reps time.db), not [8]"
echo "ok 1 - by time: a target no item meets runs every item to max_repeat"
fs run auto.study --db sum.db --metric sum -q > /dev/null
[ "$(reps sum.db)" = "[5]" ] || fail "ranked by --metric sum: repetitions per item $(reps sum.db), not [5] (--metric ignored?)"
echo "ok 2 - by --metric sum: every item closes after the first round"

# 3. more than 64 run sections in one workload: every one is measured (the
# schedule once stopped at 64 without a word)
mkdir -p home/workloads/many
cp home/workloads/tiny/*.c home/workloads/many/
sed -n '/^\[workload\]/,/^\[run\]/p' home/workloads/tiny/recipe.ini | sed '$d' > home/workloads/many/recipe.ini
for i in $(seq 1 66); do printf '[run r%d]\nargs = tiny 1000\ntimeout = 20\n' "$i"; done >> home/workloads/many/recipe.ini
printf '; expect: 66 run sections x 2 repetitions\n[study]\nname = many\nworkloads = many\nrepeat = 2\n[axis opt]\nO2 = -O2\n' > many.study
fs run many.study --db many.db --meters rusage -q > /dev/null
python3 - <<'P'
import sqlite3
db = sqlite3.connect("many.db")
rows = db.execute("select run, count(*) from runs where run<>'@build' and rep>=1 and status='ok' group by run").fetchall()
assert len(rows) == 66 and all(n == 2 for _, n in rows), rows
P
echo "ok 3 - 66 run sections of one workload: every one measured"
