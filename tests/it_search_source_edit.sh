#!/bin/bash
# it_search_source_edit.sh - issue 26 "source changes that do not
# rebuild: the search cache keyed by the source's text, not its content".
# A search's stored evaluations are reused only for the same context
# (search/evalcache.h), which names each workload's recipe hash and source
# content id.  Expected, for flagbug built from a local: tree: a rerun of
# the same search measures nothing (3 evaluations from the cache); after
# the tree's file is touched (new times, same bytes) still nothing; after
# its content changes (the study and recipe text unchanged) every
# evaluation is measured again.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_search_source_edit
count_failures

mkdir -p tree home/workloads/fb
cp "$FLAGSCOPE_SRC/tests/fixtures/workloads/flagbug/flagbug.c" tree/
cat > home/workloads/fb/recipe.ini <<R
; fb: flagbug from a local: tree (it_search_source_edit); expect ok
[workload]
description = flagbug from a local tree
source = local:$T/tree
[build]
script = \$CC \$CFLAGS -o flagbug "\$SRC/flagbug.c" \$LDFLAGS
binaries = flagbug
[run]
args = flagbug 200000
timeout = 20
R
printf '; expect: ok, a size search of two flags\n[study]\nname = fb\nworkloads = fb\nrepeat = 1\nbaseline = O2\n[axis opt]\nO2 = -O2\n' > fb.study
printf '[space]\nflags = -funroll-loops -fno-tree-vrp\n' > fb.space
search() { # NAME: the search's JSON in NAME.json; prints "evals measured"
	fs search fb.study --space fb.space --strategy ce --budget 3 --metric size --no-minimise \
		--confirm-repeat 0 --db s.db --format json -q > "$1.json" 2> "$1.err" ||
		fail "search $1: $(tail -2 "$1.err")"
	python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["evals"], r["measured"])' "$1.json"
}
got=$(search first)
[ "$got" = "3 3" ] || fail "first search: evals, measured $got (3 3 wanted)"
got=$(search again)
[ "$got" = "3 0" ] || fail "an unchanged rerun measured again: $got (3 0 wanted)"
touch -d '2001-01-01' tree/flagbug.c
got=$(search touched)
[ "$got" = "3 0" ] || fail "new times alone measured again: $got (3 0 wanted)"
echo '/* edited: the same program, other bytes */' >> tree/flagbug.c
got=$(search edited)
[ "$got" = "3 3" ] || fail "after the source's content changed the search reused its cache: $got (3 3 wanted)"
ok "the search cache follows the source's content: an edit measures again, new times do not"
finish_counted
