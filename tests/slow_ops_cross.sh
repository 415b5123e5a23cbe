#!/bin/bash
# slow_ops_cross.sh - the ops workload under QEMU in the three MIPS ABIs of
# the Loongson 2F preset (flagsets/presets/loongson2f.study cut to these
# three configurations): MIPS I o32 (baseline, on the 24Kf stand-in),
# R4600 n32 and Loongson 2F n64, at -O2, a copy of the recipe with 20000
# steps per run, each configuration built statically against its musl
# sysroot (cached in the user's cache, shared with slow_cross; minutes the
# first time).  Asserted:
#   - every build and all 16 runs ok in the three configurations: the
#     chains' final values (stdout) are the same under o32, n32 and n64
#   - each run's instruction count is exact (two repetitions, one value)
#   - int64_div and int64_mod execute fewer instructions under n64 and n32
#     than under o32 (o32 calls __divdi3/__moddi3, n32 and n64 divide
#     with ddiv): the 2008 study's 64-bit divide finding, by count
#   - the 32-bit int_div does not show that gap (within a factor of 2)
# Expected: PASS; about 2 minutes with the sysroots cached.
set -euo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
for c in mips64el-linux-gnuabi64-gcc mipsel-linux-gnu-gcc qemu-mips64el qemu-mipsel; do
	command -v $c >/dev/null || { echo "SKIP: $c is not installed (scripts/setup.sh installs it)"; exit 77; }
done
T=$FLAGSCOPE_TEST_TMP/slow_ops_cross
rm -rf "$T"; mkdir -p "$T/home/workloads"
cp -r "$FLAGSCOPE_SRC/workloads/ops" "$T/home/workloads/"
sed -i 's/^\(args = ops [a-z0-9_]*\) 1000000$/\1 20000/' "$T/home/workloads/ops/recipe.ini"
export FLAGSCOPE_HOME=$T/home
cd "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ "$(grep -c '^args = ops [a-z0-9_]* 20000$' home/workloads/ops/recipe.ini)" = 16 ] ||
	fail "the recipe's 16 runs were not resized"
# the preset's own study, cut to one ISA per ABI at -O2 (its baseline kept)
python3 - "$FLAGSCOPE_SRC/flagsets/presets/loongson2f.study" > abi.study <<'P'
import re, sys
drop = re.compile(r"^(r4600-o32|loongson2f-o32|loongson2f-n32|r4600-n64|O3)[ .]")
for line in open(sys.argv[1]):
    line = re.sub(r"^workloads = .*", "workloads = ops", line)
    line = re.sub(r"^repeat = .*", "repeat = 2", line)
    if not drop.match(line):
        print(line, end="")
P
[ "$(grep -c '^[a-z0-9-]* = -march' abi.study)" = 3 ] && grep -q '^baseline = mips1-o32 O2$' abi.study ||
	fail "the preset did not cut to 3 configurations: $(cat abi.study)"
start=$(date +%s)
"$FLAGSCOPE_BIN" run abi.study --db abi.db -q > run.out 2> run.err || fail "run: $(tail -5 run.err)"
echo "flagscope run (3 cross builds, 3 x 16 runs x 2): $(($(date +%s) - start)) s"
python3 - <<'P'
import sqlite3
db = sqlite3.connect("abi.db")
label = dict(db.execute("select id, label from configs"))
def isa(cid): return label[cid].split(" ")[0]
builds = db.execute("select config_id, status, detail from builds").fetchall()
assert len(builds) == 3 and all(s == "ok" for _, s, _ in builds), builds
runs = db.execute("select config_id, run, status, detail from runs where rep >= 1").fetchall()
bad = [(label[c], r, s, d) for c, r, s, d in runs if s != "ok"]
assert len(runs) == 96 and not bad, (len(runs), bad[:4])
insns = {}
for cid, run, dist, n, v in db.execute("""select config_id, run, count(distinct value), count(*), min(value)
        from samples where metric = 'insns' and rep >= 1 group by 1, 2"""):
    assert dist == 1 and n == 2, (label[cid], run, dist, n)  # exact: both repetitions agree
    insns[isa(cid), run] = v
assert len(insns) == 48, len(insns)
for run in ("int64_div", "int64_mod"):
    o32 = insns["mips1-o32", run]
    for abi in ("r4600-n32", "loongson2f-n64"):
        assert insns[abi, run] < o32, (run, abi, insns[abi, run], o32)
    print("ok - %s: o32 %d, n32 %d, n64 %d instructions (n64/o32 %.3f)" % (run, o32,
          insns["r4600-n32", run], insns["loongson2f-n64", run], insns["loongson2f-n64", run] / o32))
o32, n64 = insns["mips1-o32", "int_div"], insns["loongson2f-n64", "int_div"]
assert 0.5 < n64 / o32 < 2, ("int_div", o32, n64)
print("ok - int_div: o32 %d, n64 %d instructions (no 64-bit divide gap)" % (o32, n64))
P
echo PASS
rm -rf "$T"
