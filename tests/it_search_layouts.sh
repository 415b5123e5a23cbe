#!/bin/bash
# it_search_layouts.sh - search on a study of layouts = 2 (issue 27: one
# rule, read by every command).  The steps that decide a verdict build
# every flag set and the baseline as 2 layout variants and judge with
# layout as a random effect; the exploration stays one build per flag set.
#  1. size search: the confirmation's study has 2 layout variants of each
#     configuration, each built and run `--confirm-repeat` times (the
#     stored rows say it), every item of the confirmation is judged over 2
#     layouts, and `report` on that study gives the same verdict and ratio
#     for the same pair; the exploration's batches have no variant.
#  1b. with a calibration of the machine in the database the confirmation
#     takes its floors as report's --min-effect auto does.
#  2. time search from an -O0 baseline (levels -O0 -O2): the minimisation's
#     measurements build every flag set as 2 variants.
#  3. a compiler whose link cannot take lld: said once, one layout used.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_search_layouts
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/flagbug" "$T/home/workloads/"
if ! ld.lld --version >/dev/null 2>&1; then
	echo "SKIP: no ld.lld: layout variants cannot be built here (Debian's lld package)"
	exit 77
fi

cat > s.study <<'S'
; expect: search builds the confirmation's configurations as 2 layout variants
[study]
name = sl
workloads = flagbug
repeat = 2
layouts = 2
baseline = O2
[axis opt]
O2 = -O2
S
cat > s.space <<'S'
; alignment padding off: a smaller .text, so the best set is not the baseline
[space]
flags = -fno-align-loops -fno-align-jumps
S

# 1. size: exact exploration; the confirmation over 2 layouts a side
fs search s.study --space s.space --strategy ce --budget 3 --metric size \
	--confirm-repeat 4 --db s.db --format json > s.json 2> s.err ||
	fail "search: $(tail -3 s.err)"
grep -q "confirming .* with 4 interleaved runs of each of 2 layout variants" s.err ||
	fail "the confirmation does not say its layouts: $(cat s.err)"
grep -q "cannot build layout variants" s.err && fail "lld is here, yet: $(cat s.err)"
study=$(python3 -c 'import json; print(json.load(open("s.json"))["confirm"]["study"])')
fs report --db s.db -f json --study "$study" > report.json 2> report.err ||
	fail "report on $study: $(tail -3 report.err)"
python3 - "$study" <<'P'
import json, sqlite3, sys
study = sys.argv[1]
r = json.load(open("s.json"))
assert r["best"]["flags"], ("the best set is the baseline: nothing to confirm against report", r["best"])
c = r["confirm"]
assert c["status"] == "ok" and c["layouts"] == 2 and c["repeat"] == 4, c
for a in c["against"]:
    assert all(i["layouts"] == 2 and i["n"] == 8 for i in a["items"]), a
db = sqlite3.connect("s.db")
# per plain configuration of the confirmation: its variants, their builds and runs
rows = db.execute("""select p.label, count(distinct v.id), count(distinct b.config_id),
    (select count(*) from runs r join configs x on x.study = r.study and x.id = r.config_id
     where r.study = p.study and (x.id = p.id or x.layout_of = p.id) and r.rep >= 1
     and r.status = 'ok')
    from configs p join configs v on v.study = p.study and (v.id = p.id or v.layout_of = p.id)
    left join builds b on b.study = p.study and b.config_id = v.id and b.status = 'ok'
    where p.study = ? and p.layout_of = '' group by p.id""", (study,)).fetchall()
labels = sorted(x[0].split()[-1] for x in rows)
assert labels == ["O3", "base", "best"], rows
for label, variants, built, runs in rows:
    assert (variants, built, runs) == (2, 2, 8), ("want 2 variants, 2 builds, 8 runs", label, variants, built, runs)
print("confirmation: per side %d variants built, %d runs" % (rows[0][2], rows[0][3]))
# the exploration stayed one build per flag set
ex = db.execute("select count(*) from configs where study like 'search-%' and study != ? and layout > 0",
                (study,)).fetchone()[0]
