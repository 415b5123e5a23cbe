#!/bin/bash
# it_merge_running.sh - issue 26 "merging hides trouble: a shard still
# running is merged as complete".  Expected: while a flagscope run is
# writing part.db (it holds part.db.lock), `merge all.db part.db` refuses
# it (exit 2, the database and the run's pid named: "still being written
# by a flagscope run (pid N)") and writes nothing; once that run is stopped
# the database is refused as unfinished with its counts (it_incomplete.sh),
# and once it has run to its end it merges.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_merge_running
count_failures

tiny_study part.study 6 "O2 and O1 (slow), merged while it runs" O2 O1
sed -i 's/^O1 = -O1$/O1 = -O1 -DPLANT_SLOW/' part.study
"$FLAGSCOPE_BIN" run part.study --db part.db > run1.txt 2> run1.err &
pid=$!
for _ in $(seq 600); do
	grep -q '\] O1 tiny rep 1' run1.err 2> /dev/null && break
	sleep 0.1
done
kill -0 $pid 2> /dev/null || fail "the run ended before it could be merged: $(tail -3 run1.err)"
rc=0; fs merge all.db part.db > merge.txt 2> merge.err || rc=$?
[ $rc = 2 ] && grep -q "part.db: still being written by a flagscope run (pid $pid) (let it finish, then merge)" merge.err ||
	fail "merge took a database a run still writes (exit $rc): $(cat merge.err)"
[ ! -e all.db ] || [ "$(sql all.db "select count(*) from runs")" = 0 ] ||
	fail "the refused merge wrote runs into all.db"
kill -TERM $pid
wait $pid || true
ok "merge refuses a database a flagscope run still writes, naming the run"

rc=0; fs merge all.db part.db > merge2.txt 2> merge2.err || rc=$?
[ $rc != 0 ] && grep -q "part.db: study part did not finish: [0-9]* of 12 runs stored" merge2.err ||
	fail "merge took the stopped run's database (exit $rc): $(cat merge2.err)"
fs run part.study --db part.db -q > /dev/null 2> run2.err || fail "resume: $(tail -3 run2.err)"
rm -f all.db
fs merge all.db part.db > merge3.txt 2> merge3.err || fail "merge of the finished study: $(cat merge3.err)"
ok "stopped: refused with its counts; finished: merged"
finish_counted
