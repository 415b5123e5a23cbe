#!/bin/bash
# it_local_edit.sh - a local: tree's build key follows its content: an edit
# that keeps the file's size and then gets its old modification time back
# (`touch -r`, as an editor or a tool restoring times does) rebuilds, and
# the new binary carries the edit (the old fingerprint, paths, sizes and
# mtimes, kept the first build).  Content that comes back as it was (an
# edit undone, a copy of the tree with new times) finds the first build
# again.
# Expect: three runs of a one-configuration study of a recipe whose source
# is local:TREE; keys A, B != A (the edit), A again (undone).
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_local_edit
command -v gcc >/dev/null || { echo "SKIP: gcc is not installed"; exit 77; }

mkdir -p tree home/workloads/edited
printf 'int main(void) { puts("MARK-AAAA"); return 0; }\n' > tree/main.c
sed -i '1i #include <stdio.h>' tree/main.c
cat > home/workloads/edited/recipe.ini <<EOF
; edited: a one-file program from a local: tree the test edits
[workload]
description = a local tree the test edits
source = local:$T/tree
[build]
script = \$CC \$CFLAGS -o prog "\$SRC/main.c" \$LDFLAGS
binaries = prog
[run]
args = prog
timeout = 20
EOF
printf '[study]\nname = edit\nworkloads = edited\nrepeat = 1\n[axis opt]\nO2 = -O2\n' > e.study

build_key() { # DB: the build's key, the build ok
	local row
	row=$(sql "$1" "select status || '|' || key from builds where workload = 'edited'")
	[ "${row%%|*}" = ok ] || fail "$1: build ${row}"
	echo "${row#*|}"
}
fs run e.study --db a.db -q > a.out 2> a.err || fail "first run: $(tail -3 a.err)"
a=$(build_key a.db)
grep -aq MARK-AAAA "$FLAGSCOPE_CACHE/builds/$a/out/prog" || fail "first build lacks the mark"

# the same size, the old time back
cp -p tree/main.c stamp
sed -i 's/MARK-AAAA/MARK-BBBB/' tree/main.c
touch -r stamp tree/main.c
[ "$(stat -c '%s %Y' tree/main.c)" = "$(stat -c '%s %Y' stamp)" ] || fail "the edit changed size or time"
fs run e.study --db b.db -q > b.out 2> b.err || fail "second run: $(tail -3 b.err)"
b=$(build_key b.db)
[ "$a" != "$b" ] || fail "an edit that kept size and mtime kept the build key $a"
grep -aq MARK-BBBB "$FLAGSCOPE_CACHE/builds/$b/out/prog" || fail "the rebuild lacks the edit"
ok "an edit keeping size and mtime rebuilt ($a -> $b)"

# undone, with a new time: the content is the first build's
sed -i 's/MARK-BBBB/MARK-AAAA/' tree/main.c
touch -d '2001-02-03 04:05:06' tree/main.c
fs run e.study --db c.db -q > c.out 2> c.err || fail "third run: $(tail -3 c.err)"
[ "$(build_key c.db)" = "$a" ] || fail "the first content again got key $(build_key c.db), not $a"
ok "the edit undone (another mtime) finds the first build"
echo PASS
rm -rf "$T"
