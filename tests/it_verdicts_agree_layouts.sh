#!/bin/bash
# it_verdicts_agree_layouts.sh - with layouts = 2 (issue 27: each
# configuration built twice, its functions in another order, layout a
# random effect of the verdicts, doc/layout.md) every command still shows
# the same number and the same verdict for the same pair (issue 26).  One
# real study of jitter and twoway (tests/lib_verdicts.sh: b faster on
# jitter and twoway/default, slower on twoway/inv; c faster on twoway;
# d the same draw as the baseline a), repeat = 5, layouts = 2, is read by
# report (table, CSV, JSON, HTML), report --pivot distro and --pivot opt,
# compare and recommend.  Expected: every item is judged over 2 layouts a
# side, and for every pair the verdicts agree and the ratios too: the axis
# pivot's cell, compare's line and the distro cell of a one-run workload
# show the rank table's ratio, the nested rule's (the mean of each layout's
# median), never the ratio of the medians of every layout's runs pooled
# (what --pivot opt printed before: crc32 O3 +1.3% where report said 0.984);
# and the pivot judges under report's --min-effect, as the rank table does
# (it took the defaults whatever report was given).
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_verdicts_agree_layouts
command -v python3 > /dev/null || { echo "SKIP: python3 reads the JSON, CSV and HTML"; exit 77; }
command -v ld.lld > /dev/null || { echo "SKIP: layouts = N links its variants with lld (no ld.lld here)"; exit 77; }
count_failures
. "$FLAGSCOPE_SRC/tests/lib_verdicts.sh"

verdicts_workloads
study lay 5 "layouts = 2"
JITTER_SEED=11 fs run lay.study --db lay.db -q > /dev/null 2> lay.err || fail "layouts study: $(tail -3 lay.err)"
read_all lay.db a
[ -s lay.db.pivot.json ] || fail "report --pivot opt of the layouts study"
python3 - <<'P' || fail "lay.db: an item is not judged over 2 layouts a side"
import json
r = json.load(open("lay.db.json"))
bad = [(c["label"], w["name"], w["layouts"]) for c in r["configs"] if not c["baseline"] for w in c["workloads"] if w["layouts"] != 2]
assert not bad, bad
P
check lay.db
echo "ok 1 - layouts = 2: every command shows the rank table's ratio and verdict for every pair"

# 2. the pivot judges under report's options: --min-effect 0.17 makes c's
# 15% (jitter, twoway) too small to count in the rank table (unless the
# draw makes it larger), so in the pivot too
fs report --db lay.db --min-effect 0.17 -f json > me.json
fs report --db lay.db --pivot opt --min-effect 0.17 -f json > me.pivot.json
python3 - <<'P' || fail "--min-effect 0.17: the pivot's verdicts are not the rank table's"
import json
r = json.load(open("me.json"))
items = {(c["label"], w["name"]): w["verdict"] for c in r["configs"] for w in c["workloads"]}
p = json.load(open("me.pivot.json"))
n = 0
for b in p["blocks"]:
    for row in b["rows"]:
        for level, cell in row["cells"].items():
            if (level, row["name"]) in items and level != "a":
                assert cell["verdict"] == items[(level, row["name"])], (level, row["name"], cell["verdict"], items[(level, row["name"])])
                n += 1
assert n == 9, n
P
echo "ok 2 - the pivot judges under report's --min-effect, as the rank table does"
finish_counted
