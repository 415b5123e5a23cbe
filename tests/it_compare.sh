#!/bin/bash
# it_compare.sh - flagscope compare and recommend from the command line, on
# databases with the real schema (made by a tiny study) whose time samples
# the test then replaces with planted ones: a 5% regression and a null
# difference between two databases (exit 1 and the right verdicts), no
# regression (exit 0), two labels of one database, and recommend refusing
# a configuration once it produced wrong output.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_compare

tiny_study two.study 2 "both ok; the test then plants the samples it compares" O2 O1
fs run two.study --db real.db -q > /dev/null

# plant(db, {label: (mu, seed)}): 12 runs of "time" ~ N(mu, 1%) per label
cat > plant.py <<'P'
import random, shutil, sqlite3, sys
def plant(src, dst, plan):
    shutil.copy(src, dst)
    db = sqlite3.connect(dst)
    for label, (mu, seed) in plan.items():
        cid = db.execute("select id from configs where label=?", (label,)).fetchone()[0]
        db.execute("delete from samples where config_id=? and rep>=1", (cid,))
        db.execute("delete from runs where config_id=? and rep>=1", (cid,))
        rnd = random.Random(seed)
        for rep in range(1, 13):
            db.execute("insert into runs(study,config_id,workload,run,rep,status,detail) "
                       "values('two',?,'tiny','',?,'ok','')", (cid, rep))
            db.execute("insert into samples(study,config_id,workload,run,rep,metric,value,unit) "
                       "values('two',?,'tiny','',?,'time',?,'s')",
                       (cid, rep, rnd.gauss(mu, mu * 0.01)))
    db.commit()
plant("real.db", "old.db", {"O2": (1.00, 1), "O1": (1.00, 2)})
plant("real.db", "new.db", {"O2": (1.05, 3), "O1": (1.00, 4)})   # O2 5% slower, O1 null
plant("real.db", "same.db", {"O2": (1.00, 5), "O1": (1.00, 6)})  # nothing changed
P
python3 plant.py

# 1. a planted 5% regression and a planted null difference, two databases
set +e; fs compare old.db new.db > c.txt; rc=$?; set -e
cat c.txt | sed 's/^/# /'
[ "$rc" = 1 ] || fail "a regression must exit 1, got $rc"
grep -Eq "^REGRESSED +O2 +tiny +time +1\.0[4-6][0-9] +\[1\.0[0-9]+, 1\.[0-9]+\] +[0-9.e-]+ +12/12 " c.txt ||
	fail "O2 must be REGRESSED ~1.05 with 12/12 samples"
grep -Eq "^UNCHANGED +O1 +tiny +time +(0\.99|1\.00)" c.txt || fail "O1 must be UNCHANGED"
grep -q "^1 regressed, 0 improved, 1 unchanged" c.txt || fail "summary"
set +e; fs compare old.db new.db --format json > c.json; set -e
python3 - <<'P'
import json
c = json.load(open("c.json"))
l = {x["config"]: x for x in c["lines"]}
o2, o1 = l["O2"], l["O1"]
assert o2["verdict"] == "regressed" and o2["p"] < 0.001 and o2["n_old"] == o2["n_new"] == 12, o2
assert o2["ci"][0] <= 1.05 <= o2["ci"][1] and o2["ci"][0] > 1, o2
assert o1["verdict"] == "unchanged" and o1["p"] > 0.05 and o1["ci"][0] < 1 < o1["ci"][1], o1
assert c["regressed"] == 1 and c["unchanged"] == 1, c
P
echo "ok 1 - two databases: planted 5% regression REGRESSED (exit 1), planted null UNCHANGED"

# colour only on a terminal, only where significant, never with NO_COLOR
if command -v script > /dev/null; then
	script -qc "'$FLAGSCOPE_BIN' compare old.db new.db" /dev/null > tty.txt || true
	grep -q $'^\033\\[31mREGRESSED' tty.txt || fail "no red REGRESSED on a terminal: $(cat -v tty.txt)"
	out_has $'\033' grep "UNCHANGED" tty.txt && fail "colour on an unchanged line"
	NO_COLOR=1 script -qc "'$FLAGSCOPE_BIN' compare old.db new.db" /dev/null > tty2.txt || true
	grep -q $'\033' tty2.txt && fail "colour despite NO_COLOR"
	grep -q $'\033' c.txt && fail "colour when stdout is not a terminal"
	echo "ok 1b - colour: on a terminal, only significant lines; none with NO_COLOR or a pipe"
else
	echo "SKIP 1b - no script(1) to make a terminal"
fi

# 2. nothing changed: exit 0; the size metric is exact
fs compare old.db same.db --metric "time size.text" > s.txt || fail "no regression must exit 0"
grep -q "^0 regressed, 0 improved, 4 unchanged" s.txt || fail "$(cat s.txt)"
grep -Eq "^UNCHANGED +O2 +tiny +size.text +1.000 +exact" s.txt || fail "exact size line"
echo "ok 2 - no regression: exit 0; sizes are exact"

# 3. two labels of one database: O1 against O2 in new.db (O2 is the slow one there)
fs compare --db new.db --baseline O2 --candidate O1 > l.txt || fail "an improvement exits 0"
grep -Eq "^IMPROVED +O2 -> O1 +tiny +time +0\.9[4-6]" l.txt || fail "$(cat l.txt)"
echo "ok 3 - two configurations of one database"

# 4. recommend: O1 beats the slow baseline until it gives wrong output
fs recommend --db new.db > r1.conf
grep -q '^COMMON_FLAGS="-O1"$' r1.conf || fail "O1 should be recommended: $(cat r1.conf)"
grep -q "^# chosen: O1; geometric-mean time ratio to the baseline O2" r1.conf || fail "evidence"
python3 - <<'P'
import sqlite3
db = sqlite3.connect("new.db")
cid = db.execute("select id from configs where label='O1'").fetchone()[0]
n = db.execute("update runs set status='wrong_output', detail='stdout differs from the "
               "reference at byte 4' where config_id=? and rep=0 and run=''", (cid,)).rowcount
assert n == 1, n
db.commit()
P
fs recommend --db new.db > r2.conf
grep -q '^COMMON_FLAGS="-O2"$' r2.conf || fail "the wrong O1 must be refused: $(cat r2.conf)"
grep -q "^# refused O1: wrong_output: tiny: stdout differs" r2.conf || fail "refusal: $(cat r2.conf)"
grep -q "no configuration beat the baseline O2 significantly" r2.conf || fail "baseline kept"
fs recommend --db new.db --format json | python3 -c "
import json,sys; r=json.load(sys.stdin)
assert r['recommended']=='O2' and not r['beats_baseline'] and r['refused'][0]['label']=='O1', r"
echo "ok 4 - recommend picks O1, then refuses it after wrong output and keeps the baseline"

# 5. usage errors exit 2
set +e
fs compare old.db > /dev/null 2> e1; r1=$?
fs compare old.db nosuch.db > /dev/null 2> e2; r2=$?
fs compare --db old.db --baseline O2 > /dev/null 2> e3; r3=$?
fs compare old.db new.db --study nosuch > /dev/null 2> e4; r4=$?
set -e
[ "$r1$r2$r3$r4" = 2222 ] || fail "exit codes $r1 $r2 $r3 $r4"
grep -q "nosuch.db: no results database" e2 || fail "$(cat e2)"
grep -q "no study 'nosuch'" e4 || fail "$(cat e4)"
echo "ok 5 - usage errors exit 2"
echo "it_compare: all passed"
