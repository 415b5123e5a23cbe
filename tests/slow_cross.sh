#!/bin/bash
# slow_cross.sh - the cross-target pipeline on its smallest configuration:
# the tiny fixture built for Loongson 2F n64 (-O2, -O3) against a musl
# sysroot made with those flags, run under qemu-mips64el -cpu Loongson-2F
# and ranked by instruction count; o32 Loongson 2F code is UNRUNNABLE under
# emulation.  The sysroot build takes minutes the first time (ctest label
# slow) and is cached in the user's cache, shared with slow_sysroot.
set -euo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
for c in mips64el-linux-gnuabi64-gcc mipsel-linux-gnu-gcc qemu-mips64el qemu-mipsel; do
	command -v $c >/dev/null || { echo "SKIP: $c is not installed (scripts/setup.sh installs it)"; exit 77; }
done
T=$FLAGSCOPE_TEST_TMP/slow_cross
rm -rf "$T"; mkdir -p "$T/home/workloads"
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" "$T/home/workloads/"
export FLAGSCOPE_HOME=$T/home
cd "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
cat > cross.study <<'S'
; expect: l2f-n64 O2 (baseline) and O3 ok with exact instruction counts,
; -ffp-contract=off added visibly; l2f-o32 unrunnable under emulation;
; R4600 n32 ok; MIPS64r2 code with Debian's glibc crashes on Loongson-2F and the trap is
; diagnosed (a release-2 instruction, named with its function)
[study]
workloads = tiny
repeat = 2
baseline = l2f-n64 O2
[axis isa]
l2f-n64 = -march=loongson2f -mabi=64
l2f-n64.target = mips64el-linux-gnuabi64
l2f-n64.cpu = Loongson-2F
l2f-o32 = -march=loongson2f -mabi=32
l2f-o32.target = mipsel-linux-gnu
l2f-o32.cpu = Loongson-2F
r4600-n32 = -march=r4600 -mabi=n32
r4600-n32.target = mips64el-linux-gnuabi64
r4600-n32.cpu = Loongson-2F
r2-glibc = -march=mips64r2 -mabi=64
r2-glibc.target = mips64el-linux-gnuabi64
r2-glibc.cpu = Loongson-2F
r2-glibc.libc = glibc
[axis opt]
O2 = -O2
O3 = -O3
S
"$FLAGSCOPE_BIN" run cross.study --db cross.db --format json > cross.json 2> cross.err || fail "run: $(tail -5 cross.err)"
python3 - <<'P'
import json, sqlite3
r = json.load(open("cross.json"))
assert r["metric"] == "insns", r["metric"]
st = {c["label"].split(" [")[0]: c for c in r["configs"]}
for label in ("l2f-n64 O2", "l2f-n64 O3"):
    c = st[label]
    assert c["status"] == "ok", (label, c["status"], c["detail"])
    assert "-ffp-contract=off" in c["label"], c["label"]
    w = c["workloads"][0]
    assert w["n"] == 2 and w["median"] > 0, w
    elf = c["elf"][0][0]
    assert elf["abi"] == "n64" and elf["static"] and "loongson" in (elf["ext"] or ""), elf
for label in ("l2f-o32 O2", "l2f-o32 O3"):
    c = st[label]
    assert c["status"] == "unrunnable", (label, c["status"], c["detail"])
for label in ("r4600-n32 O2", "r4600-n32 O3"):
    c = st[label]
    assert c["status"] == "ok", (label, c["status"], c["detail"])
    elf = c["elf"][0][0]
    assert elf["abi"] == "n32" and elf["static"], elf
for label in ("r2-glibc O2", "r2-glibc O3"):
    c = st[label]
    assert c["status"] == "crashed", (label, c["status"], c["detail"])
    assert "SIGILL under emulation on Loongson-2F: SIGILL at 0x" in c["detail"] and "` in " in c["detail"], c["detail"]
db = sqlite3.connect("cross.db")
rows = db.execute("select config_id, count(distinct value), count(*) from samples where metric='insns' and rep>=1 group by 1").fetchall()
assert len(rows) == 4 and all(d == 1 and n == 2 for _, d, n in rows), rows  # deterministic
P
echo "slow_cross: all passed"
