#!/bin/bash
# it_share_by_execution.sh - issue 26 "two emulated CPUs share one set of
# runs".  Identical-code sharing reuses one configuration's runs for another
# only when the two run the same way: the same code AND the same emulated
# CPU, target (runner), libc, sysroot and linkage (pipeline/identical.c).
# Expect: tiny built for aarch64 (-O2: the issue's -march=armv8.1-a would
# need a musl sysroot built for it, 4 minutes; Debian's cross glibc is used
# here; the sharing rule is the same) is one program for `-cpu max` and `-cpu cortex-a53` (the cpu axis
# changes no byte of its code), yet
# each CPU model is run on its own: no "identical code" line, every
# repetition measured under both, none stored as a copy.  Before this the
# a53 rows were copies of the max runs.  Flag-only twins (-O2 and -O2 -Wall,
# same CPU) still share, as it_identical checks natively.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_share_by_execution

for tool in qemu-aarch64 aarch64-linux-gnu-gcc; do
	command -v $tool > /dev/null || { echo "SKIP: $tool not installed (scripts/packages.txt: qemu-user, gcc-aarch64-linux-gnu)"; exit 77; }
done

cat > share.study <<'S'
; expect: a53 runs its own repetitions, never a copy of max's; O2w shares O2's (same CPU)
[study]
name = share
workloads = tiny
repeat = 2
baseline = max O2
meters = rusage
[axis target]
a64 = aarch64-linux-gnu
[axis libc]
glibc =
[axis cpu]
max = max
a53 = cortex-a53
[axis opt]
O2 = -O2
O2w = -O2 -Wall
S
fs run share.study --db share.db > share.txt 2> share.err || true
grep -q "a64 glibc max O2 tiny warm-up\|a64 glibc max O2 tiny rep" share.err || fail "the study did not run: $(tail -5 share.err)"
mx=cache/builds/$(sql share.db "select b.key from builds b join configs c on c.id=b.config_id where c.label='a64 glibc max O2'")/out/tiny
a5=cache/builds/$(sql share.db "select b.key from builds b join configs c on c.id=b.config_id where c.label='a64 glibc a53 O2'")/out/tiny
[ "$(sql share.db "select count(distinct key) from builds")" -ge 1 ] || fail "no builds"
# the premise: the two CPUs' binaries are the same code
a=$(python3 -c "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())" "$mx")
b=$(python3 -c "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())" "$a5")
[ "$a" = "$b" ] || echo "note: the two CPUs' binaries differ as files (their code is compared, not the files)"

! grep -q "a64 glibc a53 O2 tiny: identical code to a64 glibc max O2" share.err ||
	fail "cortex-a53 reuses the runs of -cpu max: $(grep 'identical code' share.err)"
a53=$(grep -c '\] a64 glibc a53 O2 tiny rep [1-9]' share.err || true)
[ "$a53" = 2 ] || fail "cortex-a53 ran $a53 repetitions itself, want 2: $(grep '\[run ' share.err)"
[ -z "$(sql share.db "select value from facts where key like 'identical.%' and value=(select id from configs where label='a64 glibc max O2') and key like '%' || (select id from configs where label='a64 glibc a53 O2') || '%'")" ] ||
	fail "an identical fact pairs a53 with max"
ok "-cpu max and -cpu cortex-a53: one program, run on each CPU model"

grep -q "a64 glibc max O2w tiny: identical code to a64 glibc max O2, its runs are reused" share.err ||
	fail "O2 -Wall on the same CPU no longer shares: $(grep 'identical code' share.err)"
ok "-O2 and -O2 -Wall on the same CPU model still share their runs"
echo PASS
