#!/bin/bash
# it_syntax_root_cause.sh - issue 28: a study with a missing ']' in
# '[axis opt' printed two misleading "unknown key in [study]" errors before
# the cause, and 'O2 = CFLAGS=-O2' was told to write 'O2 = -CFLAGS=-O2'.
# Expected: the first (and only) error names the header's line and says
# the ']' is missing; the assignment gets 'O2 = -O2' as its fix, and no
# suggestion with '-CFLAGS'.  Both are refused (exit 2) before anything is
# built.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_syntax_root_cause
count_failures
cat > bracket.study <<'S'
; expect: line 6's header lacks its ']': the one error, at line 6
[study]
name = bracket
workloads = tiny
baseline = O2
[axis opt
O2 = -O2
O3 = -O3
S
set +e; fs run bracket.study --dry-run >b.out 2>b.err; rc=$?; set -e
[ "$rc" = 2 ] || fail "a missing ']' must exit 2, got $rc"
first=$(head -1 b.err)
[[ $first == "flagscope: bracket.study:6: section header '[axis opt' has no closing ']'"* ]] ||
	fail "the first error must be the header's missing ']' at line 6, got: $(cat b.err)"
if grep -q 'unknown key' b.err; then fail "errors that follow from the missing ']' were printed: $(cat b.err)"; fi

cat > assign.study <<'S'
; expect: 'O2 = CFLAGS=-O2' refused at line 7 with 'O2 = -O2' as the fix
[study]
name = assign
workloads = tiny
baseline = O2
[axis opt]
O2 = CFLAGS=-O2
O3 = -O3
S
set +e; fs run assign.study --dry-run >a.out 2>a.err; rc=$?; set -e
[ "$rc" = 2 ] || fail "'O2 = CFLAGS=-O2' must exit 2, got $rc"
grep -q "^flagscope: assign.study:7: .*write 'O2 = -O2'" a.err || fail "want the fix 'O2 = -O2' at line 7, got: $(cat a.err)"
if grep -q -- "-CFLAGS" a.err; then fail "a wrong suggestion ('-CFLAGS=...'): $(cat a.err)"; fi
ok "missing ']' said first and alone; CFLAGS=-O2 told to write -O2"
finish_counted
