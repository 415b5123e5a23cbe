#!/bin/bash
# it_verdicts_agree.sh - one verdict rule, read by every command (issue 26,
# analysis/verdict.h).  Each database is read with report (table, CSV,
# JSON, HTML), report --pivot distro (JSON and table) and --pivot opt (JSON,
# the real study), compare --baseline
# B --candidate C (JSON) and recommend (JSON and make.conf).  Expect, for
# every configuration and item against the baseline:
#  - the item's verdict is the same in the table, CSV, JSON, HTML and
#    compare; a configuration's verdict (and its interval) the same in the
#    table, CSV, JSON, HTML, compare's summary and recommend's JSON;
#  - a summary agrees with its parts: improved only with some part
#    significantly better and none worse (regressed likewise), mixed
#    exactly when parts are better and worse, unchanged when none is
#    significant.  Summaries are the rank table's configuration (over its
#    items) and the distro pivot's cell (a workload over its runs: one run
#    has that run's verdict); a mixed cell is marked '!' and listed, never
#    '~', and so is the geomean row of a column whose rows go both ways;
#  - recommend chooses the best improved configuration, or keeps the
#    baseline when none is.
# The databases:
#  1. two.db (synthetic, tests/test_verdict.c): the issue's repeat = 2, o3
#     10% faster on two workloads.  No part can be significant with two
#     runs a side: every command says unchanged, recommend keeps the
#     baseline (today's main said improved in the rank table and the distro
#     pivot and recommended o3);
#  2. mixed.db (synthetic): v2 25% faster on lz4/default, 25% slower on
#     lz4/best: mixed in the rank table and the distro pivot;
#  3. real.db: a real study here, repeat = 6, of jitter and twoway (jitter's
#     draw on two runs, the second scaled by INV instead of FACTOR): b is
#     faster on jitter and twoway/default and slower on twoway/inv.
#     Whatever the noise draws, the commands agree.
# And before building: run and run --dry-run at repeat = 3 (and --repeat 2)
# say in one line that no workload can be significant and name the fix;
# at repeat = 4 they say nothing.
# FLAGSCOPE_VERDICT_WRITER may name another test_verdict to write the
# synthetic databases (to read them with another build's flagscope).
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_verdicts_agree
command -v python3 > /dev/null || { echo "SKIP: python3 reads the JSON, CSV and HTML"; exit 77; }
writer=${FLAGSCOPE_VERDICT_WRITER:-$(dirname "$FLAGSCOPE_BIN")/tests/test_verdict}
[ -x "$writer" ] || fail "no $writer to write the synthetic databases (build the tests)"
"$writer" --write-dbs "$T"
count_failures

# read DB BASE: every command's output into DB.*
read_all() {
	local db=$1 base=$2
	fs report --db "$db" > "$db.txt"
	fs report --db "$db" -f csv > "$db.csv"
	fs report --db "$db" -f json > "$db.json"
	fs report --db "$db" -f html > "$db.html"
	fs report --db "$db" --pivot distro -f json > "$db.distro.json"
	fs report --db "$db" --pivot distro > "$db.distro.txt"
	# the axis pivot, where the study has axes (the real one: opt)
	fs report --db "$db" --pivot opt -f json > "$db.pivot.json" 2> /dev/null || rm -f "$db.pivot.json"
	fs recommend --db "$db" -f json > "$db.rec.json"
	fs recommend --db "$db" > "$db.rec.txt"
	python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["configs"]:
    if not c["baseline"]: print(c["label"])' "$db.json" > "$db.labels"
	while read -r c; do
		# exit 1 is a regression found, not an error
		fs compare --db "$db" --baseline "$base" --candidate "$c" -f json > "$db.cmp.$c.json" ||
			[ $? = 1 ] || fail "$db: compare $base $c"
	done < "$db.labels"
}

