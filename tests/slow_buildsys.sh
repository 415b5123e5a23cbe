#!/bin/bash
# slow_buildsys.sh - Debian source packages built through `[build] system =`
# alone (recipes of a dozen lines, no script), at gcc -O2, static and
# dynamic:
#   gzip 1.12    system = autotools  (debian:gzip)
#   cJSON 1.7.15 system = cmake      (debian:cjson; the cJSON_test program)
#   FriBidi 1.0.8 system = meson     (debian:fribidi, upstream's meson.build;
#                                     its table generators are build-machine
#                                     programs)
# and LAME 3.100 (system = autotools, a libtool project) static only: the
# binary must be static (libtool needs -all-static for that).
# Expected: every build ok (each unit of each binary verified with the
# configuration's flags), static where the study says static, every run ok
# with the baseline's output.  Then FriBidi cross-built for Loongson 2F n64
# (mips64el-linux-gnuabi64, -march=loongson2f -mabi=64) with a meson cross
# file against flagscope's musl sysroot, its generators built natively:
# ok, an n64 static ELF for loongson, run under qemu-mips64el -cpu
# Loongson-2F with an instruction count; and the fixture project
# (tests/fixtures/systems) cross-built the same way by each of the four
# systems (configure --host, a CMake toolchain file, a meson cross file,
# make with the triple's ar): ok, n64 static.  Build times are printed.  Sources,
# builds and the sysroot go to the user's cache (shared with slow_cross), so
# a second run is quick.
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh"
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
for c in cmake meson ninja gcc apt-get; do
	command -v $c >/dev/null || { echo "SKIP: $c is not installed (scripts/packages.txt)"; exit 77; }
done
T=$FLAGSCOPE_TEST_TMP/slow_buildsys
rm -rf "$T"; mkdir -p "$T/home/workloads"
cd "$T" || exit 1
if ! out_has '\.dsc' apt-get source --print-uris gzip 2>/dev/null; then
	echo "SKIP: apt-get source does not work here (scripts/setup.sh adds deb-src)"; exit 77
fi
export FLAGSCOPE_HOME=$T/home
fail() { echo "FAIL: $*" >&2; exit 1; }
W=$T/home/workloads

mkdir -p "$W/gzip-sys" "$W/cjson-sys" "$W/fribidi-sys"
cat >"$W/gzip-sys/recipe.ini" <<EOF
; gzip-sys: gzip 1.12 through system = autotools alone; compresses 4 MiB
[workload]
description = gzip (system = autotools)
source = debian:gzip
[build]
system = autotools
binaries = gzip
[input]
script = cc -O2 -o gencorpus "$FLAGSCOPE_SRC/workloads/gzip/gencorpus.c" && ./gencorpus 4 >corpus.bin
[run]
args = gzip -6 -n -c
stdin = corpus.bin
timeout = 120
EOF
cat >"$W/cjson-sys/recipe.ini" <<'EOF'
; cjson-sys: cJSON 1.7.15 through system = cmake alone; cJSON_test prints
; the JSON it builds and parses
[workload]
description = cJSON (system = cmake)
source = debian:cjson
[build]
system = cmake
options = -DENABLE_CJSON_TEST=ON -DENABLE_TARGET_EXPORT=OFF
targets = cJSON_test
binaries = cJSON_test
[run]
args = cJSON_test
timeout = 60
EOF
cat >"$W/fribidi-sys/recipe.ini" <<'EOF'
; fribidi-sys: GNU FriBidi 1.0.8 through system = meson alone; reorders
; 2000 lines of mixed Hebrew, Arabic and Latin text
[workload]
description = FriBidi (system = meson)
source = debian:fribidi
[build]
system = meson
options = -Ddocs=false
targets = bin/fribidi
binaries = bin/fribidi
[input]
script = i=0; while [ $i -lt 500 ]; do
    printf 'abc \327\251\327\234\327\225\327\235 def %d\n\330\247\331\204\330\263\331\204\330\247\331\205 123 xyz\n(\327\220) [b] \331\205\330\261\330\255\330\250\330\247\n%d end\n' $i $i
    i=$((i + 1)); done >text.txt
