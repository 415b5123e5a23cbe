#!/bin/bash
# it_stale_samples.sh - issue 26 "stale samples mixed in": a resumed study
# after its workload's source changed.  Stored runs are kept with the build
# (key and binary hash) that made them; a sample from another build of the
# same configuration never counts.  Expect: after tiny.c changes and repeat
# goes 2 -> 3, every repetition of both configurations runs again (not only
# rep 3), the run says how many stored runs it replaced and why, each
# counted sample is the new build's, and report --samples names each
# sample's build (the old ones "not counted").  Before this, rep 1 and 2
# of the old binary were kept and counted beside the new rep 3.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_stale_samples

tiny_study stale.study 2 "O2 and O1 of tiny, 2 then 3 repetitions" O2 O1
fs run stale.study --db stale.db -q > /dev/null 2> first.err || fail "first run: $(tail -3 first.err)"
[ "$(sql stale.db "select count(*) from runs where rep>=1 and status='ok'")" = 4 ] || fail "first run: not 4 ok runs"
# as an older flagscope left them: runs without their build (the run
# gives them the build stored beside them before it stores a new one)
python3 -c "
import sqlite3; db = sqlite3.connect('stale.db')
cols = [r[1] for r in db.execute('pragma table_info(runs)')]
if 'build_key' in cols:
    db.execute(\"update runs set build_key='', binary_hash=''\"); db.commit()"
key1=$(sql stale.db "select key from builds where config_id=(select id from configs where label='O2')")

# the program changes (a source edit: a new build key), and repeat grows
sed -i 's|^\(int main.*\)|/* changed after the first run */\n\1|' home/workloads/tiny/tiny.c
sed -i 's/^repeat = 2/repeat = 3/' stale.study
fs run stale.study --db stale.db > second.txt 2> second.err || fail "resumed run: $(tail -3 second.err)"
key2=$(sql stale.db "select key from builds where config_id=(select id from configs where label='O2')")
[ "$key1" != "$key2" ] || fail "the source edit did not change the build key"
measured=$(grep -c '\] O[12] tiny rep [1-9]' second.err || true)
[ "$measured" = 6 ] || fail "the resumed run measured $measured repetitions, want 6 (3 each: the old build's runs are not the new one's): $(grep '\[run ' second.err)"
grep -q "replacing 6 stored run(s) of 2 build(s) made by an earlier build" second.err ||
	fail "the run does not say it replaced the old build's runs: $(grep -i replac second.err)"
grep -q "O2 tiny: .* stored run(s) were made by another build (its source, recipe or compiler changed since)" second.err ||
	fail "no per-build reason: $(grep 'another build' second.err)"
ok "a source change reruns every stored repetition, and says so"

stale=$(sql stale.db "select count(*) from runs r join builds b using(study, config_id, workload) where r.rep>=1 and (r.build_key<>b.key or r.binary_hash<>b.binary_hash)")
[ "$stale" = 0 ] || fail "$stale runs of another build stored beside the new ones"
empty=$(sql stale.db "select count(*) from runs where build_key='' or binary_hash=''")
[ "$empty" = 0 ] || fail "$empty runs stored without their build"
fs report --db stale.db --format json > r.json
python3 - <<'P' || fail "report: not 3 samples each"
import json
r = json.load(open("r.json"))
got = {c["label"]: c["workloads"][0]["n"] for c in r["configs"]}
assert got == {"O2": 3, "O1": 3}, got
P
ok "every stored run carries its build; the report counts 3 samples each, all the new build's"

# a lower repeat afterwards: rep 3 stays stored, and only the new build's count
sed -i 's|^/\* changed after the first run \*/$|/* changed twice */|' home/workloads/tiny/tiny.c
sed -i 's/^repeat = 3/repeat = 1/' stale.study
fs run stale.study --db stale.db -q > /dev/null 2> third.err || fail "third run: $(tail -3 third.err)"
fs report --db stale.db --format json > r3.json
python3 - <<'P' || fail "after a change with repeat = 1 the old build's rep 2 and 3 are counted"
import json
r = json.load(open("r3.json"))
got = {c["label"]: c["workloads"][0]["n"] for c in r["configs"]}
assert got == {"O2": 1, "O1": 1}, got
P
fs report --db stale.db --samples > samples.txt || fail "report --samples failed"
key3=$(sql stale.db "select key from builds where config_id=(select id from configs where label='O2')")
grep -Eq "^O2 +tiny +1 +ok .*${key3:0:12}.* counted" samples.txt || fail "report --samples: no counted O2 rep 1 of build ${key3:0:12}: $(cat samples.txt)"
grep -Eq "^O2 +tiny +3 +ok .*${key2:0:12}.* not counted: another build" samples.txt || fail "report --samples: O2 rep 3 not shown as another build's: $(cat samples.txt)"
ok "report --samples names each sample's build and which ones count"
echo PASS