check() { # DB: the agreement; prints one line per configuration
	python3 - "$1" <<'P' || fail "$1: the commands disagree (above)"
import csv, html.parser, json, re, sys
db = sys.argv[1]
bad = []
def want(cond, what):
    if not cond:
        bad.append(what)
SIG = ("improved", "regressed")
rank = json.load(open(db + ".json"))
configs = {c["label"]: c for c in rank["configs"]}
items = {(c["label"], w["name"]): w["verdict"] for c in rank["configs"] for w in c["workloads"]}

def summary_ok(v, parts, what):
    better = "improved" in parts
    worse = "regressed" in parts
    if len(parts) == 1:
        want(v == parts[0], "%s: %s, its one part %s" % (what, v, parts[0]))
    elif better and worse:
        want(v == "mixed", "%s: %s, its parts %s" % (what, v, parts))
    elif v == "improved":
        want(better, "%s: improved, but no part is (%s)" % (what, parts))
    elif v == "regressed":
        want(worse, "%s: regressed, but no part is (%s)" % (what, parts))
    elif v == "mixed":
        want(False, "%s: mixed, its parts %s" % (what, parts))
    if not better and not worse:
        want(v == "unchanged", "%s: %s, no part significant (%s)" % (what, v, parts))

# the rank table's configurations are summaries of their items
for c in rank["configs"]:
    if c["verdict"] is not None and not c["baseline"]:
        summary_ok(c["verdict"], [w["verdict"] for w in c["workloads"]], "rank " + c["label"])

# CSV
for r in csv.DictReader(open(db + ".csv")):
    want(r["verdict"] == (items[(r["label"], r["workload"])] or ""),
         "csv %s %s: %s, json %s" % (r["label"], r["workload"], r["verdict"], items[(r["label"], r["workload"])]))
    want(r["config_verdict"] == (configs[r["label"]]["verdict"] or ""),
         "csv %s: %s, json %s" % (r["label"], r["config_verdict"], configs[r["label"]]["verdict"]))

# HTML: a config row then its item rows; the verdict is the sixth cell
class Rows(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cells, self.kind = [], None, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and a.get("class") in ("config", "item"):
            self.kind, self.cells = a["class"], []
        elif tag == "td" and self.cells is not None:
            self.cells.append("")
    def handle_endtag(self, tag):
        if tag == "tr" and self.cells is not None:
            self.rows.append((self.kind, self.cells))
            self.cells = None
    def handle_data(self, d):
        if self.cells:
            self.cells[-1] += d
p = Rows()
p.feed(open(db + ".html").read())
label, seen = None, 0
for kind, cells in p.rows:
    if kind == "config":
        label = cells[1].replace(" (baseline)", "").strip()
        want(cells[5] == (configs[label]["verdict"] or "-"), "html %s: %s" % (label, cells[5]))
    else:
        name = cells[1].strip().replace("\xa0", "")
        want(cells[5] == (items[(label, name)] or "-"), "html %s %s: %s" % (label, name, cells[5]))
    seen += 1
want(seen == len(rank["configs"]) + len(items), "html rows %d" % seen)

# the text table
label = None
for line in open(db + ".txt"):
    m = re.match(r"^(\d+|-)\s+(\S+)\s+\S+\s+(\[.*?\]|\S+)\s+(\S+)\s", line)
    if m and m.group(2) in configs:
        label = m.group(2)
        want(m.group(4) == (configs[label]["verdict"] or "-"), "table %s: %s" % (label, m.group(4)))
        continue
    m = re.match(r"^ {8}(\S+)\s+n=.*\s(unchanged|improved|regressed|-)\s+\S+", line)
    if m and label:
        want(m.group(2) == (items[(label, m.group(1))] or "-"), "table %s %s: %s" % (label, m.group(1), m.group(2)))
for c in rank["configs"]:
    if c["verdict"] == "mixed":
        want(re.search(r"^  %s: mixed: " % re.escape(c["label"]), open(db + ".txt").read(), re.M),
             "table: %s's mixed parts not listed" % c["label"])

# compare, per configuration against the baseline
base = [c["label"] for c in rank["configs"] if c["baseline"]][0]
for c in rank["configs"]:
    if c["baseline"]:
        continue
    cmp = json.load(open("%s.cmp.%s.json" % (db, c["label"])))
    lines = cmp["lines"]
    sums = cmp.get("summaries", [])
    want(len(sums) == 1 and sums[0]["verdict"] == (c["verdict"] or "n/a"),
         "compare %s's summary: %s, report %s" % (c["label"], [x["verdict"] for x in sums], c["verdict"]))
    if len(sums) == 1 and c["ratio"] is not None:
        close = lambda a, b: (a is None) == (b is None) and (a is None or abs(a - b) <= 1e-5 * abs(b))
        want(close(sums[0]["ratio"], c["ratio"]) and close(sums[0]["lo"], c["ci"][0]) and
             close(sums[0]["hi"], c["ci"][1]),
             "compare %s's summary %s [%s, %s], report %s %s" % (c["label"], sums[0]["ratio"], sums[0]["lo"], sums[0]["hi"], c["ratio"], c["ci"]))
    want(len(lines) == len(c["workloads"]), "compare %s: %d lines" % (c["label"], len(lines)))
    for l in lines:
        want(l["verdict"] == items[(c["label"], l["workload"])],
             "compare %s %s: %s, report %s" % (c["label"], l["workload"], l["verdict"], items[(c["label"], l["workload"])]))

# the distro pivot: a workload's cell summarises its runs
d = json.load(open(db + ".distro.json"))
dtext = open(db + ".distro.txt").read()
for row in d["rows"]:
    for cell in row["cells"]:
        parts = [v for (l, n), v in items.items() if l == cell["config"] and (n == row["workload"] or n.startswith(row["workload"] + "/"))]
        summary_ok(cell["verdict"], parts, "distro %s %s" % (row["workload"], cell["config"]))
        if cell["verdict"] == "mixed":
            want(cell.get("mixed") and re.search(r"^%s, %s: mixed: " % (re.escape(row["workload"]), re.escape(cell["config"])), dtext, re.M),
                 "distro %s %s: mixed without its runs listed" % (row["workload"], cell["config"]))

# the distro pivot's geomean row: mixed exactly when its rows go both ways
for g in d["geomean"]:
    vs = [c["verdict"] for row in d["rows"] for c in row["cells"] if c["config"] == g["config"] and c["status"] == "ok"]
    both = "mixed" in vs or ("improved" in vs and "regressed" in vs)
    want(bool(g.get("mixed")) == both, "distro geomean %s: mixed %s, rows %s" % (g["config"], g.get("mixed"), vs))

# the axis pivot: a level's cell against the baseline's is its rank item
import os
npivot = 0
if os.path.exists(db + ".pivot.json"):
    pv = json.load(open(db + ".pivot.json"))
    n = 0
    for b in pv["blocks"]:
        if b["reference"] != base or b["others"]:
            continue
        for row in b["rows"]:
            for level, cell in row["cells"].items():
                if level == base or (level, row["name"]) not in items:
                    continue
                n += 1
                want(cell["verdict"] == items[(level, row["name"])],
                     "pivot %s %s: %s, report %s" % (level, row["name"], cell["verdict"], items[(level, row["name"])]))
    want(n > 0, "the pivot judged no cell against the baseline")
    npivot = n

# recommend: the best improved configuration, or the baseline
rec = json.load(open(db + ".rec.json"))
for v in rec.get("verdicts", []):
    want(v["verdict"] == configs[v["label"]]["verdict"], "recommend %s: %s" % (v["label"], v["verdict"]))
improved = [c for c in rank["configs"] if c["verdict"] == "improved" and c["status"] == "ok"]
best = min(improved, key=lambda c: c["ratio"])["label"] if improved else base
want(rec["recommended"] == best and rec["beats_baseline"] == bool(improved),
     "recommend chose %s (beats %s), the rule's choice is %s" % (rec["recommended"], rec["beats_baseline"], best))
for b in bad:
    print("  disagree:", b)
print("# %s:" % db, ", ".join("%s %s" % (c["label"], c["verdict"]) for c in rank["configs"] if not c["baseline"]),
      "| recommend", rec["recommended"], "| pivot cells", npivot)
sys.exit(1 if bad else 0)
P
}

# 1. the issue's repeat = 2
read_all two.db base
check two.db
python3 - <<'P' || fail "two.db: something is called better with two runs a side"
import json
r = json.load(open("two.db.json"))
assert all(c["verdict"] in ("unchanged", None) for c in r["configs"]), [(c["label"], c["verdict"]) for c in r["configs"]]
assert json.load(open("two.db.rec.json"))["recommended"] == "base"
P
grep -q "^# no configuration beat the baseline base significantly" two.db.rec.txt ||
	fail "two.db: recommend does not keep the baseline: $(grep '^# chosen' two.db.rec.txt)"
echo "ok 1 - repeat = 2: every command says unchanged, recommend keeps the baseline"

# 2. a workload whose runs go both ways
read_all mixed.db base
check mixed.db
python3 - <<'P' || fail "mixed.db: v2 is not mixed everywhere"
import json
r = {c["label"]: c for c in json.load(open("mixed.db.json"))["configs"]}
assert r["v2"]["verdict"] == "mixed" and r["v2"]["mixed"].startswith("mixed: "), r["v2"]["verdict"]
assert r["v3"]["verdict"] == "improved", r["v3"]["verdict"]
d = json.load(open("mixed.db.distro.json"))
cell = [c for row in d["rows"] if row["workload"] == "lz4" for c in row["cells"] if c["config"] == "v2"][0]
assert cell["verdict"] == "mixed", cell
assert json.load(open("mixed.db.rec.json"))["recommended"] == "v3"
P
grep -Eq "^lz4 .* [-+][0-9.]+%! " mixed.db.distro.txt || fail "mixed.db: the distro cell is not marked '!': $(grep ^lz4 mixed.db.distro.txt)"
grep -q "^# not chosen v2: mixed: " mixed.db.rec.txt || fail "mixed.db: recommend does not say why v2 was not chosen"
echo "ok 2 - runs significantly better and worse: mixed in every command, never '~'"

# 3. a real study
. "$FLAGSCOPE_SRC/tests/lib_jitter.sh"
mkdir -p home/workloads/twoway
sed 's|double ms = base \* FACTOR / 100 \* (1 + sd \* z);|double ms = base * (argc > 3 ? INV : FACTOR) / 100 * (1 + sd * z);|' \
	"$FLAGSCOPE_SRC/tests/fixtures/workloads/jitter/jitter.c" > home/workloads/twoway/twoway.c
grep -q "INV : FACTOR" home/workloads/twoway/twoway.c || fail "twoway.c: jitter.c changed, the sed no longer applies"
sed -i '1i #ifndef INV\n#define INV (10000 / FACTOR)\n#endif' home/workloads/twoway/twoway.c
cat > home/workloads/twoway/recipe.ini <<'R'
; twoway: jitter's draw on two runs; the second scales by INV (default
; 10000 / FACTOR: faster on one run is slower on the other)
[workload]
description = jitter on two runs, the second inverted (it_verdicts_agree)
source = bundled
[build]
script = $CC $CFLAGS -o twoway "$RECIPE/twoway.c" $LDFLAGS -lm
binaries = twoway
[run default]
args = twoway 10 0.04
timeout = 10
metric.drawn = ^drawn ([0-9.]+)
unit.drawn = ms
[run inv]
args = twoway 10 0.04 inv
timeout = 10
metric.drawn = ^drawn ([0-9.]+)
unit.drawn = ms
R
study() { # NAME REPEAT
	jitter_study "$1" "repeat = $2" "a = -O2 -DFACTOR=100" "b = -O2 -DFACTOR=80" \
		"c = -O2 -DFACTOR=85 -DINV=85" "d = -O1 -DFACTOR=100"
	sed -i 's/^workloads = jitter$/workloads = jitter twoway/' "$1.study"
}
study real 6
JITTER_SEED=5 fs run real.study --db real.db -q > /dev/null 2> real.err || fail "real study: $(cat real.err)"
! grep -q warning real.err || fail "repeat = 6 warned: $(cat real.err)"
read_all real.db a
[ -s real.db.pivot.json ] || fail "report --pivot opt of the real study"
check real.db
echo "ok 3 - a real study: the commands agree"