[run]
args = ${BUILD}/bin/fribidi --charset UTF-8 --nobreak
stdin = text.txt
timeout = 60
EOF

pair_study native.study native "gzip-sys cjson-sys fribidi-sys" "O2 static" \
	"gzip-sys, cjson-sys and fribidi-sys ok static and dynamic"
start=$(date +%s)
"$FLAGSCOPE_BIN" run native.study --db native.db -j2 >native.out 2>native.err ||
	fail "native study: $(tail -5 native.err)"
echo "native study (3 packages x static, dynamic): $(($(date +%s) - start)) s"
python3 - <<'P' || fail "native builds (above); files kept in $PWD"
import json, sqlite3, sys
db = sqlite3.connect("native.db")
bad = 0
for w, label, status, detail, facts, secs in db.execute("""select b.workload, c.label, b.status,
        b.detail, b.facts, b.seconds from builds b join configs c on c.id = b.config_id
        and c.study = b.study order by b.workload, c.ord"""):
    elf = json.loads(facts)[0] if facts and facts.startswith("[") and facts != "[]" else {}
    want = "static" in label
    if status != "ok" or bool(elf.get("static")) != want:
        print(f"FAIL: {w} {label}: {status} static={elf.get('static')}: {detail}"); bad += 1
    else:
        print(f"ok: {w} {label}: built and verified in {secs:.0f} s ({'static' if want else 'dynamic'})")
for w, label, status, detail in db.execute("""select r.workload, c.label, r.status, r.detail
        from runs r join configs c on c.id = r.config_id and c.study = r.study where r.rep >= 1"""):
    if status != "ok":
        print(f"FAIL: run {w} {label}: {status} {detail}"); bad += 1
sys.exit(1 if bad else 0)
P

# ---- FriBidi cross-built with a meson cross file against the sysroot ----
for c in mips64el-linux-gnuabi64-gcc qemu-mips64el; do
	command -v $c >/dev/null || { echo "SKIP (cross part): $c is not installed"; echo PASS; exit 0; }
done
cat >cross.study <<'EOF'
; expect: fribidi-sys ok for Loongson 2F n64 (static, n64, loongson), run under emulation
[study]
workloads = fribidi-sys
repeat = 1
[axis isa]
l2f-n64 = -march=loongson2f -mabi=64
l2f-n64.target = mips64el-linux-gnuabi64
l2f-n64.cpu = Loongson-2F
[axis opt]
O2 = -O2
EOF
start=$(date +%s)
"$FLAGSCOPE_BIN" run cross.study --db cross.db --format json >cross.json 2>cross.err ||
	fail "cross study: $(tail -5 cross.err)"
echo "cross study (sysroot reused or built, one build, one emulated run): $(($(date +%s) - start)) s"
python3 - <<'P' || fail "cross build (above); files kept in $PWD"
import json, sqlite3
r = json.load(open("cross.json"))
c = r["configs"][0]
assert c["status"] == "ok", (c["label"], c["status"], c["detail"])
elf = c["elf"][0][0]
assert elf["abi"] == "n64" and elf["static"] and "loongson" in (elf["ext"] or ""), elf
w = c["workloads"][0]
assert w["median"] > 0, w
secs = sqlite3.connect("cross.db").execute("select seconds from builds").fetchone()[0]
print(f"ok: fribidi-sys {c['label']}: n64 static loongson, built in {secs:.0f} s, {w['median']:.0f} insns")
P

