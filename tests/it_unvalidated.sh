#!/bin/bash
# it_unvalidated.sh - a recipe whose run prints nothing and names no
# expected stdout or outputs = validates nothing: every configuration's run
# would be "ok" whatever it computed.  Expected: the run says so once on
# stderr (also with -q), the report keeps it as the fact
# unvalidated.quiet, and tiny (which prints its sum) gets no such line.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_unvalidated

mkdir -p workloads/quiet
cat > workloads/quiet/quiet.c <<'C'
int main(void)
{
	volatile unsigned long h = 0;
	for (unsigned long i = 0; i < 100000; i++)
		h += i;
	return 0;
}
C
cat > workloads/quiet/recipe.ini <<'R'
; quiet: computes and prints nothing (a recipe that validates nothing)
[workload]
description = prints nothing
source = bundled
[build]
script = $CC $CFLAGS -o quiet "$RECIPE/quiet.c" $LDFLAGS
binaries = quiet
[run]
args = quiet
timeout = 20
R
tiny_study q.study 2 "both ok, quiet said unvalidated" O1 O2
sed -i 's/^workloads = tiny$/workloads = tiny quiet/' q.study
fs run q.study --db q.db -q > q.out 2> q.err || fail "the study failed: $(cat q.err)"
n=$(grep -c "quiet: the baseline printed nothing and the recipe names no outputs =" q.err || true)
[ "$n" = 1 ] || fail "the unvalidated line came $n times, not once: $(cat q.err)"
! grep -q "tiny: the baseline printed nothing" q.err || fail "tiny prints its sum, yet was said unvalidated"
out_has -x "unvalidated.quiet: empty stdout, no outputs =" fs report --db q.db ||
	fail "the report lacks the fact: $(fs report --db q.db | grep -i valid)"
echo "PASS it_unvalidated"
