#!/bin/bash
# it_searchpath.sh - the workload and preset search path through the CLI:
# a recipe from each level (the study's workloads/, $FLAGSCOPE_PATH, the
# user's XDG folder, the bundled home) runs in one study; a recipe beside the
# study that shadows the bundled one is the one built and is said exactly once
# on stderr; the report's source facts name the user's recipe folders;
# `list workloads` says where each came from (text and JSON);
# a preset is found in $FLAGSCOPE_PATH's presets/.  Expected: all ok.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_searchpath
tiny=$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny
# the same tiny program under other names, one per level
mkdir -p proj/workloads p1/workloads user/flagscope/workloads
cp -r "$tiny" p1/workloads/tiny-path
cp -r "$tiny" user/flagscope/workloads/tiny-user
cp -r "$tiny" proj/workloads/tiny-study
# each its own description: byte-identical recipe folders share a build key
# (the recipe's hash is its files'), and only one of them would be run
for d in p1/workloads/tiny-path user/flagscope/workloads/tiny-user proj/workloads/tiny-study; do
	sed -i "s|^description = .*|description = tiny as ${d##*/}|" "$d/recipe.ini"
done
# and a tiny beside the study that shadows the bundled one: a different
# description, so the listing shows which won
cp -r "$tiny" proj/workloads/tiny
sed -i 's/^description = .*/description = the study'"'"'s own tiny/' proj/workloads/tiny/recipe.ini
export FLAGSCOPE_PATH=$T/nothing-here:$T/p1 XDG_DATA_HOME=$T/user
cat > proj/levels.study <<'S'
; expect: one configuration, ok on all four workloads
[study]
name = levels
workloads = tiny tiny-study tiny-path tiny-user
repeat = 1
[axis opt]
O1 = -O1
S
fs run proj/levels.study --db levels.db --format json -q > levels.json 2> levels.err ||
	fail "the study failed: $(cat levels.err)"
python3 - <<'P'
import json
r = json.load(open("levels.json"))
c = r["configs"][0]
assert c["status"] == "ok", c
assert sorted(w["name"] for w in c["workloads"]) == ["tiny", "tiny-path", "tiny-study", "tiny-user"], c
assert all(w["status"] == "ok" for w in c["workloads"]), c
P
n=$(grep -c "shadows" levels.err || true)
[ "$n" = 1 ] || fail "the shadowing said $n times, not once: $(cat levels.err)"
grep -q "workload 'tiny' from $T/proj/workloads/tiny (study) shadows the bundled one ($T/home/workloads/tiny)" levels.err ||
	fail "the shadowing line: $(cat levels.err)"

# the report says which recipe each workload was (the user's are named)
fs report --db levels.db > levels.rep
grep -qx "source.tiny: bundled; recipe $T/proj/workloads/tiny" levels.rep ||
	fail "the report does not name the shadowing recipe: $(grep '^source' levels.rep)"
grep -qx "source.tiny-path: bundled; recipe $T/p1/workloads/tiny-path" levels.rep ||
	fail "the report does not name the FLAGSCOPE_PATH recipe: $(grep '^source' levels.rep)"
# and so does the run's own source line, before anything is built
fs run proj/levels.study --dry-run > levels.dry 2>&1 || fail "dry run: $(cat levels.dry)"
grep -qx "flagscope: source tiny: bundled; recipe $T/proj/workloads/tiny" levels.dry ||
	fail "the run's source line does not name the shadowing recipe: $(grep 'source' levels.dry)"

# the listing, from the study's point of view
fs list workloads proj/levels.study > list.txt 2> list.err
grep -Eq "^tiny +study $T/proj/workloads +the study's own tiny \(shadows $T/home/workloads/tiny\)$" list.txt ||
	fail "list: tiny: $(cat list.txt)"
grep -Eq "^tiny-path +FLAGSCOPE_PATH $T/p1/workloads +tiny as tiny-path$" list.txt ||
	fail "list: tiny-path: $(cat list.txt)"
grep -Eq "^tiny-user +user $T/user/flagscope/workloads " list.txt || fail "list: tiny-user: $(cat list.txt)"
[ "$(grep -c shadows list.err)" = 1 ] || fail "list: the shadowing said once: $(cat list.err)"
fs list workloads proj/levels.study --format json > list.json 2>/dev/null
python3 - "$T" <<'P'
import json, sys
t = sys.argv[1]
ws = {w["name"]: w for w in json.load(open("list.json"))}
assert ws["tiny"]["origin"] == "study" and ws["tiny"]["shadows"] == [t + "/home/workloads/tiny"], ws["tiny"]
assert ws["tiny"]["description"] == "the study's own tiny", ws["tiny"]
assert ws["tiny-path"]["origin"] == "FLAGSCOPE_PATH" and ws["tiny-path"]["folder"] == t + "/p1/workloads", ws
assert ws["tiny-user"]["origin"] == "user", ws["tiny-user"]
assert ws["tiny-study"]["origin"] == "study" and ws["tiny-study"]["source"] == "bundled", ws["tiny-study"]
P
# without a study: the current folder's workloads/ is the study level
(cd proj && out_has -E "^tiny-study +study $T/proj/workloads " fs list workloads 2>/dev/null) ||
	fail "list without a study: the current folder"
