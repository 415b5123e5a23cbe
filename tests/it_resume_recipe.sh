#!/bin/bash
# it_resume_recipe.sh - a study resumed after its workload's recipe changed.
# The references are kept per baseline build key (<cache>/refs/KEY/RUN), so
# a changed recipe (a new build key) has none, while the baseline's stored
# warm-up row says the reference run was done.  Expect: the resumed study
# runs the baseline's warm-up again for the new build's reference, every new
# repetition is ok (none no_reference), the repetitions of the first run are
# kept, and the ranking has all of them.  Repetitions a database already
# holds as no_reference (what the bug left) run again once the reference
# exists.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_resume_recipe

cat > resume.study <<'S'
; expect: 2 configurations x tiny, 2 then 3 repetitions
[study]
name = resume
workloads = tiny
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
S
runs() {
	python3 -c "import sqlite3,sys;print(sqlite3.connect('resume.db').execute(sys.argv[1]).fetchone()[0])" "$1"
}

fs run resume.study --db resume.db -q > /dev/null
[ "$(runs "select count(*) from runs where status='ok'")" = 6 ] || fail "first run: not 6 ok runs"
reps() { runs "select group_concat(r, ',') from (select config_id || rep || status as r from runs where rep between 1 and 2 order by r)"; }
first=$(reps)
refs1=$(ls cache/refs)

# a comment changes the recipe's text, so its build key and refs folder
echo '; changed after the first run' >> home/workloads/tiny/recipe.ini
sed -i 's/^repeat = 2/repeat = 3/' resume.study
fs run resume.study --db resume.db --format json > resumed.json 2> resumed.err ||
	fail "resumed study failed: $(tail -3 resumed.err)"
[ "$(ls cache/refs | wc -l)" = 2 ] || fail "no new reference folder beside $refs1: $(ls cache/refs)"
grep -q '\[run 1/.*\] O2 tiny warm-up: ok' resumed.err ||
	fail "the baseline's warm-up did not run again: $(grep '\[run ' resumed.err | head -3)"
bad=$(runs "select count(*) from runs where status<>'ok'")
[ "$bad" = 0 ] || fail "$bad runs not ok: $(runs "select group_concat(rep || ' ' || status || ' ' || detail, '; ') from runs where status<>'ok'")"
kept=$(reps)
[ "$kept" = "$first" ] || fail "the first run's repetitions changed: $first -> $kept"
python3 - <<'P'
import json
r = json.load(open("resumed.json"))
got = {c["label"]: (c["status"], c["workloads"][0]["n"]) for c in r["configs"]}
assert got == {"O2": ("ok", 3), "O1": ("ok", 3)}, got
P
echo "ok 1 - resumed after a recipe change: the baseline's reference is made again, 3 ok repetitions each, the first run's kept"

# a third run with nothing changed runs nothing (the new reference is there)
fs run resume.study --db resume.db > /dev/null 2> again.err
! grep -q '\[run ' again.err || fail "a finished study ran again: $(grep '\[run ' again.err | head -2)"
echo "ok 2 - a finished study with its reference runs nothing"

# what the bug left in a database: repetitions stored no_reference run again
# now that the reference is there, and nothing else does
python3 - <<'P'
import sqlite3
db = sqlite3.connect("resume.db")
n = db.execute("update runs set status = 'no_reference', detail = 'planted' where rep = 3").rowcount
assert n == 2, n
db.commit()
P
fs run resume.study --db resume.db > /dev/null 2> healed.err || fail "healing run: $(tail -2 healed.err)"
[ "$(grep -c '\[run ' healed.err)" = 2 ] && grep -q '\[run .*\] O1 tiny rep 3: ok' healed.err ||
	fail "want the two no_reference repetitions run again: $(grep '\[run ' healed.err)"
[ "$(runs "select count(*) from runs where status<>'ok'")" = 0 ] || fail "no_reference rows left"
echo "ok 3 - repetitions stored no_reference run again once the reference exists"
