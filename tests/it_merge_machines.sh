#!/bin/bash
# it_merge_machines.sh - shards measured on different machines merged with
# 0 conflicts, and the merged ratios then compared CPUs.  Expected: a shard
# whose machine facts (CPU model, cores, governor, boost, kernel, VM)
# differ from the first's is refused before anything is written (exit 2,
# the fact and both values named), and merged with a warning under
# --allow-mixed-machines.  Load and times differ between any two runs and
# do not count.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_merge_machines
count_failures

tiny_shards
[ -n "$(sql b.db "select value from machine where key = 'cpu'")" ] || fail "shard 1 stored no cpu"
cp b.db other.db
sql other.db "select 1" >/dev/null
python3 -c "import sqlite3
d = sqlite3.connect('other.db')
d.execute(\"update machine set value = 'Planted CPU 9000' where key = 'cpu'\")
d.execute(\"update machine set value = '9.99' where key = 'load.before'\")
d.commit()"
cp b.db loaded.db
python3 -c "import sqlite3
d = sqlite3.connect('loaded.db')
d.execute(\"update machine set value = '9.99' where key like 'load.%'\")
d.commit()"

rc=0
fs merge m.db a.db other.db >m.out 2>m.err || rc=$?
[ $rc = 2 ] || fail "shards of two machines merged (exit $rc): $(cat m.out m.err)"
grep -q "other.db: measured on another machine than a.db: cpu '.*' there, 'Planted CPU 9000' here (merge the shards of one machine, or pass --allow-mixed-machines)" m.err ||
	fail "the refusal: $(cat m.err)"
[ ! -e m.db ] || fail "a refused merge wrote m.db"
fs merge m.db a.db loaded.db >l.out 2>l.err || fail "a shard under another load was refused: $(cat l.err)"
rm -f m.db
fs merge m.db a.db other.db --allow-mixed-machines >x.out 2>x.err ||
	fail "--allow-mixed-machines refused: $(cat x.err)"
grep -q "warning: other.db: measured on another machine than a.db: cpu" x.err ||
	fail "no warning with --allow-mixed-machines: $(cat x.err)"
[ "$failures" = 0 ] && ok "machines that differ refused, unless --allow-mixed-machines"
finish_counted
