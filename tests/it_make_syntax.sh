#!/bin/bash
# it_make_syntax.sh - flags reached make as make syntax: system = make put
# CFLAGS="$CFLAGS" on make's command line, where make expanded what the
# flags held: $(MAKE_VERSION) in a flag became 4.3, and a $(shell ...)
# would have run inside make.  Expected: make takes the flags from the
# environment through $(value ...) and never expands them (make echoes
# the flag as written), and ordinary flags still build.  The probe that
# checks a configuration's flags ran them through a shell too: a $(...)
# in a flag ran there; it takes them as words now.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_make_syntax
count_failures
command -v make >/dev/null || { echo "SKIP: make is not installed"; exit 77; }

mkdir -p tree workloads/mk
printf '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n' >tree/prog.c
printf 'CFLAGS = -O0\nprog: prog.c\n\t$(CC) $(CFLAGS) -o prog prog.c $(LDFLAGS)\n' >tree/Makefile
cat > workloads/mk/recipe.ini <<R
; mk: a plain Makefile built by system = make; expect: built, make never expands the flags
[workload]
description = a plain Makefile
source = local:$T/tree
[build]
system = make
binaries = prog
[run]
args = prog
timeout = 20
R
cat > m.study <<S
; expect: plain ok; planted's \$(MAKE_VERSION) never expanded by make
[study]
name = m
workloads = mk
repeat = 1
baseline = plain
[axis opt]
plain = -O2
planted = -O2 -DX=\$(MAKE_VERSION)
S
fs run m.study --db m.db -q >m.out 2>m.err || true
st=$(sql m.db "select b.status from builds b join configs c on c.id = b.config_id and c.study = b.study where c.label = 'plain'")
[ "$st" = ok ] || fail "the plain build: '$st': $(tail -3 m.err)"
# the compiler command as make echoed it (not the shell's trace of make)
cc_lines=$(cat "$FLAGSCOPE_CACHE"/builds/*/build.log | grep -- "-o prog prog.c" | grep -v '^+')
grep -qF -- "-O2 -DX=\$(MAKE_VERSION) " <<<"$cc_lines" ||
	fail "make expanded the flag: $(grep -- '-DX=' <<<"$cc_lines")"
[ "$failures" = 0 ] && ok "flags reach make as text, never as make syntax"

# the flag probe ran a shell over the flags: a $(...) in one ran there
mkdir -p home/workloads
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" home/workloads/
export FLAGSCOPE_HOME=$T/home
cat > p.study <<S
; expect: both ok; the shell text in shellish's flag never runs
[study]
name = p
workloads = tiny
repeat = 1
baseline = plain
[axis opt]
plain = -O2
shellish = -O2 -DX=\$(touch\$IFS$T/probe-ran)
S
fs run p.study --db p.db -q >p.out 2>p.err || true
[ ! -e probe-ran ] || fail "a flag's \$(...) ran: $(grep -m1 probe p.err)"
st=$(sql p.db "select group_concat(status) from builds")
[ "$st" = ok,ok ] || fail "builds: '$st': $(tail -3 p.err)"
[ "$failures" = 0 ] && ok "the flag probe takes flags as words, never as shell text"
finish_counted