assert ex == 0, "the exploration built layout variants"
# report on the same study: the same verdict, ratio and items for best vs -O2
rep = {x["label"].split()[-1]: x for x in json.load(open("report.json"))["configs"]}
a, x = c["against"][0], rep["best"]
assert a["level"] == "-O2" and rep["base"]["baseline"], (a, rep["base"])
assert x["verdict"] == a["verdict"], (x["verdict"], a["verdict"])
assert abs(x["ratio"] - a["time_ratio"]) < 1e-9, (x["ratio"], a["time_ratio"])
assert abs(x["ci"][0] - a["ci"][0]) < 1e-9 and abs(x["ci"][1] - a["ci"][1]) < 1e-9, (x["ci"], a["ci"])
items = {w["name"]: (w["verdict"], w["layouts"]) for w in x["workloads"]}
assert items == {i["name"]: (i["verdict"], 2) for i in a["items"]}, (items, a["items"])
print("report and search agree: %s %.4f" % (a["verdict"], a["time_ratio"]))
P
echo "ok 1 - the confirmation builds 2 layout variants a side and report gives its verdict"

# 1b. a calibration of this machine in the database: the confirmation
# takes its floors as report's --min-effect auto does (a floor of 500%:
# every item within it, whatever the load).  The same search again: its
# confirmation's study is resumed (nothing built or run), judged anew
python3 - "$study" <<'P'
import hashlib, sqlite3, sys
db = sqlite3.connect("s.db")
m = dict(db.execute("select key, value from machine where study = ?", (sys.argv[1],)).fetchall())
text = "cpu=%s\ncores=%s\nvm=%s\n" % (m["cpu"], m.get("cores", ""), m.get("vm", ""))
mid = hashlib.sha256(text.encode()).hexdigest()[:16]
db.execute("insert into calibrations(machine, cpu, item, metric, floor, study, stored) "
           "values (?, ?, 'flagbug', 'time', 5.0, 'hand', 'now')", (mid, m["cpu"]))
db.commit()
P
fs search s.study --space s.space --strategy ce --budget 3 --metric size \
	--confirm-repeat 4 --db s.db --format json -q > c.json 2> c.err || fail "search: $(tail -3 c.err)"
[ "$(python3 -c 'import json; print(json.load(open("c.json"))["confirm"]["study"])')" = "$study" ] ||
	fail "the same confirmation is another study"
fs report --db s.db -f json --study "$study" > creport.json 2> creport.err ||
	fail "report on $study: $(tail -3 creport.err)"
python3 - <<'P'
import json
a = json.load(open("c.json"))["confirm"]["against"][0]
x = {c["label"].split()[-1]: c for c in json.load(open("creport.json"))["configs"]}["best"]
assert x["verdict"] == a["verdict"] == "unchanged", (x["verdict"], a["verdict"])
assert abs(x["ratio"] - a["time_ratio"]) < 1e-9, (x["ratio"], a["time_ratio"])
w = {w["name"]: w for w in x["workloads"]}
for i in a["items"]:
    assert i["layout_noise"] == 5.0 and w[i["name"]]["layout_noise"] == 5.0, (i, w[i["name"]])
print("calibrated: search and report both 'within layout noise (+-500%%)', %s %.4f"
      % (a["verdict"], a["time_ratio"]))
P
grep -q "flagbug: .*unchanged: within layout noise (±500.0%)" <(fs search s.study --space s.space \
	--strategy ce --budget 3 --metric size --confirm-repeat 4 --db s.db -q 2>&1) ||
	fail "the text does not say within layout noise"
echo "ok 1b - with a calibration, the confirmation takes its floors as report does"

