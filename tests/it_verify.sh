#!/bin/bash
# it_verify.sh - flagscope verify from the command line: exit 0 as expected,
# 1 a mismatch (the flags-override fixture names kernel.c), 2 for files that
# are not ELF ("FILE: not a valid ELF: <reason>"), table and JSON output;
# --target and -march/-mabi compared with the ELF header; units only the
# symbol table names (the unrecorded fixture's helper.c), standalone and
# through a study (FLAGS_NOT_APPLIED), never a static libc's.
set -uo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
T=$FLAGSCOPE_TEST_TMP/it_verify
rm -rf "$T"; mkdir -p "$T"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v gcc >/dev/null || { echo "SKIP: gcc is not installed"; exit 77; }
fs() { "$FLAGSCOPE_BIN" verify "$@"; }

cp -r "$FLAGSCOPE_SRC/tests/fixtures/flags-override" "$T/fo"
make -s -C "$T/fo" CC=gcc CFLAGS="-O3 -g -frecord-gcc-switches" || fail "fixture build"
prog=$T/fo/prog

# 1. as expected: exit 0
fs "$prog" --expect "-O3 -g" --unit-prefix "$T/fo/main.c" >"$T/ok.out" 2>&1; rc=$?
[ $rc -eq 0 ] || fail "main.c alone at -O3: exit $rc: $(cat "$T/ok.out")"
grep -q "as expected" "$T/ok.out" || fail "no verdict line: $(cat "$T/ok.out")"

# 2. the override is caught and names the unit: exit 1
fs "$prog" --expect -O3 --unit-prefix "$T/fo" >"$T/bad.out" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "override not caught: exit $rc"
grep -q "unit kernel.c: -O3 expected, -O2 given last" "$T/bad.out" || fail "$(cat "$T/bad.out")"
grep -q "unit main.c" "$T/bad.out" && fail "main.c reported: $(cat "$T/bad.out")"

# 3. linkage: a dynamic program is not static
fs "$prog" --static >"$T/static.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "static linking expected, dynamic" "$T/static.out" ||
	fail "--static: exit $rc: $(cat "$T/static.out")"

# 4. not ELF, truncated, missing: exit 2 and the message names the file
printf 'not an elf at all' >"$T/text"
head -c 100 "$prog" >"$T/truncated"
for f in "$T/text" "$T/truncated"; do
	fs "$f" >"$T/err.out" 2>&1; rc=$?
	[ $rc -eq 2 ] || fail "$f: exit $rc"
	grep -q "^flagscope: $f: not a valid ELF: " "$T/err.out" || fail "$f: $(cat "$T/err.out")"
done
fs "$T/missing" >/dev/null 2>&1; [ $? -eq 2 ] || fail "missing file: not exit 2"
# unreadable input outranks a mismatch; the readable file is still shown
fs "$prog" "$T/text" --expect -O0 >"$T/mixed.out" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "kernel.c" "$T/mixed.out" || fail "mixed: exit $rc"

# 5. JSON: one object per file with the keys the pipeline reads
fs "$prog" --expect -O3 --unit-prefix "$T/fo" --format json >"$T/out.json"; rc=$?
[ $rc -eq 1 ] || fail "json: exit $rc"
if command -v python3 >/dev/null; then
	python3 - "$T/out.json" <<'P' || fail "json content"
import json, sys
v = json.load(open(sys.argv[1]))
assert isinstance(v, list) and len(v) == 1, v
f = v[0]
for k in ("file class machine type abi isa ext static interp needed compilers "
          "units sections mismatches").split():
    assert k in f, k
assert f["class"] == "ELF64" and f["machine"] == "x86-64" and f["static"] is False, f
names = {u["name"] for u in f["units"]}
assert {"main.c", "kernel.c"} <= names, names
assert f["sections"][".text"] > 0 and f["sections"]["total"] >= f["sections"][".text"]
assert f["mismatches"] == ["unit kernel.c: -O3 expected, -O2 given last"], f["mismatches"]
P
fi

# 7. the machine: --target and -march/-mabi in --expect against the ELF header
fs "$prog" --target mips64el-linux-gnuabi64 --expect -O3 --unit-prefix "$T/fo/main.c" >"$T/t.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "machine x86-64, mips expected (target mips64el-linux-gnuabi64)" "$T/t.out" ||
	fail "x86 file for a MIPS target: exit $rc: $(cat "$T/t.out")"
fs "$prog" --target x86_64-linux-gnu --expect -O3 --unit-prefix "$T/fo/main.c" >/dev/null 2>&1 ||
	fail "x86 file for x86_64-linux-gnu: exit $?"