# 4. a repeat that cannot be significant says so before building
study three 3
fs run three.study --dry-run > /dev/null 2> d3.err
line=$(grep -n "^repeat = 3$" three.study | cut -d: -f1)
want="flagscope: warning: three.study:$line: repeat = 3: with 3 runs a side no workload can be significant: the smallest Mann-Whitney p is 0.1, not below 0.05"
[ "$(grep -c warning d3.err)" = 1 ] && grep -qF "$want" d3.err && grep -q "repeat = stable, the default" d3.err &&
	grep -q "repeat = 4 or more)$" d3.err || fail "dry run at repeat = 3: $(cat d3.err)"
fs run real.study --dry-run --repeat 2 > /dev/null 2> d2.err
grep -q "^flagscope: warning: --repeat 2: with 2 runs a side no workload can be significant: the smallest Mann-Whitney p is 0.33" d2.err ||
	fail "dry run under --repeat 2: $(cat d2.err)"
fs run three.study --db three.db -q > /dev/null 2> r3.err || true
grep -qF "$want" r3.err || fail "run at repeat = 3 did not say it first: $(head -3 r3.err)"
study four 4
fs run four.study --dry-run > /dev/null 2> d4.err
! grep -q warning d4.err || fail "repeat = 4 warned: $(cat d4.err)"
echo "ok 4 - repeat 3 and --repeat 2 say before building that nothing can be significant; repeat 4 does not"
finish_counted
