#!/bin/bash
# it_share_by_runner.sh - issue 26 "runs are shared only where execution is
# the same", the runner's axis kind (it_share_by_execution.sh has the cpu
# axis).  The target axis picks the runner: no target runs natively,
# x86_64-linux-gnu runs the same x86-64 program under qemu-x86_64.  Both
# builds are one program (the same compiler, flags, libc, static: the same
# loadable bytes; an emulated build is static, so the native one is too
# here, else their code differs anyway), yet the runs
# under QEMU are never copies of the native ones: each runner measures its
# own repetitions, and no identical fact pairs the two.  A libc axis always
# changes the code (crt files, .interp), and the environment, the boards
# and the runner's host are the study's: one value for all configurations
# of a study, nothing to share across (doc/guarantees.md).
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_share_by_runner
count_failures
for tool in qemu-x86_64 x86_64-linux-gnu-gcc; do
	command -v $tool >/dev/null || { echo "SKIP: $tool not installed (qemu-user, gcc)"; exit 77; }
done
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: needs an x86-64 host (the native and emulated builds must be one program)"; exit 77; }

cat > r.study <<'S'
; expect: qemu O2 runs its own repetitions, never a copy of native O2's; O2w shares O2's per runner
[study]
name = r
workloads = tiny
repeat = 2
baseline = here gcc glibc static O2
meters = rusage
[axis target]
here = native
qemu = x86_64-linux-gnu
[axis cc]
gcc = x86_64-linux-gnu-gcc
[axis libc]
glibc =
[axis link]
static = static
[axis opt]
O2 = -O2
O2w = -O2 -Wall
S
fs run r.study --db r.db > r.txt 2> r.err || true
grep -q "qemu gcc glibc static O2 tiny rep" r.err || fail "the study did not run under qemu: $(tail -5 r.err)"
# the premise: within a runner the -Wall twin is the same program and shares
grep -q "here gcc glibc static O2w tiny: identical code to here gcc glibc static O2, its runs are reused" r.err ||
	fail "native O2 -Wall does not share with O2: $(grep 'identical code' r.err)"
grep -q "qemu gcc glibc static O2w tiny: identical code to qemu gcc glibc static O2, its runs are reused" r.err ||
	fail "qemu O2 -Wall does not share with qemu O2: $(grep 'identical code' r.err)"
a=$(sql r.db "select b.binary_hash from builds b join configs c on c.id=b.config_id where c.label='here gcc glibc static O2'")
b=$(sql r.db "select b.binary_hash from builds b join configs c on c.id=b.config_id where c.label='qemu gcc glibc static O2'")
[ "$a" = "$b" ] || echo "note: the native and qemu builds differ as files (their code is compared, not the files)"

! grep -q "qemu gcc glibc static O2 tiny: identical code to here gcc glibc static O2" r.err ||
	fail "the qemu runner reuses native runs: $(grep 'identical code' r.err)"
n=$(grep -c '\] qemu gcc glibc static O2 tiny rep [1-9]' r.err || true)
[ "$n" = 2 ] || fail "qemu O2 ran $n repetitions itself, want 2: $(grep -c '\[run ' r.err)"
[ -z "$(sql r.db "select key from facts where key like 'identical.' || (select id from configs where label='qemu gcc glibc static O2') || '.%'")" ] ||
	fail "an identical fact pairs qemu O2 with another configuration"
[ "$failures" = 0 ] && ok "native and qemu-x86_64: one program, run by each runner"
finish_counted
