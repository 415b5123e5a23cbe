#!/bin/bash
# it_cachegrind_meter.sh - a study with `meters = rusage cachegrind` ranked
# by `metric = insns`.  cachegrind wraps one run after the warm-up and its
# insns are stored on the warm-up (rep 0); the ranking counts a metric
# that only the warm-up has from it (analysis/store.h store_get_samples).
# Expect: both configurations ranked on insns, n = 1 each, the median the
# stored warm-up value, -O0 executing more instructions than -O2; with
# repeat = stable the deterministic verdicts settle after one round.
# SKIP when valgrind is not installed (scripts/packages.txt lists it).
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_cachegrind_meter
command -v valgrind >/dev/null || { echo "SKIP: valgrind is not installed (apt-get install valgrind)"; exit 77; }

cat > cg.study <<'S'
; expect: ranked on cachegrind's insns, -O0 above -O2
[study]
name = cg
workloads = tiny
repeat = 2
baseline = O2
metric = insns
meters = rusage cachegrind
[axis opt]
O2 = -O2
O0 = -O0
S
fs run cg.study --db cg.db --format json -q > cg.json 2> cg.err || fail "not ranked: $(tail -2 cg.err)"
python3 - <<'P'
import json, sqlite3
r = json.load(open("cg.json"))
assert r["metric"] == "insns", r["metric"]
db = sqlite3.connect("cg.db")
got = {}
for c in r["configs"]:
    w = c["workloads"][0]
    assert c["status"] == "ok" and w["n"] == 1, (c["label"], c["status"], w["n"])
    (v,) = db.execute("select value from samples join configs on id = config_id and "
                      "configs.study = samples.study where label = ? and metric = 'insns' "
                      "and rep = 0", (c["label"],)).fetchone()
    assert abs(w["median"] - v) <= 1e-5 * v, (c["label"], w["median"], v)  # JSON: 6 digits
    got[c["label"]] = c["ratio"]
assert got["O2"] == 1 and got["O0"] > 1, got
P
fs report --db cg.db > cg.txt || fail "report"
grep -q "^insns: instructions counted by valgrind's cachegrind (natively), not timed" cg.txt ||
	fail "the report does not say cachegrind counted: $(grep '^insns' cg.txt)"
echo "ok 1 - meters = cachegrind ranks by insns (the warm-up's count, n = 1), and the report says who counted"

sed '/^repeat/d; s/^name = cg/name = cgstable/' cg.study > stable.study
fs run stable.study --db cg.db --format json > stable.json 2> stable.err || fail "stable: $(tail -2 stable.err)"
grep -q "repeat = stable: every verdict settled after 1 rounds" stable.err ||
	fail "stable did not settle at once: $(grep 'repeat = stable' stable.err)"
echo "ok 2 - repeat = stable on cachegrind's insns settles after one round"
