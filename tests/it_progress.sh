#!/bin/bash
# it_progress.sh - what `flagscope run` says while it works, and warmup = N.
#   - stderr is a terminal (under script(1)): one status line rewritten in
#     place ("\r\033[K") with builds done/total, runs done/total, the
#     configuration and the time left; no per-run "[run" lines for runs
#     that went well
#   - stderr is a file: one "[run i/N]" line per run, none rewritten
#   - warmup = 3 with repeat = 2 on 2 configurations: 2 x (3 + 2) = 10 runs,
#     of which 4 are repetitions stored as samples (rep 1 and 2)
#   - warmup = 0 is refused with file:line (the first warm-up validates)
# Expected: PASS.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_progress
command -v script >/dev/null || { echo "SKIP: no script(1) (util-linux) to give flagscope a terminal"; exit 77; }
cat >p.study <<'S'
[study]
name = progress
workloads = tiny
repeat = 2
warmup = 3
[axis opt]
O2 = -O2
O1 = -O1
S
fs run p.study --db file.db >file.out 2>file.err || fail "run to a file: $(tail -n 3 file.err)"
n=$(grep -c '^flagscope: \[run [0-9]*/10\]' file.err)
[ "$n" -eq 10 ] || fail "stderr to a file: $n '[run i/10]' lines, expected 10: $(grep '\[run' file.err | head -n 3)"
grep -q $'\r' file.err && fail "stderr to a file carries a carriage return"
samples=$(python3 -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute("select count(*) from runs where rep > 0").fetchone()[0])' file.db)
[ "$samples" = 4 ] || fail "warmup 3, repeat 2, 2 configurations: $samples stored repetitions, expected 4"
echo "ok: to a file, 10 run lines (2 x (3 warm-ups + 2 repetitions)), 4 repetitions stored"

script -qec "$FLAGSCOPE_BIN run p.study --db tty.db" tty.out >/dev/null 2>&1 ||
	fail "run on a terminal failed: $(tail -c 300 tty.out)"
grep -q $'\r\033\[Kbuilds [0-9]*/2, runs [0-9]*/10: O[12] tiny rep [12], about [0-9]* s left' tty.out ||
	fail "no status line with builds, runs, configuration and time left: $(tr '\r' '\n' <tty.out | head -n 8)"
grep -q '\[run ' tty.out && fail "a terminal got per-run lines for runs that went well"
grep -q '^rank' tty.out || fail "no ranking after the status line"
echo "ok: on a terminal, one status line rewritten in place, then the ranking"

sed -i 's/^warmup = 3/warmup = 0/' p.study
fs run p.study --db zero.db >zero.out 2>zero.err && fail "warmup = 0 accepted"
grep -q 'p.study:5: warmup must be a whole number from 1 to 100' zero.err ||
	fail "warmup = 0: $(cat zero.err)"
echo "ok: warmup = 0 refused at p.study:5"
echo PASS
