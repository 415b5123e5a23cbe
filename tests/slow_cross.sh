#!/bin/bash
# slow_cross.sh - the cross-target pipeline on its smallest configuration:
# the tiny fixture built for Loongson 2F n64 (-O2, -O3) against a musl
# sysroot made with those flags, run under qemu-mips64el -cpu Loongson-2F
# and ranked by instruction count; o32 Loongson 2F code is UNRUNNABLE under
# emulation.  Then a second study: the bundled crc32 workload (its own
# expected.out) and a scripted fixture (a run that is a shell script
# starting the guest program through $EMU, as gzip's roundtrip.sh does) for
# MIPS I o32 (on the 24Kf stand-in for Loongson-2F) and AArch64 on
# cortex-a72 (Debian's cross glibc).  The sysroot builds take minutes the
# first time (ctest label slow) and are cached in the user's cache, shared
# with slow_sysroot.
set -euo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
for c in mips64el-linux-gnuabi64-gcc mipsel-linux-gnu-gcc aarch64-linux-gnu-gcc qemu-mips64el qemu-mipsel qemu-aarch64; do
	command -v $c >/dev/null || { echo "SKIP: $c is not installed (scripts/setup.sh installs it)"; exit 77; }
done
T=$FLAGSCOPE_TEST_TMP/slow_cross
rm -rf "$T"; mkdir -p "$T/home/workloads"
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" "$FLAGSCOPE_SRC/workloads/crc32" "$T/home/workloads/"
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

# A run that is a script: it runs here, and starts the guest program through
# $EMU (qemu on the run's CPU model, counting each guest process), like
# gzip's roundtrip.sh; the same program run directly gives the expected sum.
W=$T/home/workloads/emuscript
mkdir -p "$W"
cat > "$W/recipe.ini" <<'R'
; emuscript: a run that is a shell script starting the build's program twice
; through $EMU (gzip's roundtrip.sh style).  Expect: every run ok; the
; script's insns are the sum of its two guest processes, about direct + direct2
[workload]
description = slow_cross fixture: a script run under emulation
source = bundled
[build]
script = $CC $CFLAGS -o sum "$RECIPE/sum.c" $LDFLAGS
  cp "$RECIPE/twice.sh" twice.sh && chmod +x twice.sh
binaries = sum
[run script]
args = twice.sh 100000
timeout = 60
[run direct]
args = sum 100000
timeout = 60
[run direct2]
args = sum 200000
timeout = 60
R
cat > "$W/sum.c" <<'C'
/* sum.c - emuscript: a deterministic sum of N terms (fixed-width: the same on every ABI) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	uint32_t n = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 1000, sum = 0;
	for (uint32_t i = 0; i < n; i++)
		sum += (i * 2654435761u) >> 20;
	printf("sum %u\n", (unsigned)sum);
	return 0;
}
C
cat > "$W/twice.sh" <<'SH'
#!/bin/sh
# twice.sh N - the program beside this script for N and 2N terms, through $EMU
set -e
$EMU "$(dirname "$0")/sum" "$1"
$EMU "$(dirname "$0")/sum" $(($1 * 2))
SH
cat > emu.study <<'S'
; expect: crc32 (stdout = its expected.out) and emuscript ok and ranked by
; insns on MIPS I o32 (24Kf stand-in, said in the detail) and AArch64
[study]
workloads = crc32 emuscript
repeat = 1
baseline = mips1-o32 O2
[axis isa]
mips1-o32 = -march=mips1 -mabi=32
mips1-o32.target = mipsel-linux-gnu
mips1-o32.cpu = Loongson-2F
a72 = -mcpu=cortex-a72
a72.target = aarch64-linux-gnu
a72.cpu = cortex-a72
a72.libc = glibc
[axis opt]
O2 = -O2
S
"$FLAGSCOPE_BIN" run emu.study --db emu.db --format json > emu.json 2> emu.err || fail "emu study: $(tail -5 emu.err)"
python3 - <<'P'
import json, sqlite3
r = json.load(open("emu.json"))
assert r["metric"] == "insns", r["metric"]
st = {c["label"].split(" [")[0]: c for c in r["configs"]}
for label, abi, isa in (("mips1-o32 O2", "o32", "mips1"), ("a72 O2", "lp64", None)):
    c = st[label]
    assert c["status"] == "ok" and c.get("rank"), (label, c["status"], c.get("rank"), c["detail"])
    assert {w["name"] for w in c["workloads"]} == {"crc32", "emuscript/script", "emuscript/direct", "emuscript/direct2"}, c["workloads"]
    assert all(w["n"] == 1 and w["median"] > 0 for w in c["workloads"]), c["workloads"]
    elf = c["elf"][0][0]
    assert elf["abi"] == abi and (isa is None or elf["isa"] == isa) and elf["static"], (label, {k: elf.get(k) for k in ("abi", "isa", "static")})
db = sqlite3.connect("emu.db")
def one(sql, *a):
    row = db.execute(sql, a).fetchone()
    assert row, (sql, a)
    return row
for cfg, in db.execute("select distinct config_id from runs"):
    ins = {run: v for run, v in db.execute(
        "select run, value from samples where config_id=? and workload='emuscript' and metric='insns' and rep=1", (cfg,))}
    assert set(ins) == {"script", "direct", "direct2"}, ins
    both = ins["direct"] + ins["direct2"]
    assert abs(ins["script"] - both) < 0.01 * both, ins  # the startups differ by the environment (EMU, PWD)
    detail, = one("select detail from runs where config_id=? and workload='emuscript' and run='script' and rep=1", cfg)
    assert "the 2 guest processes twice.sh started through $EMU" in detail, detail
    label, = one("select label from configs where id=?", cfg)
    stand_in = "stand-in CPU model" in (detail or "")
    assert stand_in == label.startswith("mips1-o32"), (label, detail)
    if stand_in:
        assert "runs on 24Kf" in detail, detail
P
echo "slow_cross: all passed"
