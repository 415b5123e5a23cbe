#!/bin/bash
# bench/fuzz.sh [SECONDS] - build the libFuzzer targets (clang, ASan, UBSan)
# and run each for SECONDS (default 600), then print executions and crashes
# per target.  Seeds are real ELF files built here with gcc, clang and the
# cross compilers that are installed.  Crashing inputs stay in
# $FUZZ_DIR/<target>/artifacts; copy them to tests/fixtures/elf-crashes/ so
# test_elf keeps reading them.  Exit 1 if any target crashed.
set -u
secs=${1:-600}
src=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD:-$src/build-fuzz}
work=${FUZZ_DIR:-$build/fuzz-run}

command -v clang >/dev/null || { echo "SKIP: clang is not installed"; exit 77; }
mkdir -p "$build"
CC=clang cmake -S "$src" -B "$build" -G Ninja -DFLAGSCOPE_FUZZ=ON \
	-DFLAGSCOPE_SANITIZE=OFF >"$build/fuzz-build.log" 2>&1 &&
	cmake --build "$build" --target fuzz_elf fuzz_switches >>"$build/fuzz-build.log" 2>&1 || {
	echo "fuzz: the build failed (see $build/fuzz-build.log)"
	exit 2
}

# Seeds for the ELF reader: objects and programs of several machines/ABIs.
seeds=$work/seeds-elf
mkdir -p "$seeds"
cat >"$work/seed.c" <<'C'
int puts(const char *);
double scale(double x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x * i; return s; }
int main(void) { puts("seed"); return scale(1.5, 3) > 100; }
C
seed() { # NAME CC FLAGS...
	local name=$1 cc=$2
	shift 2
	command -v "$cc" >/dev/null && "$cc" "$@" "$work/seed.c" -o "$seeds/$name" 2>/dev/null
}
seed gcc.o gcc -c -O2 -g -frecord-gcc-switches
seed gcc-nog.o gcc -c -O3 -march=x86-64-v3 -mneeded -frecord-gcc-switches
seed clang.o clang -c -O2 -g -frecord-command-line -grecord-command-line
seed gcc-pie gcc -O2 -frecord-gcc-switches -Wl,--strip-debug
seed gcc-pie-g gcc -O2 -g -frecord-gcc-switches
seed n64.o mips64el-linux-gnuabi64-gcc -c -O2 -mabi=64 -march=loongson2f -frecord-gcc-switches
seed n32.o mips64el-linux-gnuabi64-gcc -c -O2 -mabi=n32 -march=r4600 -g
seed o32.o mips64el-linux-gnuabi64-gcc -c -O2 -mabi=32 -march=mips1 -mfp32 -frecord-gcc-switches
seed n64-pie mips64el-linux-gnuabi64-gcc -O2 -g -mabi=64 -frecord-gcc-switches
seed aarch64.o aarch64-linux-gnu-gcc -c -O2 -mbranch-protection=standard -g
seed arm-hard.o clang --target=armv7a-linux-gnueabihf -mcpu=cortex-a7 -mfpu=neon-vfpv4 -c -O2
seed arm-soft.o clang --target=armv5te-linux-gnueabi -mfloat-abi=soft -c -O2
cp "$src"/tests/fixtures/elf-crashes/*.elf "$seeds/" 2>/dev/null

# Seeds for the switch parser: recorded lines, NUL, expected flags.
sw=$work/seeds-switches
mkdir -p "$sw"
printf 'GNU C17 12.2.0 -mtune=generic -march=x86-64 -g -O3 -O2 -finline\0-O3 -march=x86-64-v3' >"$sw/gcc"
printf '/usr/lib/llvm-14/bin/clang -O2 -frecord-command-line -c a.c -o a.o\0-O2 -fno-inline' >"$sw/clang"
printf 'GNU C17 12.2.0 -mel -mabi=n32 -march=loongson2f -mips3 -O2\0-march=loongson2f -mabi=n32' >"$sw/mips"

status=0
run() { # TARGET SEEDS MAXLEN
	local t=$1 dir=$work/$1
	mkdir -p "$dir/corpus" "$dir/artifacts"
	"$build/tests/fuzz/$t" "$dir/corpus" "$2" -max_total_time="$secs" -max_len="$3" \
		-timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$dir/artifacts/" >"$dir/log" 2>&1
	local execs crashes
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
	crashes=$(find "$dir/artifacts" -type f | wc -l)
	printf '%-14s %4ss  executions %-10s crashes %s  corpus %s\n' "$t" "$secs" \
		"${execs:-?}" "$crashes" "$(find "$dir/corpus" -type f | wc -l)"
	[ "$crashes" -eq 0 ] || {
		status=1
		find "$dir/artifacts" -type f | sed 's/^/  artifact: /'
		grep -m3 -E 'ERROR|runtime error|deadly signal' "$dir/log" | sed 's/^/  /'
	}
}
run fuzz_elf "$seeds" 200000
run fuzz_switches "$sw" 4096
exit $status
