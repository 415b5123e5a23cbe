#!/bin/bash
# it_extra_sources.sh - a recipe that needs two trees (a program and the
# library it links with, both built with the configuration's flags):
# `source.NAME = SPEC` in [workload], the tree in $SRC_NAME.
# A user's recipe beside the study (workloads/two/) builds prog/main.c from
# `source = local:...` and lib/lib.c from `source.mylib = local:...`.
# Expected: the build is ok and verify found both units with the flags; a
# recipe that compiles the extra tree's unit without $CFLAGS is
# flags_not_applied (verify knows the extra tree's file names); changing a
# file of the extra tree changes the build key; the report's fact names
# both sources; an extra source that cannot be fetched is that workload's
# build_failed ("source.mylib: ...") while the study's other workload runs;
# a bad name or spec is refused with recipe.ini:LINE (exit 2).
# The extra source overridden as WORKLOAD.NAME (--source two.mylib=SPEC,
# [sources] two.mylib = SPEC): built from the other tree, the override in
# the build key (a copy with the same content gets another key) and in the
# fact; an unknown extra name or a bad spec refused (exit 2).
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_extra_sources
mkdir -p "$T/trees/prog" "$T/trees/lib" "$T/s/workloads"
command -v gcc >/dev/null || { echo "SKIP: gcc is not installed"; exit 77; }
cat >"$T/trees/prog/main.c" <<'EOF'
#include <stdio.h>
unsigned mix(unsigned x);
int main(void) { printf("%u\n", mix(12345u)); return 0; }
EOF
cat >"$T/trees/lib/lib.c" <<'EOF'
unsigned mix(unsigned x) { for (int i = 0; i < 1000; i++) x = x * 2654435761u + 1u; return x; }
EOF
recipe() { # NAME LIB-COMPILE-FLAGS [EXTRA-SOURCE-LINE]
	mkdir -p "$T/s/workloads/$1"
	cat >"$T/s/workloads/$1/recipe.ini" <<EOF
; $1: a program and its library from two trees
[workload]
description = program and library from two local trees
source = local:../../../trees/prog
${3:-source.mylib = local:../../../trees/lib}
[build]
script = \$CC $2 -c "\$SRC_mylib/lib.c" -o lib.o && \$CC \$CFLAGS -o prog "\$SRC/main.c" lib.o \$LDFLAGS
binaries = prog
[run]
args = prog
timeout = 30
EOF
}
study() { # FILE WORKLOADS
	printf '[study]\nname = extra\nworkloads = %s\nrepeat = 1\n[axis opt]\nO2 = -O2\n' "$2" >"$1"
}
cd "$T/s" || exit 1

# 1. both trees built with the flags
recipe two '$CFLAGS'
study two.study two
fs run two.study --db two.db -q >two.out 2>two.err || fail "run: $(tail -5 two.err)"
row=$(sql two.db "select status, detail from builds where workload='two'")
[ "${row%%|*}" = ok ] || fail "build: $row ($(cat two.err))"
out_has -x ok sql two.db "select status from runs where workload='two' and rep >= 1" ||
	fail "run not ok: $(sql two.db "select status, detail from runs")"
key=$(sql two.db "select key from builds where workload='two'")
fs verify "$FLAGSCOPE_CACHE/builds/$key/out/prog" --expect -O2 --sources "$T/trees/lib" >verify.out 2>&1 ||
	fail "verify: $(cat verify.out)"
grep -q 'lib\.c' verify.out || fail "verify does not list the extra tree's unit: $(cat verify.out)"
echo "ok: built from two trees, verify finds lib.c with -O2"
out_has -F "source.two: local:../../../trees/prog + mylib=local:../../../trees/lib" fs report --db two.db ||
	fail "report fact: $(fs report --db two.db | grep '^source')"
echo "ok: the report names both sources"

# 2. the extra tree's unit without the flags is caught
recipe bare ''
study bare.study bare
fs run bare.study --db bare.db -q >bare.out 2>bare.err
row=$(sql bare.db "select status, detail from builds where workload='bare'")
[ "${row%%|*}" = flags_not_applied ] || fail "lib.c without CFLAGS: $row"
grep -q 'lib\.c' <<<"$row" || fail "the detail does not name lib.c: $row"
echo "ok: lib.c without \$CFLAGS is flags_not_applied"

