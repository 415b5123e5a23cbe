# lib_verdicts.sh - sourced by it_verdicts_agree*.sh after lib_it.sh and
# count_failures: read_all DB BASE reads one database with every command
# (report table, CSV, JSON, HTML; --pivot distro, JSON and table; --pivot
# opt, JSON; compare BASE against each configuration, JSON; recommend,
# JSON and make.conf) into DB.*; check DB then checks that they agree: the
# same verdict for every pair, summaries that agree with their parts, and
# the same ratio for the same pair (the rank table's item ratio in
# compare's line, the axis pivot's cell and a one-run workload's distro
# cell).  check prints one line per database and counts a failure when
# the commands disagree.
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
	fs report --db "$db" --pivot opt -f csv > "$db.pivot.csv" 2> /dev/null || rm -f "$db.pivot.csv"
	fs report --db "$db" --pivot opt > "$db.pivot.txt" 2> /dev/null || rm -f "$db.pivot.txt"
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
ratios = {(c["label"], w["name"]): w["ratio"] for c in rank["configs"] for w in c["workloads"]}
# the same pair, the same number: JSON prints 6 significant digits
def same_ratio(a, b):
    return (a is None) == (b is None) and (a is None or abs(a - b) <= 1e-5 * max(1, abs(b)))
def pct_ratio(pct, higher_better):
    """a pivot's percent as the rank table's ratio (candidate / baseline)"""
    if pct is None:
        return None
    return 1 + pct / 100 if higher_better else 1 / (1 + pct / 100)
ratio_pairs = 0
rank_hb = rank["higher_better"]

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
        want(same_ratio(l["ratio"], ratios[(c["label"], l["workload"])]),
             "compare %s %s: ratio %s, report %s" % (c["label"], l["workload"], l["ratio"], ratios[(c["label"], l["workload"])]))
        ratio_pairs += 1

# the distro pivot: a workload's cell summarises its runs
d = json.load(open(db + ".distro.json"))
dtext = open(db + ".distro.txt").read()
for row in d["rows"]:
    for cell in row["cells"]:
        parts = [v for (l, n), v in items.items() if l == cell["config"] and (n == row["workload"] or n.startswith(row["workload"] + "/"))]
        summary_ok(cell["verdict"], parts, "distro %s %s" % (row["workload"], cell["config"]))
        if (cell["config"], row["workload"]) in ratios and cell["time_pct"] is not None:
            r = ratios[(cell["config"], row["workload"])]
            want(same_ratio(1 + cell["time_pct"] / 100, r),
                 "distro %s %s: %+.4f%%, report ratio %s" % (row["workload"], cell["config"], cell["time_pct"], r))
            ratio_pairs += 1
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
                got = pct_ratio(cell["pct"], rank_hb)
                want(same_ratio(got, ratios[(level, row["name"])]),
                     "pivot %s %s: %s%% (ratio %s), report ratio %s" % (level, row["name"], cell["pct"], got, ratios[(level, row["name"])]))
                ratio_pairs += 1
    want(n > 0, "the pivot judged no cell against the baseline")
    # the table: a ratio marked '~' exactly when not significant ('?' untested)
    levels = pv["levels"]
    block, title, marks = None, None, 0
    for line in open(db + ".pivot.txt"):
        if line.startswith("["):
            block, title = line.strip(), None
            continue
        t = line.split()
        if not t:
            title = None
            continue
        if block == "[opt]" and title is None and t[0] == pv["metric"]:
            title = t
            continue
        if block != "[opt]" or title is None or len(t) != 2 * len(levels):
            continue
        name, k = t[0], 1
        for level in levels:
            if level == base:
                k += 1
                continue
            mark = t[k + 1][-1]
            v = items.get((level, name))
            if v is not None:
                want((mark == "~") == (v == "unchanged") and mark != "?",
                     "pivot table %s %s: %s, report %s" % (level, name, t[k + 1], v))
                marks += 1
            k += 2
    want(marks == n, "the pivot table showed %d verdicts, json %d" % (marks, n))
    for r in csv.DictReader(open(db + ".pivot.csv")):
        if r["reference"] != base or r["block"]:
            continue
        name = r["workload"] + ("/" + r["run"] if r["run"] else "")
        for level in [k[:-len(".verdict")] for k in r if k.endswith(".verdict")]:
            if level != base and (level, name) in items:
                want(r[level + ".verdict"] == items[(level, name)],
                     "pivot csv %s %s: %s, report %s" % (level, name, r[level + ".verdict"], items[(level, name)]))
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
      "| recommend", rec["recommended"], "| pivot cells", npivot, "| ratios compared", ratio_pairs)
sys.exit(1 if bad else 0)
P
}

# verdicts_workloads: jitter (tests/lib_jitter.sh) and twoway, jitter's
# draw on two runs, the second scaled by INV instead of FACTOR, in
# home/workloads; study NAME REPEAT [EXTRA]: NAME.study of both, baseline a,
# the [study] line EXTRA (layouts = 2), configurations a (-O2), b (20%
# faster, on twoway/inv 25% slower), c (15% faster on both runs of twoway)
# and d (-O1, the same draw as a)
verdicts_workloads() {
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
}
study() { # NAME REPEAT [EXTRA]
	jitter_study "$1" "repeat = $2${3:+
$3}" "a = -O2 -DFACTOR=100" "b = -O2 -DFACTOR=80" \
		"c = -O2 -DFACTOR=85 -DINV=85" "d = -O1 -DFACTOR=100"
	sed -i 's/^workloads = jitter$/workloads = jitter twoway/' "$1.study"
}
