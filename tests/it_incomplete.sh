#!/bin/bash
# it_incomplete.sh - issue 26 "an interrupted study reports as if
# complete".  Every run stores what it planned and whether it went through.
# Expect: a study stopped by SIGTERM (as Ctrl-C) during its repetitions reads
# "incomplete: N of M runs" in report, compare and recommend (stderr) and
# complete: false in JSON (report, compare, recommend --allow-incomplete);
# recommend refuses it (exit 1) unless --allow-incomplete; merge refuses
# it as a shard, naming it and its counts; resumed to its end it reads
# complete: true and says nothing.  --build-only is incomplete too.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_incomplete

tiny_study part.study 10 "O2 and O1 (slow), stopped after a few runs" O2 O1
sed -i 's/^O1 = -O1$/O1 = -O1 -DPLANT_SLOW/' part.study
"$FLAGSCOPE_BIN" run part.study --db part.db > run1.txt 2> run1.err &
pid=$!
for _ in $(seq 300); do
	grep -q '\] O1 tiny rep 1' run1.err 2> /dev/null && break
	sleep 0.1
done
kill -TERM $pid
wait $pid || true
done_n=$(sql part.db "select count(*) from runs where rep>=1 and status='ok'")
[ "$done_n" -lt 20 ] || fail "the study was not stopped before its end ($done_n runs)"

fs report --db part.db > rep.txt 2> rep.err || true
grep -q "study part is incomplete: $done_n of 20 runs" rep.err || fail "report: no incomplete line: $(cat rep.err)"
fs report --db part.db --format json 2> /dev/null > rep.json || true
python3 -c "
import json; r = json.load(open('rep.json'))
assert r['complete'] is False and r['runs_done'] == $done_n and r['runs_expected'] == 20, r.get('complete')" ||
	fail "report JSON: want complete false, $done_n of 20: $(head -c 300 rep.json)"
fs compare --db part.db --baseline O2 --candidate O1 --format json > cmp.json 2> cmp.err || true
grep -q "incomplete: $done_n of 20 runs" cmp.err || fail "compare: no incomplete line: $(cat cmp.err)"
python3 -c "
import json; r = json.load(open('cmp.json')); assert r['complete'] is False" || fail "compare JSON: complete is not false"
rc=0; fs recommend --db part.db > rec.txt 2> rec.err || rc=$?
[ $rc = 1 ] && grep -q "recommend: study part is incomplete: $done_n of 20 runs, so nothing is recommended" rec.err ||
	fail "recommend did not refuse (exit $rc): $(cat rec.err)"
fs recommend --db part.db --allow-incomplete --format json > rec.json 2> /dev/null || true
python3 -c "
import json; r = json.load(open('rec.json')); assert r['complete'] is False" || fail "recommend --allow-incomplete JSON: $(head -c 200 rec.json)"
ok "a stopped study: report, compare and recommend say incomplete ($done_n of 20 runs); recommend refuses it"

rc=0; fs merge all.db part.db > merge.txt 2> merge.err || rc=$?
[ $rc != 0 ] && grep -q "part.db: study part did not finish: $done_n of 20 runs stored" merge.err ||
	fail "merge took an unfinished database (exit $rc): $(cat merge.err)"
ok "merge refuses a database whose run did not finish, with its counts"

fs run part.study --db part.db -q > /dev/null 2> run2.err || fail "resume: $(tail -3 run2.err)"
fs report --db part.db --format json > rep2.json 2> rep2.err
! grep -q incomplete rep2.err || fail "resumed to its end, report still says: $(cat rep2.err)"
python3 -c "
import json; r = json.load(open('rep2.json')); assert r['complete'] is True and r['runs_done'] == 20, r['complete']" ||
	fail "resumed report JSON not complete"
fs recommend --db part.db > /dev/null 2> rec2.err || fail "recommend of the finished study: $(cat rec2.err)"
ok "resumed to its end: complete, recommend answers"

fs run part.study --db built.db --build-only -q > /dev/null 2>&1 || fail "--build-only failed"
fs report --db built.db > /dev/null 2> built.err || true
grep -q "study part is incomplete: 0 of 20 runs" built.err || fail "--build-only reads complete: $(cat built.err)"
ok "--build-only: incomplete, 0 of 20 runs"
echo PASS
