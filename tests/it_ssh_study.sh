#!/bin/bash
# it_ssh_study.sh - a study whose [run] names a board: `flagscope run`
# builds here, measures over ssh on an OpenSSH server on 127.0.0.1, keeps
# the board's facts and names the board with every run; outputs are
# validated against the reference as for native runs.
set -euo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
[ -x /usr/sbin/sshd ] || { echo "SKIP: no /usr/sbin/sshd (apt-get install openssh-server)"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "SKIP: the test sshd must run as root to log root in"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
T=$FLAGSCOPE_TEST_TMP/it_ssh_study
rm -rf "$T"; mkdir -p "$T/home/workloads"
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" "$T/home/workloads/"
export FLAGSCOPE_HOME=$T/home FLAGSCOPE_CACHE=$T/cache
SSHD_BASE=$T
. "$FLAGSCOPE_SRC/tests/lib_sshd.sh"
trap stop_all_sshd EXIT
sshd_keys
start_sshd a || fail "sshd a"
cd "$T"
cat > board.study <<S
; expect: O2 and O1 and the planted wrong output measured on the board
[study]
workloads = tiny
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
wrong = -O2 -DPLANT_WRONG
[run]
host = root@127.0.0.1:${SSHD_PORT[a]}
identity = $T/user_key
known_hosts = $T/known_hosts
workdir = $T/board
S
"$FLAGSCOPE_BIN" run board.study --db board.db --format json -q > board.json || fail "run"
python3 - "${SSHD_PORT[a]}" <<'P'
import json, sqlite3, sys
port = sys.argv[1]
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
P
[ -d "$T/board" ] || fail "nothing was copied to the board's workdir"
# a board that does not answer stops the study before anything runs
sed -i "s/127.0.0.1:${SSHD_PORT[a]}/127.0.0.1:1/" board.study
set +e; "$FLAGSCOPE_BIN" run board.study --db dead.db -q > /dev/null 2> dead.err; rc=$?; set -e
[ "$rc" != 0 ] && grep -q "board.study:[0-9]*: .*check \[run\] host" dead.err || fail "dead board: rc $rc $(cat dead.err)"
echo "it_ssh_study: all passed"
