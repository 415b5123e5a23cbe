#!/bin/bash
# it_makefile_ignores_cflags.sh - a newcomer's Makefile whose compile
# lines hard-code their flags ($(CC) -O2 -c ...) instead of using
# $(CFLAGS) (issue 28's first hour, walked from an installed copy).
# Before, flags_not_applied said "no compile unit records its switches
# (build with -frecord-gcc-switches or -g)", asking the user for flags
# flagscope itself passes.  Expected: flags_not_applied in every
# configuration, saying that the compiler did not get the configuration's
# CFLAGS and to make the compile lines use $(CFLAGS); the same Makefile
# using $(CFLAGS) builds ok.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_makefile_ignores_cflags
count_failures
make_workload hard "flags_not_applied (the Makefile ignores CFLAGS)" \
	'hard: main.o\n\t$(CC) -o hard main.o\nmain.o: main.c\n\t$(CC) -O2 -c -o main.o main.c\n' hard hard
printf '; expect: nothing ranked (flags not applied)\n[study]\nname = h\nworkloads = hard\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\nO3 = -O3\n' >h.study
set +e; fs run h.study --db h.db >h.out 2>h.err; set -e
want="flags_not_applied .*no compile unit records its switches: the compiler did not get the configuration's CFLAGS.*make its compile lines use \\\$\(CFLAGS\)"
[ "$(grep -cE "\[build [12]/2\] O[23] hard: $want" h.err)" = 2 ] ||
	fail "the builds do not say the Makefile ignored CFLAGS: $(grep 'hard:' h.err | head -2)"
grep -q "frecord-gcc-switches or -g" h.err && fail "still asks the user for -frecord-gcc-switches: $(grep -m1 frecord h.err)"
ok "a Makefile that ignores CFLAGS is said to, with what to change"

printf 'hard: main.o\n\t$(CC) $(CFLAGS) $(LDFLAGS) -o hard main.o\nmain.o: main.c\n\t$(CC) $(CFLAGS) -c -o main.o main.c\n' >src/Makefile
fs run h.study --db ok.db >ok.out 2>ok.err || fail "the Makefile using CFLAGS does not run: $(tail -3 ok.err)"
[ "$(grep -cE '\[build [12]/2\] O[23] hard: (built|ok)' ok.err)" = 2 ] || fail "not built ok: $(grep 'hard:' ok.err | head -3)"
ok "the same Makefile using \$(CFLAGS) builds"
finish_counted
