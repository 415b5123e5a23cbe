#!/bin/bash
# it_study_traps.sh - reserved axes whose level value names the level's own
# meaning (`musl = musl`, `static = static`): accepted as that meaning, the
# word never reaching the compiler (it did: every build failed as
# unsupported_flag with "ld: cannot find static" and the study exited 0);
# a value that cannot mean anything there is refused at file:line.
# Expected: the dry run shows no stray word in CFLAGS/LDFLAGS, the study
# ranks its configurations with no unsupported_flag; the refused study
# exits 2 before building anything, as do --workloads "" and --workloads
# naming a workload twice.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_study_traps

libcs="glibc = glibc"
command -v musl-gcc > /dev/null && libcs="$libcs
musl = musl"
cat > words.study <<S
; expect: every configuration ok and ranked (musl only where musl-gcc is installed)
[study]
name = words
workloads = tiny
repeat = 1
baseline = glibc dynamic
[axis libc]
$libcs
[axis link]
dynamic = dynamic
static = static
S
fs run words.study --dry-run > dry.txt
sed 's/^/# /' dry.txt
grep -E '^  (cflags|ldflags):' dry.txt > flags.txt
word='(: | )(glibc|musl|static|dynamic)( |$)'
if grep -Eq "$word" flags.txt; then
	fail "a level's own name reached the compiler: $(grep -E "$word" flags.txt | head -1)"
fi
[ "$(grep -c '^  ldflags: -static$' dry.txt)" -ge 1 ] || fail "static levels must link with -static"

fs run words.study -q > run.txt 2> run.err
sed 's/^/# /' run.txt
! grep -q unsupported_flag run.txt run.err || fail "a build failed as unsupported_flag"
n=$(grep -cE '^[0-9]+ +(glibc|musl) (static|dynamic) ' run.txt || true)
want=2; command -v musl-gcc > /dev/null && want=4
[ "$n" = "$want" ] || fail "$want configurations must be ranked, $n were"

cat > bad.study <<'S'
; expect: refused at line 6 (dynamic = static contradicts the level), exit 2
[study]
workloads = tiny
[axis link]
static = static
dynamic = static
S
set +e; fs run bad.study --dry-run > bad.out 2> bad.err; rc=$?; set -e
sed 's/^/# /' bad.err
[ "$rc" = 2 ] || fail "a contradicting link level must exit 2, got $rc"
grep -q "^flagscope: bad.study:6: link level 'dynamic' has 'static' in its value.*(.*write 'dynamic =')" bad.err ||
	fail "the refusal must name bad.study:6 and what to write"
# --workloads: an empty list or a name given twice is refused (they ran
# nothing, or the same workload twice over)
for w in "" "tiny tiny"; do
	set +e; fs run words.study --dry-run --workloads "$w" > w.out 2> w.err; rc=$?; set -e
	[ "$rc" = 2 ] || fail "--workloads '$w' must exit 2, got $rc: $(cat w.err)"
	grep -Eq "^flagscope: --workloads names (no workload|'tiny' twice)" w.err || fail "--workloads '$w': $(cat w.err)"
done
echo "PASS it_study_traps"