# ---- libtool: LAME 3.100 through system = autotools, static ----
# libtool drops a plain -static from a program's link: only -all-static at
# make time makes the binary static (workloads/lame/build.sh solved it by
# hand; the system does it for every libtool project)
mkdir -p "$W/lame-sys"
cat >"$W/lame-sys/recipe.ini" <<'EOF'
; lame-sys: LAME 3.100 through system = autotools alone (libtool); encodes 2 s
[workload]
description = LAME (system = autotools, libtool)
source = debian:lame
[build]
system = autotools
options = --disable-gtktest --disable-mp3x --disable-mp3rtp
  ac_cv_lib_termcap_initscr=no ac_cv_lib_curses_initscr=no ac_cv_lib_ncurses_initscr=no
build_args = CFLAGS="$CFLAGS"
binaries = frontend/lame
[input]
script = cc -O2 -o genwav "$FLAGSCOPE_SRC/workloads/lame/genwav.c" && ./genwav 2 >signal.wav
[run]
args = ${BUILD}/frontend/lame -S --cbr -b 128 ${IN}/signal.wav out.mp3
outputs = out.mp3
timeout = 60
EOF
sed -i "s|\$FLAGSCOPE_SRC|$FLAGSCOPE_SRC|" "$W/lame-sys/recipe.ini"
cat >lame.study <<'EOF'
; expect: lame-sys ok and static (libtool got -all-static)
[study]
workloads = lame-sys
repeat = 1
[axis opt]
O2 = -O2
[axis link]
static =
EOF
start=$(date +%s)
"$FLAGSCOPE_BIN" run lame.study --db lame.db -q >lame.out 2>lame.err || fail "lame study: $(tail -5 lame.err)"
python3 - <<'P' || fail "lame-sys (above); files kept in $PWD"
import json, sqlite3
db = sqlite3.connect("lame.db")
status, detail, facts, secs = db.execute("select status, detail, facts, seconds from builds").fetchone()
assert status == "ok", (status, detail)
elf = json.loads(facts)[0]
assert elf["static"], elf
runs = db.execute("select status, detail from runs where rep >= 1").fetchall()
assert runs and all(s == "ok" for s, _ in runs), runs
print(f"ok: lame-sys O2 static: libtool linked it static (-all-static), verified, built in {secs:.0f} s")
P
echo "lame study: $(($(date +%s) - start)) s"

# ---- the fixture project through every system, cross-built the same way ----
FIX=$FLAGSCOPE_SRC/tests/fixtures/systems
for s in make cmake meson autotools; do
	mkdir -p "$W/bs-$s"
	cat >"$W/bs-$s/recipe.ini" <<EOF
; bs-$s: tests/fixtures/systems built by system = $s alone
[workload]
description = systems fixture ($s)
source = local:$FIX
[build]
system = $s
binaries = bsprog
[run]
args = bsprog 200000
timeout = 60
EOF
done
sed 's/^workloads = .*/workloads = bs-make bs-cmake bs-meson bs-autotools/' cross.study >cross-bs.study
start=$(date +%s)
"$FLAGSCOPE_BIN" run cross-bs.study --db cross-bs.db -q >cross-bs.out 2>cross-bs.err ||
	fail "cross study of the fixture: $(tail -5 cross-bs.err)"
echo "cross study of the fixture (4 systems): $(($(date +%s) - start)) s"
python3 - <<'P' || fail "cross builds of the fixture (above); files kept in $PWD"
import json, sqlite3, sys
db = sqlite3.connect("cross-bs.db")
bad = 0
for w, status, detail, facts, secs in db.execute("select workload, status, detail, facts, seconds from builds order by workload"):
    elf = json.loads(facts)[0] if status == "ok" else {}
    if status != "ok" or elf.get("abi") != "n64" or not elf.get("static"):
        print(f"FAIL: {w}: {status} {detail} {elf}"); bad += 1
    else:
        print(f"ok: {w}: n64 static, verified, built in {secs:.0f} s")
for w, status, detail in db.execute("select workload, status, detail from runs where rep >= 1"):
    if status != "ok":
        print(f"FAIL: run {w}: {status} {detail}"); bad += 1
sys.exit(1 if bad else 0)
P
echo PASS
rm -rf "$T"
