#!/bin/bash
# slow_sysroot.sh - `flagscope sysroot build` for n64 Loongson 2F: musl,
# glibc soft-fp long-double routines and compiler-rt integer helpers built
# with -march=loongson2f -mabi=64.  A program using printf of double and
# long double (tests/fixtures/sysroot/float-print.c) linked against it must
# print the output stated in the fixture under qemu-mips64el -cpu Loongson-2F
# (no SIGILL), and contain no MIPS release-2 instruction such as dext/dins.
# The control: the same program linked with Debian's own libraries does
# contain them.  The sysroot lives in the normal cache, so a second run (and
# other tests) reuse it; the build time is printed.
set -euo pipefail
bin=${FLAGSCOPE_BIN:?} src=${FLAGSCOPE_SRC:?}
. "$src/tests/lib_it.sh"
tmp=${FLAGSCOPE_TEST_TMP:-/tmp}/slow_sysroot
rm -rf "$tmp" && mkdir -p "$tmp"
T=mips64el-linux-gnuabi64
for t in $T-gcc $T-objdump qemu-mips64el apt-get dpkg-source; do
	command -v $t >/dev/null || { echo "SKIP: $t not installed (scripts/packages.txt)"; exit 77; }
done
if ! (cd "$tmp" && out_has "\.dsc" apt-get source --print-uris musl 2>/dev/null); then
	echo "SKIP: apt-get source musl does not work here (run scripts/deb-src.sh)"; exit 77
fi

fails=0 passes=0
check() { # what ok(0/1) detail
	if [ "$2" = 1 ]; then passes=$((passes + 1)); else echo "FAIL: $1: $3"; fails=$((fails + 1)); fi
}

start=$(date +%s)
"$bin" sysroot build --target $T --cflags "-march=loongson2f -mabi=64" >"$tmp/build.out" 2>"$tmp/build.err" ||
	{ cat "$tmp/build.err" "$tmp/build.out"; echo "FAIL: sysroot build"; exit 1; }
took=$(($(date +%s) - start))
dir=$(head -1 "$tmp/build.out")
cat "$tmp/build.out"
echo "sysroot build: $took s this run; $(sed -n 's/^seconds=//p' "$dir/sysroot.info") s when it was built"
check "added flags are shown" "$(grep -c 'added -ffp-contract=off: .*QEMU 7.2' "$tmp/build.out")" "$(cat "$tmp/build.out")"
check "musl built without FP_FAST_FMA" "$(grep -c '^musl_cflags=-U__FP_FAST_FMA -U__FP_FAST_FMAF$' "$dir/sysroot.info")" "$(cat "$dir/sysroot.info")"
for lib in libc.a libgcc-tf.a libgcc-int.a crt1.o; do
	check "$lib built" "$([ -s "$dir/lib/$lib" ] && echo 1 || echo 0)" "missing"
done
check "__addtf3 in libgcc-tf.a" "$($T-nm "$dir/lib/libgcc-tf.a" | grep -c ' T __addtf3$')" "not defined"

# a second build is the cached one
again=$(out_head 1 "$bin" sysroot build --target $T --cflags "-march=loongson2f -mabi=64" 2>"$tmp/again.err")
check "second build is cached" "$([ "$again" = "$dir" ] && grep -q 'sysroot: cached' "$tmp/again.err" && echo 1 || echo 0)" "$again"
check "sysroot list shows it" "$("$bin" sysroot list | grep -c "^$dir\$")" "not listed"

# the program, built with the wrapper
prog=$tmp/float-print
"$dir/bin/cc" -O2 -o "$prog" "$src/tests/fixtures/sysroot/float-print.c" -lm
check "static" "$(readelf -l "$prog" | grep -c INTERP | sed 's/^0$/1/;t;s/.*/0/')" "has an interpreter"
check "ELF says loongson-2f mips3" "$(readelf -h "$prog" | grep -c 'loongson-2f.*mips3')" "$(readelf -h "$prog" | grep Flags)"
r2='dext|dextm|dextu|dins|dinsm|dinsu|ext|ins|seb|seh|wsbh|dsbh|dshd|rotr|rotrv|drotr|drotr32|drotrv|clz|clo|dclz|dclo'
n=$($T-objdump -d "$prog" | grep -c -E "^\s+[0-9a-f]+:\s+[0-9a-f]{8}\s+($r2)\s" || true)
check "no release-2 instructions in the binary" "$([ "$n" = 0 ] && echo 1 || echo 0)" \
	"$($T-objdump -d "$prog" | grep -E "^\s+[0-9a-f]+:\s+[0-9a-f]{8}\s+($r2)\s" | sed -n 1,3p)"
rc=0
qemu-mips64el -cpu Loongson-2F "$prog" >"$tmp/out" 2>&1 || rc=$?
check "runs on Loongson-2F without a signal" "$([ $rc = 0 ] && echo 1 || echo 0)" "exit status $rc: $(head -3 "$tmp/out")"
sed -n '/Expected output/,/\*\//p' "$src/tests/fixtures/sysroot/float-print.c" |
	sed -n 's/^ \*   //p' >"$tmp/expected"
check "output as stated in the fixture" "$(cmp -s "$tmp/expected" "$tmp/out" && echo 1 || echo 0)" \
	"$(diff "$tmp/expected" "$tmp/out" || true)"

# control: the same program linked with Debian's own libraries (release-2
# code) has dext/dins, and traps on the Loongson-2F model
$T-gcc -O2 -mabi=64 -static -o "$tmp/control" "$src/tests/fixtures/sysroot/float-print.c" -lm
n=$($T-objdump -d "$tmp/control" | grep -c -E "^\s+[0-9a-f]+:\s+[0-9a-f]{8}\s+(dext|dins)\s" || true)
check "control: Debian's libraries have dext/dins" "$([ "$n" -gt 0 ] && echo 1 || echo 0)" "found $n"
rc=0
qemu-mips64el -cpu Loongson-2F "$tmp/control" >"$tmp/control.out" 2>&1 || rc=$?
check "control: Debian's libraries trap on Loongson-2F" "$([ $rc = 132 ] && echo 1 || echo 0)" "exit status $rc"
echo "control: $n dext/dins instructions with Debian's libc and libgcc; exit status $rc on Loongson-2F"

echo "$passes passed, $fails failed"
[ $fails = 0 ]
