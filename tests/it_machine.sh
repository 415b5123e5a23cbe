#!/bin/bash
# it_machine.sh - the machine state, pinning, isolate, baselines and LNT
# from the command line, on the affinity fixture (a run that reads its own
# /proc/PID/status Cpus_allowed_list) with repeat 2:
#   - run --pin 0: every measured run (warm-up and repetitions) was
#     allowed CPU 0 only; the report shows the machine state with pin 0;
#     a CPU this process may not use, and a bad pin = in a study, are
#     one-line errors before anything is built (exit 2);
#   - baseline save clears the runs; a second run under a fake machine
#     root (FLAGSCOPE_MACHINE_ROOT: governor powersave) then
#     compare --against lists "governor: ... -> powersave" before the
#     verdicts; a third run, with nothing left to run, keeps that state;
#   - isolate = yes with a fake load of 9.00 on the machine's cores refuses
#     to start (exit 2, the load, the threshold and --force named); with
#     --force it runs;
#   - report --format lnt: one LNT format-2 submission per configuration,
#     checked field by field with python3's json module.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_machine
command -v python3 > /dev/null || { echo "SKIP: python3 is needed to read the database"; exit 77; }
python3 -c "import os, sys; a = os.sched_getaffinity(0); sys.exit(0 if 0 in a and len(a) > 1 else 1)" ||
	{ echo "SKIP: pinning to CPU 0 is told from not pinning only with CPU 0 and another allowed"; exit 77; }
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/affinity" "$T/home/workloads/"

cat > pin.study <<'S'
; expect: every run allowed CPU 0 only (run --pin 0)
[study]
name = pin
workloads = affinity
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
S
fs run pin.study --pin 0 -q > run1.txt
# allowed_n, min, max of every stored run: 2 configurations x (the
# warm-up + 2 repetitions)
q() { sql flagscope.db "$1"; }
got=$(q "select metric, min(value), max(value), count(*) from samples where study='pin' and metric like 'allowed_%' group by metric order by metric")
want=$'allowed_max|0.0|0.0|6\nallowed_min|0.0|0.0|6\nallowed_n|1.0|1.0|6'
[ "$got" = "$want" ] || fail "pinned runs: got
$got
want
$want"
grep -q '^  pin          0$' run1.txt || fail "the report shows pin 0"
for k in cpu cores governor boost freq kernel vm load.before load.max load.after; do
	grep -Eq "^  $k +[^ ]" run1.txt || fail "the report shows $k"
done
fs report -f json | python3 -c "
import json, sys
m = json.load(sys.stdin)['machine']
assert m['pin'] == '0' and m['cores'].isdigit(), m
"

# bad pins: one line, exit 2, nothing built
set +e
fs run pin.study --pin 1023 -q > /dev/null 2> e1.txt; rc1=$?
printf '[study]\nworkloads = affinity\npin = 0-x\n' > badpin.study
fs run badpin.study -q > /dev/null 2> e2.txt; rc2=$?
set -e
[ "$rc1" = 2 ] && [ "$(wc -l < e1.txt)" = 1 ] && grep -q "run: --pin: CPU 1023 is not one this process may run on" e1.txt ||
	fail "--pin 1023: rc $rc1, $(cat e1.txt)"
[ "$rc2" = 2 ] && grep -q "badpin.study:3: pin: '0-x' is not a CPU list" e2.txt ||
	fail "pin = 0-x: rc $rc2, $(cat e2.txt)"

# a fake machine: this one's CPUs and kernel, governor powersave, a load
mkfake() {
	rm -rf "$1"; mkdir -p "$1/proc/sys/kernel" "$1/sys/devices/system/cpu/cpu0/cpufreq"
	cp /proc/cpuinfo "$1/proc/"
	cp /proc/sys/kernel/osrelease "$1/proc/sys/kernel/"
	echo "$2 0.00 0.00 1/100 1" > "$1/proc/loadavg"
	echo powersave > "$1/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
}

# baseline, second run on the "other" machine, compare
out_has "saved baseline first: study pin (its runs were cleared" fs baseline save first ||
	fail "baseline save"