out_has -E "^tiny +bundled +the harness's own tiny" fs list workloads 2>/dev/null ||
	fail "list from elsewhere: the bundled tiny"

# a study elsewhere does not see proj's recipes
cp proj/levels.study other.study
fs run other.study --dry-run > other.out 2>&1 && fail "a study elsewhere saw proj/workloads"
grep -q "unknown workload 'tiny-study'" other.out || fail "unknown workload: $(cat other.out)"

# presets: $FLAGSCOPE_PATH's presets/, shown with their origin
mkdir -p p1/presets
sed 's/tiny tiny-study tiny-path tiny-user/tiny-path tiny-user/' proj/levels.study > p1/presets/mypreset.study
out_has -E "^mypreset +FLAGSCOPE_PATH $T/p1/presets " fs list presets || fail "list presets: $(fs list presets)"
# a name longer than the column widens it: the origins stay aligned
cp p1/presets/mypreset.study p1/presets/a-preset-with-a-long-name.study
fs list presets > presets.txt
[ "$(awk '{ print index($0, " " $2 " ") }' presets.txt | sort -u | wc -l)" = 1 ] ||
	fail "list presets: the origin column is not aligned: $(cat presets.txt)"
fs run mypreset --dry-run > preset.out 2>&1 || fail "run a preset from FLAGSCOPE_PATH: $(cat preset.out)"
# a missing study file is named as written, not taken for a preset
fs run missing.study --dry-run > missing.out 2>&1 && fail "a missing study file ran"
grep -q "^flagscope: missing.study: cannot read" missing.out || fail "missing study file: $(cat missing.out)"
# a bare name no presets folder holds: one line naming every folder looked
# in (not only the last one), exit 2, for run and search alike
for cmd in run search; do
	rc=0
	fs $cmd nosuchpreset > nopreset.out 2>&1 || rc=$?
	[ $rc = 2 ] && [ "$(wc -l < nopreset.out)" = 1 ] &&
		grep -q "no preset nosuchpreset.study in .*$T/p1/presets, .*/presets (flagscope list presets" nopreset.out ||
		fail "$cmd of an unknown preset (rc $rc): $(cat nopreset.out)"
done
# a FLAGSCOPE_PATH folder holding recipes directly is not the shape: said
FLAGSCOPE_PATH=$T/p1/workloads fs list workloads 2> shape.err >/dev/null
grep -q "FLAGSCOPE_PATH folder $T/p1/workloads has neither workloads/ nor presets/" shape.err ||
	fail "the wrong shape is not said: $(cat shape.err)"
# search's batches are studies made in memory from the user's study: they
# find its own workloads/ (no $FLAGSCOPE_PATH needed), write no study files
# and record the user's study file as their path
cat > proj/s.study <<'S'
; expect: a search over the study's own tiny-study finds a best set
[study]
name = s
workloads = tiny-study
repeat = 1
baseline = O1
[axis opt]
O1 = -O1
S
printf '[space]\nflags = -funroll-loops\n' > s.space
fs search proj/s.study --space s.space --strategy ce --budget 2 --metric size \
	--confirm-repeat 1 --db s.db --format json -q > s.json 2> s.err || fail "search: $(cat s.err)"
python3 -c 'import json; r = json.load(open("s.json")); assert r["best"]["objective"] is not None, r["best"]' ||
	fail "search over a study-local workload: $(cat s.err)"
ls s.db.search/*.study > /dev/null 2>&1 && fail "search wrote study files: $(ls s.db.search)"
ls s.db.search/search-*.log > /dev/null 2>&1 || fail "no batch logs in s.db.search: $(ls s.db.search)"
python3 - "$T/proj/s.study" <<'P' || fail "the batches' recorded study path is not the user's study"
import os, sqlite3, sys
paths = {p for (p,) in sqlite3.connect("s.db").execute("select path from studies where name like 'search-%'")}
assert paths == {os.path.realpath(sys.argv[1])}, paths
P
# so `why` on a batch finds the study's own workload from anywhere
if command -v valgrind > /dev/null; then
	read -r batch level < <(python3 -c 'import sqlite3
print(*sqlite3.connect("s.db").execute("select study, label from configs where study like '"'search-%'"' "
      "and label not like '"'% base'"' order by study limit 1").fetchone())' | sed 's/ O1 / /')
	(cd / && fs why --db "$T/s.db" --study "$batch" base "$level" tiny-study) > why.out 2>&1 ||
		fail "why on a search batch ($batch, $level): $(cat why.out)"
else
	echo "it_searchpath: valgrind is not installed, why on a search batch not checked"
fi
echo "it_searchpath: ok"