if command -v mips64el-linux-gnuabi64-gcc >/dev/null; then
	printf 'int main(void) { return 0; }\n' >"$T/m.c"
	mips64el-linux-gnuabi64-gcc -c -O2 -mabi=n32 -march=loongson2f -frecord-gcc-switches \
		-o "$T/m.o" "$T/m.c" || fail "mips object"
	fs "$T/m.o" --target mips64el-linux-gnuabi64 --expect "-O2 -mabi=n32 -march=loongson2f" \
		>"$T/m.out" 2>&1 || fail "n32 loongson2f object as asked: $(cat "$T/m.out")"
	fs "$T/m.o" --expect "-march=mips3 -mabi=64" --format json >"$T/m.json" 2>&1; rc=$?
	[ $rc -eq 1 ] || fail "n64 mips3 asked of an n32 loongson2f object: exit $rc"
	for want in "class ELF32, ELF64 expected (-mabi=64)" "ABI n32, n64 expected (-mabi=64)" \
		"machine extension loongson-2f, none expected (-march=mips3)" \
		"unit m.c: -march=mips3 expected, -march=loongson2f given last"; do
		grep -qF "$want" "$T/m.json" || fail "no '$want': $(cat "$T/m.json")"
	done
	if [ -e /usr/mips64el-linux-gnuabi64/lib/crt1.o ]; then
		mips64el-linux-gnuabi64-gcc -O2 -mabi=64 -march=mips3 -o "$T/m3" "$T/m.c" || fail "mips3 link"
		fs "$T/m3" --target mips64el-linux-gnuabi64 --expect "-march=mips3" >"$T/m3.out" 2>&1; rc=$?
		[ $rc -eq 1 ] && grep -q "ISA mips64r2 is above the mips3 that -march=mips3 asks" "$T/m3.out" ||
			fail "Debian's release-2 libc under -march=mips3: exit $rc: $(cat "$T/m3.out")"
	fi
else
	echo "SKIP 7 (MIPS part): mips64el-linux-gnuabi64-gcc is not installed"
fi

# 8. a unit that recorded nothing (its Makefile replaced CFLAGS): only the
# symbol table names it; beside main.c's source it is the program's own
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/unrecorded" "$T/un"
make -s -C "$T/un" CC=gcc CFLAGS="-O3 -g -frecord-gcc-switches" || fail "unrecorded fixture build"
un=$T/un/unrecorded
want="unit helper.c: no switches recorded (nothing proves its flags)"
fs "$un" --expect -O3 >"$T/un.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -qF "$want" "$T/un.out" || fail "unrecorded helper.c: exit $rc: $(cat "$T/un.out")"
fs "$un" --expect -O3 --sources "$T/un" --format json >"$T/un.json" 2>&1; rc=$?
[ $rc -eq 1 ] || fail "unrecorded with --sources: exit $rc"
if command -v python3 >/dev/null; then
	python3 - "$T/un.json" "$want" <<'P' || fail "unrecorded json"
import json, sys
f = json.load(open(sys.argv[1]))[0]
u = [u for u in f["units"] if u["name"] == "helper.c"]
assert u == [{"name": "helper.c", "path": None, "producer": None, "switches": None,
              "origin": "symtab"}], f["units"]
assert f["mismatches"] == [sys.argv[2]], f["mismatches"]
P
fi
# --sources naming another tree: helper.c is not the program's there
mkdir -p "$T/other" && echo 'int x;' >"$T/other/x.c"
fs "$un" --expect -O3 --sources "$T/other" >/dev/null 2>&1 || fail "foreign --sources: exit $?"
# static C libraries bring hundreds of such units: never the program's own
printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' >"$T/hello.c"
for cc in gcc musl-gcc; do
	command -v $cc >/dev/null || { echo "SKIP 8 ($cc): not installed"; continue; }
	$cc -O2 -g -static -o "$T/hello-$cc" "$T/hello.c" || fail "$cc static hello"
	for extra in "" "--sources $T"; do
		fs "$T/hello-$cc" --expect -O2 --static $extra >"$T/h.out" 2>&1 ||
			fail "static $cc hello --expect -O2 $extra: exit $?: $(grep -A3 MISMATCH "$T/h.out")"
	done
done

# 9. the same fixture through a study: FLAGS_NOT_APPLIED with the unit named
mkdir -p "$T/home/workloads"
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/unrecorded" "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" \
	"$T/home/workloads/"
cat >"$T/un.study" <<'S'
; expect: unrecorded flags_not_applied in both configurations, helper.c named;
; tiny ok
[study]
name = unrec
workloads = unrecorded tiny
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
O3 = -O3
S
( cd "$T" && FLAGSCOPE_HOME=$T/home FLAGSCOPE_CACHE=$T/cache "$FLAGSCOPE_BIN" run un.study \
	--db un.db --format json -q >un-run.json 2>un-run.err ) || fail "study: $(tail -3 "$T/un-run.err")"
if command -v python3 >/dev/null; then
	python3 - "$T/un.db" "$want" <<'P' || fail "study outcome"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
got = {}
for w, st, d in db.execute("select workload, status, detail from builds"):
    got.setdefault(w, []).append((st, d))
assert len(got["unrecorded"]) == 2 and all(
    st == "flags_not_applied" and d == "unrecorded: " + sys.argv[2] for st, d in got["unrecorded"]), got
assert all(st == "ok" for st, _ in got["tiny"]), got
P
fi

# 10a. -ffast-math and -Ofast: gcc links libgcc's crtfastmath.o, which
# records -O2 and -fbuilding-libgcc; it is the toolchain's, not the
# program's, so such a build is as expected
printf 'int main(void){return 0;}\n' >"$T/fm.c"
for fl in "-O3 -ffast-math" "-Ofast"; do
	gcc $fl -g "$T/fm.c" -o "$T/fm" || fail "gcc $fl"
	fs "$T/fm" --expect "$fl" >"$T/fm.out" 2>&1; rc=$?
	grep -q crtfastmath "$T/fm.out" || fail "gcc $fl linked no crtfastmath unit: $(cat "$T/fm.out")"
	[ $rc -eq 0 ] || fail "gcc $fl: crtfastmath.o counted as the program's: exit $rc: $(cat "$T/fm.out")"
done

# 10. usage errors are exit 2
fs >/dev/null 2>&1; [ $? -eq 2 ] || fail "no FILE: not exit 2"
fs "$prog" --format xml >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad format: not exit 2"
echo "it_verify: all checks passed"
