#!/bin/bash
# it_fingerprint_subdir.sh - a bundled recipe's hash covered only the files
# at the top of its folder: an edit in a subfolder (src/part.c) kept the
# build key, and the rerun measured the old binary.  Expected: the edit
# makes a new build (a second build folder in the cache, the new binary
# prints the new number), an untouched rerun builds nothing, and a copy of
# the folder with new times keeps the key.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_fingerprint_subdir
count_failures

mkdir -p workloads/sub/src/deep
cat > workloads/sub/recipe.ini <<'R'
; sub: its source in subfolders of the recipe; expect: ok, rebuilt after an edit there
[workload]
description = a bundled recipe with its source in subfolders
source = bundled
[build]
script = $CC $CFLAGS -o sub "$RECIPE/src/main.c" "$RECIPE/src/deep/part.c" $LDFLAGS
binaries = sub
[run]
args = sub
timeout = 20
metric.n = ^n ([0-9]+)
R
printf '#include <stdio.h>\nint part(void);\nint main(void) { printf("n %%d\\n", part()); return 0; }\n' >workloads/sub/src/main.c
echo 'int part(void) { return 1; }' >workloads/sub/src/deep/part.c
printf '[study]\nname = sub\nworkloads = sub\nrepeat = 1\n[axis opt]\nO2 = -O2\n' >sub.study
builds() { find "$FLAGSCOPE_CACHE/builds" -mindepth 1 -maxdepth 1 -type d | wc -l; }
built_n() { "$(find "$FLAGSCOPE_CACHE/builds" -mindepth 1 -maxdepth 1 -type d -newer "$1" | head -1)/out/sub"; }

fs run sub.study --db a.db -q >/dev/null 2>a.err || fail "first run: $(tail -2 a.err)"
[ "$(builds)" = 1 ] || fail "$(builds) builds after the first run"
fs run sub.study --db b.db -q >/dev/null 2>b.err || fail "untouched rerun: $(tail -2 b.err)"
[ "$(builds)" = 1 ] || fail "an untouched recipe was built again: $(builds) builds"
cp -a workloads workloads.orig
rm -rf workloads && cp -r workloads.orig workloads && touch -d '2001-01-01' workloads/sub/src/deep/part.c
fs run sub.study --db c.db -q >/dev/null 2>c.err || fail "rerun of a copy: $(tail -2 c.err)"
[ "$(builds)" = 1 ] || fail "a copy with new times was built again: $(builds) builds"

touch stamp
sleep 1
echo 'int part(void) { return 2; }' >workloads/sub/src/deep/part.c
fs run sub.study --db d.db -q >/dev/null 2>d.err || fail "rerun after the edit: $(tail -2 d.err)"
[ "$(builds)" = 2 ] || fail "an edit in src/deep/part.c did not rebuild: $(builds) builds"
[ "$(builds)" != 2 ] || [ "$(built_n stamp)" = "n 2" ] || fail "the new build prints $(built_n stamp)"
[ "$failures" = 0 ] && ok "an edit in a recipe's subfolder rebuilds; times alone do not"
finish_counted
