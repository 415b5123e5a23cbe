#!/bin/bash
# it_search_baseline.sh - a search whose best flag set is the baseline
# itself (no flag changed: -funroll-loops only makes flagbug bigger, and the
# metric is size): its progress line names what it confirms, never an empty
# name ("confirming ''"), as the report's "(the baseline)" does.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_search_baseline
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/flagbug" "$T/home/workloads/"
cp "$FLAGSCOPE_SRC"/tests/fixtures/search/unroll-size.study fb.study
cp "$FLAGSCOPE_SRC"/tests/fixtures/search/unroll.space .
fs search fb.study --space unroll.space --strategy ce --budget 2 --metric size \
	--confirm-repeat 2 --db s.db --format json > s.json 2> s.err
python3 - <<'P'
import json
r = json.load(open("s.json"))
assert r["best"]["flags"] == "", ("the best is not the baseline", r["best"])
P
grep 'confirming' s.err || fail "no confirming line: $(cat s.err)"
if grep -q "confirming ''" s.err; then
	fail "an empty name in the progress: $(grep confirming s.err)"
fi
grep -q 'confirming the baseline' s.err || fail "the line does not say it confirms the baseline"
ok "best = the baseline; progress: $(grep confirming s.err)"
rm -rf "$T"
echo PASS
