#!/bin/bash
# it_label_match.sh - compare and why name configurations by their levels in
# any order, as a study's baseline = does (they wanted the whole label):
# a level only one configuration has, the levels in another order, and
# levels several configurations have (refused, naming them).
# Expected: compare --baseline gcc12 --candidate "O1 gcc" pairs gcc12 O2 with
# gcc O1; "O2 gcc12" is gcc12 O2; O2 alone is refused (exit 2) naming
# 'gcc O2' and 'gcc12 O2'; why takes levels too (when valgrind is here).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_label_match
command -v gcc-12 > /dev/null || { echo "SKIP: gcc-12 is not installed"; exit 77; }

cat > cc.study <<'S'
; expect: three configurations ok (gcc O2, gcc O1, gcc12 O2); the baseline is gcc12 O2
[study]
name = cc
workloads = tiny
repeat = 2
baseline = O2 gcc12
[axis cc]
gcc = gcc
gcc12 = gcc-12
[axis opt]
O2 = -O2
O1 = -O1
[exclude]
old-only-O2 = gcc12 O1
S
out_has "gcc12 O2  (baseline)" fs run cc.study --dry-run || fail "baseline = O2 gcc12 must pick gcc12 O2"
fs run cc.study -q > /dev/null

set +e; fs compare --db flagscope.db --baseline gcc12 --candidate "O1 gcc" > c1.txt 2> c1.err; r=$?; set -e
sed 's/^/# /' c1.txt c1.err
[ "$r" = 0 ] || [ "$r" = 1 ] || fail "compare by unique levels must work, got $r: $(cat c1.err)"
grep -Eq "^[A-Z]+ +gcc12 O2 -> gcc O1 +tiny +time " c1.txt || fail "compare must pair gcc12 O2 with gcc O1"

set +e; fs compare --db flagscope.db --baseline "O2 gcc12" --candidate "gcc O2" > c2.txt 2> c2.err; r=$?; set -e
[ "$r" != 2 ] && grep -Eq "^[A-Z]+ +gcc12 O2 -> gcc O2 " c2.txt || fail "levels in any order: $r $(cat c2.err)"

set +e; fs compare --db flagscope.db --baseline O2 --candidate gcc12 > /dev/null 2> c3.err; r=$?; set -e
sed 's/^/# /' c3.err
[ "$r" = 2 ] || fail "levels of several configurations must be refused (exit 2), got $r"
grep -q "^flagscope: flagscope.db: study 'cc': --baseline: 'O2' matches 2 configurations: 'gcc O2', 'gcc12 O2' (name one more" c3.err ||
	fail "the refusal must name the candidates"
set +e; fs compare --db flagscope.db --baseline gcc12 --candidate clang > /dev/null 2> c4.err; r=$?; set -e
[ "$r" = 2 ] && grep -q "candidate: no configuration has the level 'clang' (its configurations: 'gcc O2'" c4.err ||
	fail "an unknown level must be refused with the configurations: $r $(cat c4.err)"

if command -v valgrind > /dev/null; then
	fs why O1 "O2 gcc12" tiny > why.txt || fail "why by levels must work"
	grep -q "gcc O1" why.txt || grep -q "O1" why.txt || fail "why must show the configurations"
	set +e; fs why O2 O1 tiny > /dev/null 2> w.err; r=$?; set -e
	[ "$r" = 2 ] && grep -q "'O2' matches 2 configurations" w.err || fail "why must refuse ambiguous levels: $r"
else
	echo "# why not tried: valgrind is not installed"
fi
echo "PASS it_label_match"