out_has -E "^first +study pin +saved .* 4 runs$" fs baseline list || fail "baseline list: $(fs baseline list)"
[ "$(q "select count(*) from runs where study='pin'")" = 0 ] || fail "save clears the study's runs"
# a baseline is no study to save again: the line names the study it came from
set +e; fs baseline save second --study baseline:first 2> bb.err; rc=$?; set -e
[ "$rc" = 1 ] && grep -q "baseline:first is the baseline first of study pin (save pin itself" bb.err ||
	fail "save of a baseline: rc $rc: $(cat bb.err)"
mkfake fake 0.10
FLAGSCOPE_MACHINE_ROOT=$T/fake fs run pin.study --pin 0 -q > run2.txt
old_gov=$(q "select value from machine where study='baseline:first' and key='governor'")
set +e; fs compare --against first > c.txt; rc=$?; set -e
sed 's/^/# /' c.txt
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "compare --against: rc $rc"
if [ "$old_gov" != powersave ]; then
	d=$(grep -n "^  governor: $old_gov -> powersave$" c.txt | cut -d: -f1)
	v=$(grep -n "^verdict " c.txt | cut -d: -f1)
	[ -n "$d" ] && [ -n "$v" ] && [ "$d" -lt "$v" ] || fail "governor difference first"
fi
fs compare --against first -f json | python3 -c "
import json, sys
c = json.load(sys.stdin)
assert c['old'] == 'baseline:first' and len(c['lines']) == 2, c
assert any(d.startswith('governor: ') for d in c['machine_differences']) or '$old_gov' == 'powersave', c
" || fail "compare --against json"
# a rerun that runs nothing keeps the state of the runs stored
fs run pin.study --pin 0 -q > /dev/null
[ "$(q "select value from machine where study='pin' and key='governor'")" = powersave ] ||
	fail "a rerun with nothing to run replaced the machine state"
set +e; fs compare --against nosuch > /dev/null 2> e3.txt; rc=$?; set -e
[ "$rc" = 2 ] && grep -q "no baseline 'nosuch'" e3.txt || fail "unknown baseline: rc $rc"

# isolate: refused under a fake load of 9.00, run with --force
mkfake busy 9.00
cat > quiet.study <<'S'
; expect: refused while the load is above 0.5 per core, unless --force
[study]
name = quiet
workloads = affinity
repeat = 2
isolate = yes
isolate_load = 0.5
S
set +e
FLAGSCOPE_MACHINE_ROOT=$T/busy fs run quiet.study -q > /dev/null 2> e4.txt; rc=$?
set -e
[ "$rc" = 2 ] && [ "$(wc -l < e4.txt)" = 1 ] &&
	grep -q "quiet.study:6: isolate = yes: the 1-minute load average is 9.00, above the isolate threshold" e4.txt &&
	grep -q -- "--force" e4.txt || fail "isolate refusal: rc $rc, $(cat e4.txt)"
[ "$(q "select count(*) from studies where name='quiet'")" = 0 ] || fail "nothing stored when refused"
FLAGSCOPE_MACHINE_ROOT=$T/busy fs run quiet.study --force -q > run3.txt || fail "--force runs"
grep -q "^warning: the 1-minute load average reached 9.00" run3.txt || fail "the busy warning"

# LNT: one submission per configuration, the fields format 2 requires
fs report --study pin -f lnt -o pin.lnt
python3 - <<'P'
import json, re
subs = [json.loads(l) for l in open("pin.lnt")]
assert len(subs) == 2, len(subs)
iso = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
names = set()
for s in subs:
    assert s["format_version"] == "2"
    m, r, t = s["machine"], s["run"], s["tests"]
    assert isinstance(m["name"], str) and m["name"].startswith("pin__")
    assert m["hardware"] and m["os"].startswith("Linux "), m
    assert all(isinstance(v, str) for v in m.values()), m
    names.add(m["name"])
    assert iso.match(r["start_time"]) and iso.match(r["end_time"]), r
    assert r["llvm_project_revision"].isdigit() and r["configuration"] in ("O2", "O1")
    assert all(isinstance(v, str) for v in r.values()), r
    assert t and all(isinstance(x["name"], str) for x in t)
    for x in t:
        for k, v in x.items():
            if k != "name":
                assert isinstance(v, (int, float, str)) or all(isinstance(e, (int, float)) for e in v), (k, v)
    assert len(t[0]["execution_time"]) == 2, t
assert names == {"pin__O2", "pin__O1"}, names
P
echo "ok: machine state, pinning, baselines, isolate, LNT"
