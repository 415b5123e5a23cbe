#!/bin/bash
# it_ssh_study.sh - a study whose [run] names a board: `flagscope run`
# builds here, measures over ssh on an OpenSSH server on 127.0.0.1, keeps
# the board's facts and names the board with every run; outputs are
# validated against the reference as for native runs.  Expect:
#  1. perf counters come from the board's own perf: board a runs perf
#     through a logging wrapper (FLAGSCOPE_HELPER_PERF, set by its sshd),
#     which logs each warm-up's perf run; the board's facts say what the
#     perf of this machine can count
#  2. a board without perf (board b, FLAGSCOPE_HELPER_PERF=none) gives no
#     perf samples although this machine has perf, and says perf=absent
#  3. a pool of the board and a closed port: the study warns once about
#     the closed one and measures everything on the board that answers
#  4. a study whose only board does not answer stops before anything runs
#  5. runs that sleep (PLANT_SLOW), per_board = 2 beside per_board = 1, and
#     a pool of boards a and b: the measured program runs two at a time on
#     the boards (the most copies alive at once, sampled every 20 ms: 2)
#     where the one-at-a-time study never has two; every sample stored
#     once.  The wall times are printed side by side with their ratios, not
#     asserted (it asserted per_board = 2 < 0.8 x one at a time below a load
#     of 4 per core: on 2 cores a load of 5-8 made that fail)
# The [run] cpu words are kept with the board's facts (described=...); a
# bad per_board stops the study with file:line before anything runs.
set -euo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
[ -x /usr/sbin/sshd ] || { echo "SKIP: no /usr/sbin/sshd (apt-get install openssh-server)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: the test sshd must run as root to log root in"; exit 77; }
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_ssh_study
SSHD_BASE=$T
. "$FLAGSCOPE_SRC/tests/lib_sshd.sh"
trap stop_all_sshd EXIT
sshd_keys
cat >"$T/perf-wrap" <<W
#!/bin/sh
echo "\$*" >>"$T/perf-wrap.log"
exec /usr/bin/perf "\$@"
W
chmod 755 "$T/perf-wrap"
mkdir -p "$T/a" "$T/b"
echo "SetEnv FLAGSCOPE_HELPER_PERF=$T/perf-wrap" >"$T/a/sshd_extra"
echo "SetEnv FLAGSCOPE_HELPER_PERF=none" >"$T/b/sshd_extra"
start_sshd a || fail "sshd a"
start_sshd b || fail "sshd b"
# what perf counts here (the loopback boards are this machine)
perf_csv() { perf stat -x, -e "$1" -- true 2>&1 >/dev/null; }
if out_has '^[0-9]' perf_csv cycles,instructions; then
	HOST_PERF=hardware
elif out_has '^[0-9]' perf_csv task-clock; then
	HOST_PERF=software
else
	HOST_PERF=failed
fi
[ -x /usr/bin/perf ] || HOST_PERF=absent
cd "$T"
board_run() { # the [run] section on board a, the lines given before per_board = 1
	printf '%s\n' "[run]" "host = root@127.0.0.1:${SSHD_PORT[a]}" "identity = $T/user_key" \
		"known_hosts = $T/known_hosts" "workdir = $T/board" "$@" "per_board = 1"
}
{
	cat <<S
; expect: O2 and O1 and the planted wrong output measured on the board
[study]
workloads = tiny
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
wrong = -O2 -DPLANT_WRONG
S
	board_run "cpu = loopback board (this machine)"
} > board.study
"$FLAGSCOPE_BIN" run board.study --db board.db --format json -q > board.json 2> board.err || fail "run: $(cat board.err)"
python3 - "${SSHD_PORT[a]}" "$HOST_PERF" <<'P'
import json, sqlite3, sys
port, host_perf = sys.argv[1:]
st = {c["label"]: c for c in json.load(open("board.json"))["configs"]}
assert st["O2"]["status"] == "ok" and st["O1"]["status"] == "ok", st
assert st["wrong"]["status"] == "wrong_output", st["wrong"]
db = sqlite3.connect("board.db")
details = [r[0] for r in db.execute("select detail from runs where rep>=1 and run<>'@build'")]
assert details and all(d.startswith(f"on root@127.0.0.1:{port}") for d in details), details
facts = dict(db.execute("select key, value from facts where key like 'board.%'").fetchall())
assert any("kernel=" in v and "cpu=" in v for v in facts.values()), facts
mem = db.execute("select count(*) from samples where metric like 'mem.%'").fetchone()[0]
assert mem == 0, "memory figures claimed for a board"
# 1. the board's perf: its facts say what this machine's perf counts, and
# the warm-ups of O2 and O1 (not the wrong one) ran under the board's perf
assert all(v.endswith(" perf=" + host_perf + " described=loopback board (this machine)")
           for v in facts.values()), (host_perf, facts)
