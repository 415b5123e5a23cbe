#!/bin/bash
# it_why.sh - flagscope why on the tiny fixture built -O0 and -O2: both
# builds' instruction counts per function from cachegrind, the loop's
# functions present, -O2 executing fewer instructions in total, rows sorted
# by the size of the change, and the errors for unknown labels/workloads.
set -euo pipefail
if ! command -v valgrind >/dev/null; then
	echo "SKIP: valgrind is not installed (apt-get install valgrind)"
	exit 77
fi
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_why
tiny_study opt.study 1 "both ok; why shows -O2 running fewer instructions than -O0" O0 O2
fs run opt.study --db why.db -q > /dev/null

fs why --db why.db O0 O2 tiny --format json --top 0 > why.json
python3 - <<'P'
import json
w = json.load(open("why.json"))
fns = {f["name"]: f for f in w["functions"]}
for name in ("main", "helper_mix"):
    assert name in fns, (name, sorted(fns)[:20])
    assert fns[name]["a"] > 0 and fns[name]["b"] > 0, fns[name]
# tiny calls helper_mix 300000 times: -O0 spends more instructions in it
assert fns["helper_mix"]["a"] > fns["helper_mix"]["b"], fns["helper_mix"]
assert fns["main"]["a"] > fns["main"]["b"], fns["main"]
assert w["total_a"] > w["total_b"] > 0, (w["total_a"], w["total_b"])
# the loop's two functions account for most of the -O0 run
assert fns["main"]["a"] + fns["helper_mix"]["a"] > 0.5 * w["total_a"]
ch = [abs(f["b"] - f["a"]) for f in w["functions"]]
assert ch == sorted(ch, reverse=True), "not sorted by the largest change"
print("helper_mix O0 %d O2 %d, total O0 %d O2 %d" % (fns["helper_mix"]["a"],
      fns["helper_mix"]["b"], w["total_a"], w["total_b"]))
P
echo "ok 1 - per-function instruction counts of -O0 and -O2, largest change first"

fs why --db why.db O0 O2 tiny --top 3 > why.txt
grep -q "^function .* O0 .* O2 .*change .*ratio" why.txt || fail "table header: $(cat why.txt)"
[ "$(grep -c '^' why.txt)" = 7 ] || fail "--top 3 shows 3 rows: $(cat why.txt)"
grep -q "^total " why.txt || fail "no total line"
echo "ok 2 - table with --top"

set +e
fs why --db why.db O0 O9 tiny 2> e1; r1=$?
fs why --db why.db O0 O2 nosuch 2> e2; r2=$?
fs why --db why.db O0 O2 tiny --run nope 2> e3; r3=$?
set -e
[ "$r1" = 2 ] && grep -q "no configuration has the level 'O9'" e1 || fail "unknown label: $r1 $(cat e1)"
[ "$r2" = 2 ] && grep -q "nosuch" e2 || fail "unknown workload: $r2 $(cat e2)"
[ "$r3" = 2 ] && grep -q "no run section 'nope'" e3 || fail "unknown run: $r3 $(cat e3)"
echo "ok 3 - errors: unknown label, workload, run section"
echo "it_why: all passed"
