#!/bin/bash
# it_outputs_folder.sh - a recipe's outputs = names a folder.  Folders were
# compared as files: both reads returned 0 bytes, "equal", so a wrong answer
# written into the folder passed as ok.  Expected: the folder is compared
# recursively (names, types, contents): the baseline's runs are ok, and a
# configuration that writes a wrong number in a nested file, leaves a file
# out, or writes a folder where a file was, gets wrong_output naming the
# path that differs.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_outputs_folder
count_failures

mkdir -p workloads/folder
cat > workloads/folder/folder.c <<'C'
/* writes out/sum and out/deep/part (the answer), prints nothing of it;
 * -DWRONG writes a wrong part, -DMISSING leaves part out, -DKIND makes
 * out/sum a folder */
#include <stdio.h>
#include <sys/stat.h>
int main(void)
{
	unsigned long s = 0;
	for (unsigned long i = 0; i < 100000; i++)
		s += i;
	mkdir("out", 0755);
	mkdir("out/deep", 0755);
#ifdef KIND
	mkdir("out/sum", 0755);
#else
	FILE *f = fopen("out/sum", "w");
	fprintf(f, "%lu\n", s);
	fclose(f);
#endif
#ifndef MISSING
	FILE *g = fopen("out/deep/part", "w");
#ifdef WRONG
	s++;
#endif
	fprintf(g, "%lu\n", s % 1000);
	fclose(g);
#endif
	puts("done");
	return 0;
}
C
cat > workloads/folder/recipe.ini <<'R'
; folder: writes its answer into a folder (outputs = out); expect: O2 ok,
; wrong, missing and kind wrong_output
[workload]
description = writes its answer into a folder
source = bundled
[build]
script = $CC $CFLAGS -o folder "$RECIPE/folder.c" $LDFLAGS
binaries = folder
[run]
args = folder
timeout = 20
outputs = out
R
cat > f.study <<'S'
; expect: O2 ok; wrong, missing, kind wrong_output
[study]
name = f
workloads = folder
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
wrong = -O2 -DWRONG
missing = -O2 -DMISSING
kind = -O2 -DKIND
S
fs run f.study --db f.db -q > f.out 2> f.err || fail "the study failed: $(tail -3 f.err)"
status() { sql f.db "select r.status || '|' || coalesce(r.detail, '') from runs r join configs c on c.id = r.config_id and c.study = r.study where c.label = '$1' and r.rep = 1"; }
got=$(status O2)
[[ $got == ok\|* ]] || fail "the baseline's run is not ok: $got"
got=$(status wrong)
[[ $got == "wrong_output|out/deep/part differs from the reference at byte 0"* || $got == "wrong_output|out/deep/part differs from the reference at byte"* ]] ||
	fail "a wrong number in out/deep/part passed: $got"
got=$(status missing)
[[ $got == "wrong_output|out/deep/part: only in the reference"* ]] ||
	fail "a file left out of the folder passed: $got"
got=$(status kind)
[[ $got == "wrong_output|out/sum is a folder, the reference a file"* ]] ||
	fail "a folder in place of a file passed: $got"
[ "$failures" = 0 ] && ok "folders compared by names, types and contents"
finish_counted