meter = db.execute("select value from facts where key='meter.perf'").fetchone()[0]
runs = [l for l in open("perf-wrap.log") if " -o " in l]
perf = db.execute("select count(distinct config_id) from samples where metric like 'perf/%'").fetchone()[0]
if host_perf in ("hardware", "software"):
    assert "the boards' own" in meter, meter
    assert len(runs) == 2, runs
    assert perf == 2, f"perf samples of {perf} configurations, not 2"
else:
    assert "not available on the boards" in meter and perf == 0 and not runs, (meter, perf, runs)
P
[ -d "$T/board" ] || fail "nothing was copied to the board's workdir"
echo "ok 1 - the board's own perf, its facts"

# 2. a board without perf: no counters, whatever this machine has
sed "s/127.0.0.1:${SSHD_PORT[a]}/127.0.0.1:${SSHD_PORT[b]}/" board.study > noperf.study
"$FLAGSCOPE_BIN" run noperf.study --db noperf.db -q > /dev/null || fail "run on a board without perf"
python3 - <<'P'
import sqlite3
db = sqlite3.connect("noperf.db")
st = dict(db.execute("select c.label, r.status from runs r join configs c on c.id = r.config_id "
                     "where r.rep = 1 and r.run <> '@build'").fetchall())
assert st.get("O2") == "ok" and st.get("O1") == "ok", st
facts = dict(db.execute("select key, value from facts where key like 'board.%'").fetchall())
assert facts and all(" perf=absent " in v for v in facts.values()), facts
meter = db.execute("select value from facts where key='meter.perf'").fetchone()[0]
assert "not available on the boards" in meter, meter
perf = db.execute("select count(*) from samples where metric like 'perf/%'").fetchone()[0]
assert perf == 0, f"{perf} perf samples from a board without perf"
P
echo "ok 2 - a board without perf: counters absent, not this machine's"
# a bad [run] value: file:line, what is wrong, what to do; nothing runs
sed 's/^per_board = 1/per_board = lots/' board.study > bad.study
set +e; "$FLAGSCOPE_BIN" run bad.study --db bad.db -q > /dev/null 2> bad.err; rc=$?; set -e
line=$(grep -n '^per_board' bad.study | cut -d: -f1)
[ "$rc" != 0 ] && grep -q "bad.study:$line: per_board must be a whole number from 1 to 64, not 'lots' (" bad.err ||
	fail "bad per_board: rc $rc $(cat bad.err)"
# 3. one board of the pool does not answer: warned once, the other measures
closed=$(free_port)
sed "s/^host = .*/hosts = root@127.0.0.1:${SSHD_PORT[a]} root@127.0.0.1:$closed/" board.study > pool.study
"$FLAGSCOPE_BIN" run pool.study --db pool.db -q > /dev/null 2> pool.err || fail "a pool with a dead board: $(cat pool.err)"
[ "$(grep -c "warning: .*127.0.0.1:$closed" pool.err)" = 1 ] && grep -q "pool.study:[0-9]*: root@127.0.0.1:$closed: cannot connect.*(going on without that board" pool.err ||
	fail "the dead board of the pool is not warned about once: $(cat pool.err)"
python3 - "${SSHD_PORT[a]}" <<'P'
import sqlite3, sys
port = sys.argv[1]
db = sqlite3.connect("pool.db")
st = dict(db.execute("select c.label, r.status from runs r join configs c on c.id = r.config_id "
                     "where r.rep = 2 and r.run <> '@build'").fetchall())
assert st == {"O2": "ok", "O1": "ok", "wrong": "wrong_output"}, st
details = [r[0] for r in db.execute("select detail from runs where rep>=1 and run<>'@build'")]
assert details and all(d.startswith(f"on root@127.0.0.1:{port}") for d in details), details
facts = [k for (k,) in db.execute("select key from facts where key like 'board.%'")]
assert facts == [f"board.root@127.0.0.1:{port}"], facts
P
echo "ok 3 - a dead board of a pool: warned once, the study goes on with the other"

