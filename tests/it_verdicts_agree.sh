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

. "$FLAGSCOPE_SRC/tests/lib_verdicts.sh"

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
verdicts_workloads
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
study cap stable "max_repeat = 3"
fs run cap.study --dry-run > /dev/null 2> dcap.err
grep -q "^flagscope: warning: cap.study:[0-9]*: max_repeat = 3: with 3 runs a side no workload can be significant: .*(it needs 4 runs a side: set max_repeat = 4 or more)$" dcap.err &&
	! grep -q "leave repeat out" dcap.err || fail "dry run of repeat = stable capped at 3: $(cat dcap.err)"
echo "ok 4 - repeat 3, --repeat 2 and max_repeat = 3 say before building that nothing can be significant (the cap's fix names the cap); repeat 4 does not"
finish_counted
