#!/bin/bash
# it_autotools_make_syntax.sh - system = autotools handed the flags to
# configure, which wrote them into its Makefiles as make text (CFLAGS =
# @CFLAGS@): make expanded a $(MAKE_VERSION) in a flag (4.3 reached the
# compiler) and would have run a $(shell ...).  Expected: make gets the
# flags from the environment through $(value ...), in the top Makefile and
# in a sub-make, so the compiler sees the flag as written; what configure.ac
# added to CFLAGS (-DADDED=1) is kept; ordinary flags still build.  Needs
# autoconf (the tree has configure.ac only: the build runs autoreconf).
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_autotools_make_syntax
count_failures
command -v make >/dev/null || { echo "SKIP: make is not installed"; exit 77; }
command -v autoreconf >/dev/null || { echo "SKIP: autoreconf is not installed (apt-get install autoconf)"; exit 77; }

mkdir -p tree/sub workloads/at
cat >tree/configure.ac <<'A'
AC_INIT([at], [1])
AC_PROG_CC
CFLAGS="$CFLAGS -DADDED=1"
AC_CONFIG_FILES([Makefile sub/Makefile])
AC_OUTPUT
A
printf '#ifndef ADDED\n#error configure.ac added -DADDED=1 to CFLAGS and it was lost\n#endif\nint helper(void) { return 0; }\n' >tree/sub/helper.c
printf '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n' >tree/prog.c
printf 'CC = @CC@\nCFLAGS = @CFLAGS@\nLDFLAGS = @LDFLAGS@\nsrcdir = @srcdir@\nVPATH = @srcdir@\nprog: prog.c\n\t$(MAKE) -C sub\n\t$(CC) $(CFLAGS) -o prog $(srcdir)/prog.c $(LDFLAGS)\n' >tree/Makefile.in
printf 'CC = @CC@\nCFLAGS = @CFLAGS@\nsrcdir = @srcdir@\nall:\n\t$(CC) $(CFLAGS) -c -o helper.o $(srcdir)/helper.c\n' >tree/sub/Makefile.in
cat > workloads/at/recipe.ini <<R
; at: an Autoconf project with a sub-make; expect: built, make never expands the flags
[workload]
description = an Autoconf project
source = local:$T/tree
[build]
system = autotools
binaries = prog
[run]
args = prog
timeout = 20
R
cat > a.study <<S
; expect: plain ok, planted ok with \$(MAKE_VERSION) never expanded by make
[study]
name = a
workloads = at
repeat = 1
baseline = plain
[axis opt]
plain = -O2
planted = -O2 -DX=\$(MAKE_VERSION)
S
fs run a.study --db a.db -q >a.out 2>a.err || true
st=$(sql a.db "select c.label || '=' || b.status from builds b join configs c on c.id = b.config_id and c.study = b.study order by c.label")
[ "$st" = "$(printf 'plain=ok\nplanted=ok')" ] || fail "builds: '$st': $(tail -3 a.err)"
# the compiler commands as make echoed them (not the shell's trace)
cc_lines=$(cat "$FLAGSCOPE_CACHE"/builds/*/build.log | grep -E -- "-o (prog|helper.o) " | grep -v '^+' || true)
for what in "-o prog " "-o helper.o "; do
	line=$(grep -F -- "$what" <<<"$cc_lines" | grep -F -- "-DX=" || true)
	[ -n "$line" ] || { fail "no compile of '$what' with the planted flag in the build log"; continue; }
	grep -qF -- "-O2 -DX=\$(MAKE_VERSION)" <<<"$line" || fail "make expanded the flag ($what): $line"
	grep -qF -- "-DADDED=1" <<<"$line" || fail "configure.ac's own -DADDED=1 was lost ($what): $line"
done
[ "$failures" = 0 ] && ok "autotools: flags reach make (and sub-makes) as text, configure's additions kept"

# a configure that replaced the flags (options = CFLAGS=-O1) keeps its own
# text; flags holding a $ then cannot be handed on as written: the build
# fails saying so instead of building with make's expansion of them
mkdir -p workloads/at1
sed -e 's/^binaries/options = CFLAGS=-O1\nbinaries/' -e 's/^; at:/; at1:/' workloads/at/recipe.ini >workloads/at1/recipe.ini
sed -e 's/^name = a/name = a1/' -e 's/^workloads = at/workloads = at1/' a.study >a1.study
fs run a1.study --db a1.db -q >a1.out 2>a1.err || true
st=$(sql a1.db "select c.label || '=' || b.status from builds b join configs c on c.id = b.config_id and c.study = b.study order by c.label")
grep -qx 'planted=build_failed' <<<"$st" || fail "configure's own CFLAGS with a planted flag: '$st'"
grep -qx 'plain=build_failed' <<<"$st" && fail "plain flags under configure's own CFLAGS failed to build: '$st'"
grep -qF "cannot reach its Makefiles as written" "$FLAGSCOPE_CACHE"/builds/*/build.log ||
	fail "no build log says why the planted build failed"
[ "$failures" = 0 ] && ok "autotools: a configure that replaced the flags fails a flag holding \$, saying why"
finish_counted