# 4. a board that does not answer stops the study before anything runs
sed -i "s/127.0.0.1:${SSHD_PORT[a]}/127.0.0.1:1/" board.study
set +e; "$FLAGSCOPE_BIN" run board.study --db dead.db -q > /dev/null 2> dead.err; rc=$?; set -e
[ "$rc" != 0 ] && grep -q "board.study:[0-9]*: .*check \[run\] host" dead.err || fail "dead board: rc $rc $(cat dead.err)"
echo "ok 4 - the only board does not answer: the study stops"

# 5. runs at once: per_board = 2 and a pool of two entries, each beside
# the same study one run at a time (the builds are made by a first study)
{
	cat <<S
; expect: A B C D measured (warm-ups and 10 repetitions each), two at a time when the study allows it
[study]
workloads = tiny
repeat = 10
warmup = 2
baseline = A
[axis opt]
A = -O2 -DPLANT_SLOW
B = -O1 -DPLANT_SLOW
C = -Os -DPLANT_SLOW
D = -O0 -DPLANT_SLOW
S
	board_run
} > slow.study
sed 's/^per_board = 1/per_board = 2/' slow.study > slow2.study
sed "s/^host = .*/hosts = root@127.0.0.1:${SSHD_PORT[a]} root@127.0.0.1:${SSHD_PORT[b]}/" slow.study > slowpool.study
"$FLAGSCOPE_BIN" run slow.study --db slow0.db -q > /dev/null 2> slow.err || fail "slow study: $(cat slow.err)"
# timed STUDY DB: runs it; prints its wall seconds and the most copies of
# the measured program alive at once on the boards (sampled every 20 ms)
timed() {
	local t0 t1 pid n most=0
	t0=$(date +%s.%N)
	"$FLAGSCOPE_BIN" run "$1" --db "$2" -q > /dev/null 2> "$2.err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		n=$(pgrep -c -f "^$T/board/.*/tiny 300000\$" || true)
		[ "$n" -gt "$most" ] && most=$n
		sleep 0.02
	done
	wait "$pid" || fail "$1: $(cat "$2.err")"
	t1=$(date +%s.%N)
	python3 -c "print($t1 - $t0, $most)"
}
read -r one one_most <<<"$(timed slow.study slow1.db)"
read -r two two_most <<<"$(timed slow2.study slow2.db)"
read -r pool pool_most <<<"$(timed slowpool.study slowpool.db)"
python3 - "$one" "$two" "$pool" "$one_most" "$two_most" "$pool_most" "$(cut -d' ' -f1 /proc/loadavg)" "$(nproc)" <<'P'
import sqlite3, sys
one, two, pool = map(float, sys.argv[1:4])
one_most, two_most, pool_most = map(int, sys.argv[4:7])
print(f"# per_board=1 {one:.2f} s, per_board=2 {two:.2f} s (ratio {two / one:.2f}), "
      f"a pool of two {pool:.2f} s (ratio {pool / one:.2f}); at most {one_most}, {two_most}, "
      f"{pool_most} runs at once; load average {sys.argv[7]} on {sys.argv[8]} cores")
assert one_most == 1, f"per_board = 1 ran {one_most} at once"
assert two_most == 2, f"per_board = 2 ran at most {two_most} at once"
assert pool_most == 2, f"a pool of two boards ran at most {pool_most} at once"
def stored(path):
    db = sqlite3.connect(path)
    runs = db.execute("select c.label, r.rep, r.status from runs r join configs c on c.id = r.config_id "
                      "where r.run <> '@build' order by 1, 2").fetchall()
    samples = db.execute("select config_id, rep, metric, count(*) from samples "
                         "group by 1, 2, 3 having count(*) <> 1").fetchall()
    assert not samples, samples
    sums = db.execute("select count(*) from samples where metric = 'sum'").fetchone()[0]
    return runs, sums
want = [(c, rep, "ok") for c in "ABCD" for rep in range(0, 11)]
for path in ("slow1.db", "slow2.db", "slowpool.db"):
    runs, sums = stored(path)
    assert runs == want, (path, runs)
    assert sums == 44, (path, sums)
db = sqlite3.connect("slowpool.db")
boards = {d.split(":")[1] for (d,) in db.execute("select detail from runs where run <> '@build'")}
assert len(boards) == 2, f"the pool's runs went to {boards}"
P
echo "ok 5 - per_board = 2 and a pool of two run at once, every sample stored once"
echo "it_ssh_study: all passed"