# 3. the extra tree is in the build key
key_of() { sed -n 's/^  two  *build \([0-9a-f]\{16\}\).*/\1/p' "$1"; }
fs run two.study --dry-run >k1.out 2>&1 || fail "dry run: $(cat k1.out)"
echo '/* changed */' >>"$T/trees/lib/lib.c"
fs run two.study --dry-run >k2.out 2>&1 || fail "dry run: $(cat k2.out)"
[ -n "$(key_of k1.out)" ] && [ "$(key_of k1.out)" != "$(key_of k2.out)" ] ||
	fail "changing the extra tree kept the key: $(key_of k1.out) $(key_of k2.out)"
echo "ok: the extra tree is part of the build key"

# 4. an extra source that cannot be fetched fails that workload only
recipe gone '$CFLAGS' 'source.mylib = local:../../../trees/nowhere'
study gone.study "gone tiny"
fs run gone.study --db gone.db -q >gone.out 2>gone.err
row=$(sql gone.db "select status, detail from builds where workload='gone'")
[ "${row%%|*}" = build_failed ] && grep -q 'source.mylib: local:' <<<"$row" ||
	fail "unfetchable extra source: $row"
out_has -x ok sql gone.db "select status from runs where workload='tiny' and rep >= 1" ||
	fail "the other workload did not run: $(sql gone.db "select workload, status from runs")"
echo "ok: an unfetchable extra source is that workload's build_failed: ${row#*|}"

# 5. refused at load
expect_refused() { # WHAT PATTERN
	fs run bad.study --dry-run >refused.out 2>refused.err
	local rc=$?
	[ $rc = 2 ] || fail "$1: exit $rc, want 2: $(cat refused.err)"
	grep -q -- "$2" refused.err || fail "$1: $(cat refused.err)"
	echo "ok: $1 refused: $(head -1 refused.err)"
}
recipe bad '$CFLAGS' 'source.my-lib = local:x'
study bad.study bad
expect_refused "a bad extra source name" "workloads/bad/recipe.ini:5: 'source.my-lib'"
recipe bad '$CFLAGS' 'source.mylib = ftp:x'
expect_refused "a bad extra source spec" "workloads/bad/recipe.ini:5: .*unknown source kind 'ftp'"
# 6. the extra source overridden: WORKLOAD.NAME in --source and [sources]
cp -r "$T/trees/lib" "$T/trees/lib2"
fs run two.study --dry-run --source two.mylib=local:../trees/lib2 >k3.out 2>&1 ||
	fail "dry run with the override: $(cat k3.out)"
[ -n "$(key_of k3.out)" ] && [ "$(key_of k3.out)" != "$(key_of k2.out)" ] ||
	fail "the override of an identical tree kept the key: $(key_of k2.out) $(key_of k3.out)"
fs run two.study --db over.db -q --source two.mylib=local:../trees/lib2 >over.out 2>over.err ||
	fail "run with the override: $(tail -5 over.err)"
row=$(sql over.db "select status, detail from builds where workload='two'")
[ "${row%%|*}" = ok ] || fail "build with the override: $row"
fs report --db over.db >over.rep 2>&1
grep -qF "source.two: local:../../../trees/prog + mylib=local:$T/trees/lib2 (from --source; the recipe's: local:../../../trees/lib)" over.rep ||
	fail "report fact: $(grep '^source' over.rep)"
echo "ok: --source two.mylib= builds from lib2, in the key and the fact"
{ cat two.study; printf '[sources]\ntwo.mylib = local:../trees/lib2\n'; } >over.study
sed -i 's/^name = extra/name = extra-over/' over.study
fs run over.study --dry-run >k4.out 2>&1 || fail "dry run of [sources]: $(cat k4.out)"
[ "$(key_of k4.out)" = "$(key_of k3.out)" ] ||
	fail "[sources] and --source of the same tree differ: $(key_of k4.out) $(key_of k3.out)"
echo "ok: [sources] two.mylib = the same build"
cp two.study bad.study
fs run bad.study --dry-run --source two.nolib=local:x >refused.out 2>refused.err
[ $? = 2 ] && grep -q "workload 'two' has no extra source 'nolib' (its extra sources: two.mylib)" refused.err ||
	fail "an unknown extra source: $(cat refused.err)"
fs run bad.study --dry-run --source two.mylib=ftp:x >refused.out 2>refused.err
[ $? = 2 ] && grep -q "^flagscope: --source: .*unknown source kind 'ftp'" refused.err ||
	fail "a bad extra source spec: $(cat refused.err)"
echo "ok: an unknown extra source and a bad spec refused"
echo PASS
rm -rf "$T"
