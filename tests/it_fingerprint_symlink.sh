#!/bin/bash
# it_fingerprint_symlink.sh - a local: tree's fingerprint took a link's
# target text, not what it leads to: editing a file behind a link (a
# folder of shared sources linked into the tree, a linked header) kept the
# source id and the build key, and the rerun measured the old binary.
# Expected: an edit behind a link to a folder, or to a file, rebuilds; a
# link loop is read once, not forever.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_fingerprint_symlink
count_failures

mkdir -p tree shared/inc workloads/lnk
printf '#include <stdio.h>\n#include "inc/k.h"\nint part(void);\nint main(void) { printf("n %%d\\n", part() + K); return 0; }\n' >tree/main.c
echo 'int part(void) { return 1; }' >shared/part.c
echo '#define K 10' >shared/inc/k.h
ln -s ../shared/part.c tree/part.c
ln -s ../shared/inc tree/inc
ln -s . tree/self
cat > workloads/lnk/recipe.ini <<R
; lnk: a local: tree whose sources are behind links; expect: ok, rebuilt after an edit behind them
[workload]
description = a local tree with linked sources
source = local:$T/tree
[build]
script = \$CC \$CFLAGS -I"\$SRC" -o lnk "\$SRC/main.c" "\$SRC/part.c" \$LDFLAGS
binaries = lnk
[run]
args = lnk
timeout = 20
metric.n = ^n ([0-9]+)
R
printf '[study]\nname = lnk\nworkloads = lnk\nrepeat = 1\n[axis opt]\nO2 = -O2\n' >lnk.study
builds() { find "$FLAGSCOPE_CACHE/builds" -mindepth 1 -maxdepth 1 -type d | wc -l; }

fs run lnk.study --db a.db -q >/dev/null 2>a.err || fail "first run: $(tail -2 a.err)"
[ "$(builds)" = 1 ] || fail "$(builds) builds after the first run"
fs run lnk.study --db b.db -q >/dev/null 2>b.err || fail "untouched rerun: $(tail -2 b.err)"
[ "$(builds)" = 1 ] || fail "an untouched tree was built again: $(builds) builds"
echo 'int part(void) { return 2; }' >shared/part.c
fs run lnk.study --db c.db -q >/dev/null 2>c.err || fail "rerun after editing a linked file: $(tail -2 c.err)"
[ "$(builds)" = 2 ] || fail "an edit behind tree/part.c (a link to a file) did not rebuild: $(builds) builds"
echo '#define K 20' >shared/inc/k.h
fs run lnk.study --db d.db -q >/dev/null 2>d.err || fail "rerun after editing a linked folder: $(tail -2 d.err)"
[ "$(builds)" = 3 ] || fail "an edit behind tree/inc (a link to a folder) did not rebuild: $(builds) builds"
[ "$failures" = 0 ] && ok "edits behind a local: tree's links rebuild; a link loop is read once"
finish_counted
