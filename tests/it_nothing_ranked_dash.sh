#!/bin/bash
# it_nothing_ranked_dash.sh - issue 28: a "nothing ranked" table showed
# every configuration `ok`.  Expected: a study whose only workload crashes
# in every configuration (so it is left out and nothing is ranked) prints
# each configuration with rank "-" and status "-", not "ok"; a study that
# ranks still says ok.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_nothing_ranked_dash
cat > leftout.study <<'S'
; expect: tiny crashes in every configuration: left out, nothing ranked
[study]
name = leftout
workloads = tiny
repeat = 1
[axis opt]
a = -DPLANT_CRASH
b = -DPLANT_CRASH -O1
S
set +e; fs run leftout.study --db l.db -q >l.out 2>l.err; rc=$?; set -e
[ "$rc" = 1 ] || fail "run: nothing ranked must exit 1, got $rc: $(cat l.err)"
grep -E '^- +(a|b) ' l.out >rows || true
[ "$(grep -c '' rows)" = 2 ] || fail "want a row per configuration with rank -, got: $(cat l.out)"
if grep -qE ' ok( |$)' rows; then fail "a configuration of a table that ranked nothing says ok: $(cat rows)"; fi
grep -qE ' -( \(baseline\))?$' rows || fail "want status - where nothing was ranked: $(cat rows)"
cat > ranks.study <<'S'
; expect: ranked, every configuration ok
[study]
name = ranks
workloads = tiny
repeat = 1
[axis opt]
a = -O1
b = -O2
S
fs run ranks.study --db r.db -q >r.out 2>r.err || fail "a study that ranks: $(cat r.err)"
grep -qE '^1 +a .* ok' r.out || fail "a ranked configuration must say ok: $(cat r.out)"
ok "nothing ranked: '-' in the status column; ranked: ok"
rm -rf "$T"
echo PASS
