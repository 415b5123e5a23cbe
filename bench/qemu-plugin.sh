#!/bin/bash
# qemu-plugin.sh - the instruction-count plugin's cost against plain QEMU.
# Builds a small compute loop (CRC-32 over a generated buffer) for MIPS n64
# and AArch64 with the cross compilers (static, Debian's libc), runs it
# under plain qemu-user, with the plugin in tb mode (the default: one inline
# add per class per translation block) and in insn mode (one per
# instruction), REPS times each, interleaved, and prints the median wall
# times and the ratios.  Goal: tb mode under 1.5x plain QEMU.
#   usage: bench/qemu-plugin.sh [BUILD_DIR]   (default: build)
#   REPS=5 ROUNDS=60 bench/qemu-plugin.sh build-cross
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
case $build in /*) ;; *) build=$here/$build ;; esac
plugin=${FLAGSCOPE_QEMU_PLUGIN:-$build/harness/qemu-plugin/libinsncount.so}
reps=${REPS:-5} rounds=${ROUNDS:-40}
[ -f "$plugin" ] || { echo "no plugin at $plugin (build the insncount target)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/crc.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	static unsigned char buf[1 << 20];
	unsigned table[256], crc = 0xffffffffu, seed = 12345;
	int rounds = argc > 1 ? atoi(argv[1]) : 10;
	for (unsigned i = 0; i < 256; i++) {
		unsigned c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)((seed = seed * 1103515245u + 12345u) >> 16);
	for (int r = 0; r < rounds; r++)
		for (size_t i = 0; i < sizeof(buf); i++)
			crc = table[(crc ^ buf[i]) & 0xff] ^ (crc >> 8);
	printf("%08x\n", crc ^ 0xffffffffu);
	return 0;
}
C

median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
wall() { # command... -> seconds
	local s e
	s=$(date +%s.%N)
	"$@" >/dev/null
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN {print e - s}'
}

printf "%-9s %9s %9s %9s %8s %8s %14s\n" target plain tb insn tb/plain insn/plain instructions
for t in "mips64el-linux-gnuabi64-gcc qemu-mips64el" "aarch64-linux-gnu-gcc qemu-aarch64"; do
	set -- $t
	command -v "$1" >/dev/null && command -v "$2" >/dev/null || { echo "skip: $1 or $2 missing"; continue; }
	exe=$tmp/crc-${2#qemu-}
	"$1" -O2 -static -o "$exe" "$tmp/crc.c"
	: >"$tmp/plain" && : >"$tmp/tb" && : >"$tmp/insn"
	for ((i = 0; i < reps; i++)); do
		wall "$2" "$exe" "$rounds" >>"$tmp/plain"
		wall "$2" -plugin "$plugin,out=$tmp/counts,mode=tb" "$exe" "$rounds" >>"$tmp/tb"
		wall "$2" -plugin "$plugin,out=$tmp/counts.insn,mode=insn" "$exe" "$rounds" >>"$tmp/insn"
	done
	p=$(median <"$tmp/plain") b=$(median <"$tmp/tb") n=$(median <"$tmp/insn")
	printf "%-9s %8.2fs %8.2fs %8.2fs %7.2fx %7.2fx %14s\n" "${2#qemu-}" "$p" "$b" "$n" \
		"$(awk -v a="$b" -v b="$p" 'BEGIN {print a / b}')" "$(awk -v a="$n" -v b="$p" 'BEGIN {print a / b}')" "$(sed -n 's/^insns=//p' "$tmp/counts")"
	cmp -s <(grep -v mode "$tmp/counts") <(grep -v mode "$tmp/counts.insn") ||
		echo "  note: tb and insn modes counted differently"
done
