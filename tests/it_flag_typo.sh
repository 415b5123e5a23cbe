#!/bin/bash
# it_flag_typo.sh - issue 28: '-funrol-loops' and '-march=x86-64-v33'
# passed --dry-run ("would build"); the real run recorded unsupported_flag
# with gcc's own "did you mean", exited 0, and its redirected progress
# never named the two configurations.  Expected:
#   1. run --dry-run exits 2 with one line per mistyped level, at its
#      line of the study, with gcc's complaint and suggestion
#      ("did you mean '-funroll-loops'", and for -march the note line's
#      "did you mean 'x86-64-v3'"); nothing "would build" is printed;
#   2. the real run exits 2 the same way before building anything;
#   3. a flag one compiler of the study takes (gcc's -fipa-pta beside
#      clang) stays an outcome: the dry run exits 0 and shows clang's
#      configuration as unsupported_flag (needs clang; else SKIP).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_flag_typo
count_failures
cat >typo.study <<'S'
; expect: refused at lines 9 and 10 before anything is built (exit 2)
[study]
name = typo
workloads = tiny
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
unroll = -O2 -funrol-loops
v33 = -O2 -march=x86-64-v33
S
set +e; fs run typo.study --dry-run >d.out 2>d.err; rc=$?; set -e
[ "$rc" = 2 ] || fail "dry run: want exit 2, got $rc: $(cat d.err)"
grep -q "^flagscope: typo.study:9: level 'unroll': .*-funrol-loops.*did you mean .-funroll-loops." d.err ||
	fail "no line 9 with gcc's suggestion: $(cat d.err)"
grep -q "^flagscope: typo.study:10: level 'v33': .*x86-64-v33.*did you mean .x86-64-v3." d.err ||
	fail "no line 10 with the -march suggestion: $(cat d.err)"
if grep -q 'would build' d.out; then fail "the dry run still says 'would build': $(cat d.out)"; fi
set +e; fs run typo.study --db r.db >r.out 2>r.err; rc=$?; set -e
[ "$rc" = 2 ] || fail "run: want exit 2, got $rc: $(tail -3 r.err)"
grep -q "typo.study:9: level 'unroll'" r.err || fail "run: the level is not named: $(cat r.err)"
[ ! -d "$T/cache/builds" ] || [ -z "$(ls -A "$T/cache/builds")" ] || fail "run built something before refusing: $(ls "$T/cache/builds")"

if command -v clang >/dev/null; then
	cat >pta.study <<'S'
; expect: gcc takes -fipa-pta, clang does not: an outcome, not an error
[study]
name = pta
workloads = tiny
repeat = 1
baseline = gcc O2
[axis cc]
gcc = gcc
clang = clang
[axis opt]
O2 = -O2
pta = -O2 -fipa-pta
S
	fs run pta.study --dry-run >p.out 2>p.err || fail "a flag gcc takes was refused: $(cat p.err)"
	grep -q 'unsupported_flag' p.out || fail "clang's -fipa-pta is not shown unsupported_flag: $(cat p.out)"
else
	echo "SKIP (part): no clang: a flag one compiler takes not checked"
fi
ok "mistyped flags refused at their lines with the compiler's suggestion, dry run and run"
finish_counted
