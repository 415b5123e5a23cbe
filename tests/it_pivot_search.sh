#!/bin/bash
# it_pivot_search.sh - report --pivot on a search batch.  A batch's study
# is the user's reduced to its baseline plus the axis flagscope-search
# (levels "base" and one per candidate); the study file it records is the
# user's, which has no such axis.  The pipeline stores each study's levels
# (facts level.NAME = AXIS) and the pivot reads them.
# Expect: every batch pivots on flagscope-search (levels base and its
# candidates, reference base, one block opt=O2) and on the user's axis opt
# (one block per candidate), also with the study file gone; a candidate's
# column (and block) is labelled with the flags it adds to -O2, as its
# configuration was built, beside its hash name (csv: a LEVEL.flags
# column); an axis neither has is refused in one line that names the
# batch's axes.  (Also: search -o naming the database is refused and
# leaves it whole.)
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_pivot_search

cat > ps.study <<'S'
; expect: a search over two flags of tiny against -O2
[study]
name = ps
workloads = tiny
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
S
printf '[space]\nflags = -funroll-loops -fno-tree-vrp\n' > ps.space
fs search ps.study --space ps.space --strategy ce --budget 3 --metric size \
	--confirm-repeat 2 --db ps.db -q > /dev/null
# search -o naming the results database (a slip for --db) never overwrites it
set +e
fs search ps.study --space ps.space --strategy ce --budget 3 --metric size \
	--confirm-repeat 2 --db ps.db -q -o ps.db > /dev/null 2> so.err
rc=$?
set -e
[ "$rc" = 2 ] && grep -q "ps.db: is a results database" so.err ||
	fail "search -o ps.db: rc $rc: $(cat so.err)"
batches=$(python3 -c "import sqlite3;print(' '.join(n for (n,) in sqlite3.connect('ps.db').execute(\"select name from studies where name like 'search-%'\")))")
[ -n "$batches" ] || fail "the search stored no batch"

check() { # batch json-file axis
	python3 - "$@" <<'P'
import json, sqlite3, sys
batch, path, axis = sys.argv[1:]
p = json.load(open(path))
# a level's flags: what its configuration's CFLAGS add to the baseline's -O2
built = {l.split()[1]: c.split()[1:] for l, c in sqlite3.connect("ps.db").execute(
    "select label, cflags from configs where study = ?", (batch,))}
assert len(built) >= 2 and built["base"] == [], built
for level, flags in built.items():
    if axis == "flagscope-search":
        assert p["level_flags"][level] == " ".join(flags), (level, flags, p["level_flags"])
    else:
        want = f"flagscope-search={level}" + (f" ({' '.join(flags)})" if level.startswith("c") else "")
        assert any(b["others_labelled"] == want for b in p["blocks"]), (want, p["blocks"])
assert p["study"] == batch and p["axis"] == axis, (p["study"], p["axis"])
assert p["levels_from"] == "database", p["levels_from"]
if axis == "flagscope-search":
    assert p["levels"][0] == "base" and len(p["levels"]) >= 2, p["levels"]
    assert p["reference"] == "base", p["reference"]
    assert len(p["blocks"]) == 1, p["blocks"]
else:
    # one block per candidate, each with the one level O2
    assert p["levels"] == ["O2"] and len(p["blocks"]) >= 2, (p["levels"], len(p["blocks"]))
    assert p["blocks"][0]["others_named"] == "flagscope-search=base", p["blocks"][0]
assert all(b["rows"] for b in p["blocks"]), p["blocks"]
P
}
n=0
for b in $batches; do
	fs report --db ps.db --study "$b" --pivot flagscope-search --format json > "$b.json" ||
		fail "$b: pivot on flagscope-search failed"
	check "$b" "$b.json" flagscope-search || fail "$b: $(head -c 400 "$b.json")"
	# the csv says the flags too: LEVEL.flags, as json's level_flags
	fs report --db ps.db --study "$b" --pivot flagscope-search --format csv > "$b.csv" ||
		fail "$b: pivot csv"
	python3 - "$b.json" "$b.csv" <<'P' || fail "$b: csv flags: $(head -c 400 "$b.csv")"
import csv, json, sys
want = json.load(open(sys.argv[1]))["level_flags"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert rows and all(r[f"{l}.flags"] == f for r in rows for l, f in want.items()), (want, rows[0])
P
	n=$((n + 1))
done
# without --study: the latest batch, as report picks it
fs report --db ps.db --pivot flagscope-search --format json > latest.json || fail "pivot without --study"
latest=$(python3 -c "import json;print(json.load(open('latest.json'))['study'])")
case " $batches " in *" $latest "*) ;; *) fail "pivot without --study: study '$latest' is no batch" ;; esac
check "$latest" latest.json flagscope-search || fail "latest: $(head -c 400 latest.json)"
labelled=0
for b in $batches; do
	fs report --db ps.db --study "$b" --pivot flagscope-search > "$b.txt" || fail "$b: table"
	# a hash-named candidate's column: "c<hash> (<its flags>)"
	! grep -Eq '^time \(s\) .* c[0-9a-f]{12} \(-f[a-z-]+\)' "$b.txt" || labelled=$((labelled + 1))
done
[ "$labelled" -ge 1 ] || fail "no table labels a candidate column with its flags: $(cat ./*.txt)"
echo "ok 1 - $n search batches pivot on flagscope-search, with --study or without; $labelled table(s) name candidates' flags"

b=${batches%% *}
mv ps.study ps.study.gone
fs report --db ps.db --study "$b" --pivot opt --format json > opt.json || fail "$b: pivot on opt without the study file"
check "$b" opt.json opt || fail "$b on opt: $(head -c 400 opt.json)"
mv ps.study.gone ps.study
echo "ok 2 - a batch pivots on the user's axis, with the study file gone too"

set +e
fs report --db ps.db --study "$b" --pivot cc > cc.out 2> cc.err
rc=$?
set -e
[ "$rc" != 0 ] || fail "an axis the batch has not pivots"
[ "$(wc -l < cc.err)" = 1 ] && grep -q "has no axis 'cc' (its axes: opt, flagscope-search)" cc.err ||
	fail "unknown axis: $(cat cc.err)"
echo "ok 3 - an unknown axis: one line naming the batch's axes"
