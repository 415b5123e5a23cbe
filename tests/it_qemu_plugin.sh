#!/bin/bash
# it_qemu_plugin.sh - the QEMU instruction-count plugin counts exactly and
# repeatably.  For each ABI QEMU runs (n64 and n32 on Loongson-2F, o32 MIPS I
# on the default 32-bit model, AArch64 on cortex-a72) the hand-written counted
# loops in tests/fixtures/asm/ are assembled for two iteration counts, run
# twice in tb mode and once in insn mode, and every count must equal the
# formula stated in the fixture's first comment.
set -euo pipefail
src=${FLAGSCOPE_SRC:?} bin=${FLAGSCOPE_BIN:?}
tmp=${FLAGSCOPE_TEST_TMP:-/tmp}/it_qemu_plugin
plugin=${FLAGSCOPE_QEMU_PLUGIN:-$(dirname "$bin")/harness/qemu-plugin/libinsncount.so}
rm -rf "$tmp" && mkdir -p "$tmp"

need() { command -v "$1" >/dev/null || { echo "SKIP: $1 not installed (scripts/packages.txt)"; exit 77; }; }
for t in qemu-mips64el qemu-mipsn32el qemu-mipsel qemu-aarch64 \
	mips64el-linux-gnuabi64-gcc aarch64-linux-gnu-gcc; do need "$t"; done
[ -f "$plugin" ] || { echo "FAIL: plugin not built at $plugin"; exit 1; }

fails=0 passes=0
check() { # what expected actual
	if [ "$2" = "$3" ]; then passes=$((passes + 1)); else
		echo "FAIL: $1: expected $2, got $3"; fails=$((fails + 1)); fi
}
key() { sed -n "s/^$2=//p" "$1"; }

# name | compiler and flags | source | qemu and cpu | per-iteration: insns loads stores branches muldiv fp other | fixed: same
cases=(
"n64|mips64el-linux-gnuabi64-gcc -mabi=64 -march=loongson2f|loop-mips64.S|qemu-mips64el -cpu Loongson-2F|8 1 1 1 1 1 3|7 1 1 0 0 0 5"
"n32|mips64el-linux-gnuabi64-gcc -mabi=n32 -march=loongson2f|loop-mips64.S|qemu-mipsn32el -cpu Loongson-2F|8 1 1 1 1 1 3|7 1 1 0 0 0 5"
"o32|mips64el-linux-gnuabi64-gcc -mabi=32 -march=mips1 -mfp32|loop-mips32.S|qemu-mipsel|9 1 1 1 1 1 4|8 1 1 0 0 0 6"
"aarch64|aarch64-linux-gnu-gcc -mcpu=cortex-a72|loop-aarch64.S|qemu-aarch64 -cpu cortex-a72|7 1 1 1 1 1 2|7 1 1 0 0 0 5"
)
keys=(insns loads stores branches muldiv fp other)
for c in "${cases[@]}"; do
	IFS='|' read -r name cc file qemu per fixed <<<"$c"
	read -ra a <<<"$per"
	read -ra b <<<"$fixed"
	for n in 1000 7777; do
		exe=$tmp/$name-$n
		$cc -nostdlib -static -DN=$n -o "$exe" "$src/tests/fixtures/asm/$file"
		for run in 1 2 insn; do
			mode=tb; [ $run = insn ] && mode=insn
			out=$tmp/$name-$n-$run.counts
			rc=0
			$qemu -plugin "$plugin,out=$out,mode=$mode" "$exe" || rc=$?
			check "$name N=$n run $run exit status" $((3 * n % 256)) $rc
			check "$name N=$n run $run mode" $mode "$(key "$out" mode)"
			for i in "${!keys[@]}"; do
				check "$name N=$n run $run ${keys[$i]}" $((a[i] * n + b[i])) "$(key "$out" "${keys[$i]}")"
			done
		done
		check "$name N=$n repeatable" "$(cat "$tmp/$name-$n-1.counts")" "$(cat "$tmp/$name-$n-2.counts")"
	done
done

# a bad plugin argument refuses the load instead of counting nothing
if qemu-aarch64 -plugin "$plugin,bogus=1" "$tmp/aarch64-1000" 2>"$tmp/bogus.err"; then
	check "bad argument refused" refused loaded
else
	check "bad argument named" 1 "$(grep -c "unknown argument 'bogus=1'" "$tmp/bogus.err")"
fi

echo "$passes passed, $fails failed"
[ $fails = 0 ]
