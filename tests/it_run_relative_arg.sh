#!/bin/bash
# it_run_relative_arg.sh - a newcomer's recipe runs 'cat2 data.txt', with
# data.txt beside the program in its tree: every run failed with "exit
# status 1: data.txt: No such file or directory" and nothing said that a
# run starts in an empty folder of its own.  Expected: the run_failed
# detail says so and names ${BUILD}/data.txt; with that args line the
# study runs ok.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_run_relative_arg
count_failures
mkdir -p src workloads/cat2
printf '#include <stdio.h>\nint main(int c, char **v) { FILE *f = fopen(v[1], "r"); if (!f) { perror(v[1]); return 1; } int n = 0, ch; while ((ch = fgetc(f)) != EOF) n += ch == 10; printf("lines %%d\\n", n); return 0; }\n' >src/cat2.c
printf 'a\nb\nc\n' >src/data.txt
printf 'cat2: cat2.c\n\t$(CC) $(CFLAGS) -o $@ cat2.c\n' >src/Makefile
recipe() { printf '; expect: counts the lines of data.txt\n[workload]\nsource = local:%s/src\n[build]\nsystem = make\nbinaries = cat2\n[run]\nargs = cat2 %s\n' "$T" "$1" >workloads/cat2/recipe.ini; }
recipe data.txt
printf '; expect: see the test\n[study]\nname = c2\nworkloads = cat2\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\n' >c2.study
set +e; fs run c2.study --db a.db >a.out 2>a.err; set -e
grep -qF 'run_failed: exit status 1: data.txt: No such file or directory (a run starts in an empty folder of its own: name the build folder'"'"'s file as ${BUILD}/data.txt in [run] args)' a.err ||
	fail "the failed run does not say where runs start: $(grep -m1 'run 1/' a.err)"
recipe '${BUILD}/data.txt'
fs run c2.study --db b.db -q >b.out 2>b.err || fail "with \${BUILD}/data.txt: $(tail -3 b.err)"
grep -qE '^1 +O2 .* ok' b.out || fail "with \${BUILD}/data.txt the run is not ok: $(cat b.out)"
ok "a relative input file: the run says to name it \${BUILD}/FILE, and that works"
finish_counted
