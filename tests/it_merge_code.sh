#!/bin/bash
# it_merge_code.sh - merge is data, never code.  merge executed the SQL
# text it found in an input database's schema: a crafted shard whose
# table's schema text ran "UPDATE main.samples SET value = value * 100"
# rewrote the samples another shard had brought.  Expected: a shard with a
# table flagscope does not make (or a trigger, or a view) is refused whole
# (exit 2, the table named), the output keeps the first shard's samples
# unchanged, and two honest shards still merge.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_merge_code
count_failures

tiny_shards
cp b.db evil.db
python3 - <<'P'
import sqlite3
d = sqlite3.connect("evil.db")
d.execute("CREATE TABLE evil(a)")
d.execute("PRAGMA writable_schema = ON")
d.execute("UPDATE sqlite_master SET sql = 'CREATE TABLE evil(a); UPDATE main.samples SET value = value * 100' WHERE name = 'evil'")
d.commit()
P
samples() { sql "$1" "select config_id, workload, run, rep, metric, value from samples order by 1, 2, 3, 4, 5"; }
fs merge m.db a.db >m.out 2>m.err || fail "merging one honest shard: $(cat m.err)"
before=$(samples m.db)
rc=0
fs merge m.db evil.db >evil.out 2>evil.err || rc=$?
[ $rc = 2 ] || fail "a crafted shard was merged (exit $rc): $(cat evil.out evil.err)"
grep -q "evil.db: cannot merge it: its table 'evil' is not one flagscope makes" evil.err ||
	fail "the refusal does not name the table: $(cat evil.err)"
[ "$(samples m.db)" = "$before" ] || fail "the first shard's samples changed: $(samples m.db | head -3)"
[ "$failures" = 0 ] && ok "a shard's schema text is never executed; its unknown table refused"

sqlite3_view() {
	cp b.db "$1"
	python3 -c "import sqlite3, sys
d = sqlite3.connect(sys.argv[1]); d.execute(sys.argv[2]); d.commit()" "$1" "$2"
}
sqlite3_view view.db "CREATE VIEW v AS SELECT * FROM runs"
sqlite3_view trig.db "CREATE TRIGGER t AFTER INSERT ON runs BEGIN DELETE FROM runs; END"
for x in view trig; do
	rc=0
	fs merge m.db $x.db >/dev/null 2>$x.err || rc=$?
	[ $rc = 2 ] && grep -q "is not one flagscope makes" $x.err || fail "$x.db: exit $rc: $(cat $x.err)"
done
[ "$(samples m.db)" = "$before" ] || fail "a refused merge changed the output"
fs merge m.db b.db >ok.out 2>ok.err || fail "the honest second shard: $(cat ok.err)"
grep -q "0 conflicts" ok.out || fail "honest shards conflict: $(cat ok.out)"
n=$(sql m.db "select count(distinct config_id) from runs")
[ "$n" = 2 ] || fail "the merged output holds $n configurations' runs, not 2"
[ "$failures" = 0 ] && ok "views and triggers refused; honest shards merge"
finish_counted
