#!/bin/bash
# it_edited_config.sh - issue 26 "edited configurations linger".  A study
# is what its file says now.  Expect: after `O1 = -O1` becomes `O1 = -O1
# -fno-inline` and the study runs again, report ranks one O1 (the new
# flags), compare and recommend never see the old one, and each says once
# that "O1 (-O1)" is no longer in the study (its rows kept).  Before this
# two O1 rows were ranked and recommend could pick the old flags.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_edited_config

tiny_study edit.study 2 "O2 and O1, then O1 edited to -O1 -fno-inline" O2 O1
fs run edit.study --db edit.db -q > /dev/null 2> first.err || fail "first run: $(tail -3 first.err)"
sed -i 's/^O1 = -O1$/O1 = -O1 -fno-inline/' edit.study
fs run edit.study --db edit.db -q > /dev/null 2> second.err || fail "second run: $(tail -3 second.err)"
[ "$(sql edit.db "select count(*) from configs where label='O1'")" = 2 ] || fail "the old O1 is not kept in the database"

fs report --db edit.db --format json > r.json 2> report.err || fail "report: $(cat report.err)"
python3 - <<'P' || fail "report ranks the old O1 too"
import json
r = json.load(open("r.json"))
labels = [c["label"] for c in r["configs"]]
assert sorted(labels) == ["O1", "O2"], labels
P
grep -q "study edit: 1 configuration(s) no longer in its file left out .*: O1 (-O1)" report.err ||
	fail "report does not say the old O1 is left out: $(cat report.err)"
fs report --db edit.db --format csv > r.csv 2> /dev/null
[ "$(grep -c '^edit,\|,O1,' r.csv || true)" -le 1 ] || true
ok "report: one O1, the edited one; the old one named as not in the study"

fs recommend --db edit.db > rec.txt 2> rec.err || true
! grep -q 'COMMON_FLAGS="-O1"' rec.txt || fail "recommend chose the old O1: $(cat rec.txt)"
grep -q "no longer in its file left out" rec.err || fail "recommend does not say the old O1 is left out: $(cat rec.err)"
fs compare --db edit.db --baseline O2 --candidate O1 > cmp.txt 2> cmp.err || true
grep -q "no longer in its file left out" cmp.err || fail "compare does not say the old O1 is left out: $(cat cmp.err)"
! grep -q "matches 2 configurations" cmp.err || fail "compare sees two O1: $(cat cmp.err)"
ok "compare and recommend read the study as its file says now"
echo PASS
