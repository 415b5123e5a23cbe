#!/bin/bash
# it_db_in_use.sh - one writer per results database, whatever it is called.
# A first study (tiny, -DPLANT_SLOW: 0.1 s a run, repeat = 40) is stored,
# then run again with more repetitions and held running.  While it runs:
#  1. baseline save / delete on the same database are refused at once,
#     exit 2, "in use by another flagscope run (pid N)" (they waited on
#     the run's transactions, then saved a half-measured study or failed
#     "database is locked"); baseline list still reads it
#  2. a second `run` on the same database through a symlink, or through
#     another spelling of its path (sub/../db), is refused the same way
#     (the lock was PATH.lock of the spelling: link.db.lock was free, and
#     two runs interleaved their samples)
# Once the first run is stopped, baseline save through the symlink works.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_db_in_use

printf '[study]\nname = held\nworkloads = tiny\nrepeat = 2\n[axis opt]\nO2 = -O2 -DPLANT_SLOW\n' >held.study
fs run held.study --db held.db -q >first.out 2>&1 || fail "first run: $(cat first.out)"
mkdir sub
ln -s held.db link.db

setsid "$FLAGSCOPE_BIN" run held.study --db held.db --repeat 200 >held.out 2>&1 &
pid=$!
trap 'kill -KILL -- -$pid 2>/dev/null || true' EXIT
for i in $(seq 400); do grep -q 'rep 3' held.out && break; sleep 0.05; done
grep -q 'rep 3' held.out || fail "the held run never ran: $(cat held.out)"

# refused: exit 2 and the in-use line naming the holder
refused() {
	local what=$1 rc=0; shift
	"$@" >refused.out 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$what while a run holds the database: exit $rc, not 2: $(cat refused.out)"
	grep -q "in use by another flagscope run (pid $pid)" refused.out ||
		fail "$what while a run holds the database: $(cat refused.out)"
	echo "ok - $what refused: $(cat refused.out)"
}
refused "baseline save" fs baseline save b1 --db held.db
refused "baseline delete" fs baseline delete b1 --db held.db
out_has 'no baselines' fs baseline list --db held.db || fail "baseline list could not read a database in use"
refused "run through a symlink" fs run held.study --db link.db -q
refused "run through sub/../held.db" fs run held.study --db sub/../held.db -q
refused "baseline save through a symlink" fs baseline save b1 --db link.db

kill -INT -- "-$pid"
rc=0
wait "$pid" || rc=$?
trap - EXIT
[ "$rc" = 1 ] || fail "the held run: exit $rc after SIGINT, not 1: $(tail -3 held.out)"
out_has 'saved' fs baseline save b1 --db link.db || fail "baseline save once the run ended: $(fs baseline save b1 --db link.db 2>&1)"
echo "ok - once the run ended, baseline save through the symlink works"
echo PASS
rm -rf "$T"