# 2. time from -O0: the minimisation measures 2 variants of each flag set.
# sumloop's loop is a closed form at -O2 (gcc's final value replacement:
# 1 ms) and 1.5e8 additions at -O0 (0.1 to 0.3 s): the -O level is the one
# dimension that matters, by far more than a loaded machine's noise, so
# the best set has it and there is something to minimise.
mkdir -p home/workloads/sumloop
cat > home/workloads/sumloop/sumloop.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000, s = 0;
	for (unsigned long i = 0; i < n; i++)
		s += 7;
	printf("%lu\n", s);
	return 0;
}
C
cat > home/workloads/sumloop/recipe.ini <<'R'
; sumloop: a sum the optimiser turns into a closed form; its output is
; the same at every level
[workload]
description = a loop -O1 and above compute in closed form
source = bundled
[build]
script = $CC $CFLAGS -o sumloop "$RECIPE/sumloop.c" $LDFLAGS
binaries = sumloop
[run]
args = sumloop 150000000
timeout = 60
R
cat > z.study <<'S'
; expect: -O2 is the best set; its minimisation judged over 2 layouts a side
[study]
name = zl
workloads = sumloop
repeat = 2
layouts = 2
baseline = O0
[axis opt]
O0 = -O0
S
cat > z.space <<'S'
; the -O level is the dimension that matters
[space]
levels = -O0 -O2
flags = -fno-align-loops
S
fs search z.study --space z.space --strategy exhaustive --budget 3 --metric time \
	--repeat 2 --minimise-repeat 4 --confirm-repeat 0 --db z.db --format json > z.json 2> z.err ||
	fail "time search: $(tail -3 z.err)"
grep -q "minimising .* with 4 interleaved runs against it of each of 2 layout variants" z.err ||
	fail "the minimisation does not say its layouts: $(cat z.err)"
python3 - <<'P'
import json, sqlite3
r = json.load(open("z.json"))
assert "-O2" in r["best"]["flags"].split(), r["best"]
m = r["minimal"]
assert m and "2 layout variants" in m["how"], m
db = sqlite3.connect("z.db")
evals = {b for (b,) in db.execute("select batch from search_evals")}
studies = {s for (s,) in db.execute("select distinct study from configs")} - evals
assert studies, "no minimisation measurement"
for s in studies:
    rows = db.execute("""select p.label, count(v.id), sum(b.status = 'ok') from configs p
        join configs v on v.study = p.study and (v.id = p.id or v.layout_of = p.id)
        join builds b on b.study = v.study and b.config_id = v.id
        where p.study = ? and p.layout_of = '' group by p.id""", (s,)).fetchall()
    assert len(rows) >= 2 and all(n == 2 and ok == 2 for _, n, ok in rows), (s, rows)
for s in evals:
    assert db.execute("select count(*) from configs where study = ? and layout > 0", (s,)).fetchone()[0] == 0, s
print("minimisation: %d measurements, each flag set built as 2 variants; minimal '%s' (%s)"
      % (len(studies), m["flags"], m["how"]))
P
echo "ok 2 - the time minimisation measures 2 layout variants of each flag set"

# 3. no lld: said once, one layout
nolld_gcc nolld-gcc
cat > n.study <<S
; expect: layout variants unsupported (no lld): search says so and uses one layout
[study]
workloads = flagbug
repeat = 2
layouts = 2
baseline = O2
[axis cc]
nolld = $PWD/nolld-gcc
[axis opt]
O2 = -O2
S
fs search n.study --space s.space --strategy ce --budget 1 --metric size \
	--confirm-repeat 4 --no-minimise --db n.db --format json -q > n.json 2> n.err ||
	fail "no lld: $(tail -3 n.err)"
[ "$(grep -c "cannot build layout variants" n.err)" = 1 ] || fail "no lld: not said once: $(cat n.err)"
grep -q "warning: .*n.study: layouts = 2: .*unrecognized command-line option '-fuse-ld=lld'.*search confirms and minimises with one layout" n.err ||
	fail "no lld: the note does not say why and what: $(cat n.err)"
python3 - <<'P'
import json, sqlite3
c = json.load(open("n.json"))["confirm"]
assert c["status"] == "ok" and c["layouts"] == 1, c
assert all(i["layouts"] == 1 and i["n"] == 4 for a in c["against"] for i in a["items"]), c
n = sqlite3.connect("n.db").execute("select count(*) from configs where layout > 0").fetchone()[0]
assert n == 0, "variants planned without lld"
P
echo "ok 3 - without lld search says so once and confirms with one layout"
rm -rf "$T"
echo PASS
