#!/bin/bash
# it_libcbench_upstream.sh - the upstream libc-bench recipe
# (workloads/libc-bench) and its output parser.
#   - its [run] names are exactly the bundled libcbench's, in the same order
#     (the same metric names: libc-bench/NAME/time beside libcbench/NAME/time);
#   - parse.sh on the recorded output (tests/fixtures/libc-bench/output.txt,
#     libc-bench's format; see its README.md) gives every run's four figures,
#     the values below exactly, and refuses an unknown name, a benchmark
#     that printed its label but no figures (its process crashed) and one
#     that is missing;
#   - through flagscope, with `--source libc-bench=local:TREE` where TREE's
#     only source prints the recorded output: the build is ok and every run
#     is ok with time, heap_virt, heap_res and heap_dirty stored as recorded;
#   - without a source (the pinned git commit cannot be fetched offline):
#     libc-bench is BUILD_FAILED, naming git, and the study still runs.
# Expected: PASS.
set -u
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_libcbench_upstream
R=$FLAGSCOPE_SRC/workloads/libc-bench
FIX=$FLAGSCOPE_SRC/tests/fixtures/libc-bench/output.txt
count_failures
runs() { sed -n 's/^\[run \([^]]*\)\]$/\1/p' "$1"; }

# ---- the names ----
runs "$R/recipe.ini" >upstream.names
runs "$FLAGSCOPE_SRC/workloads/libcbench/recipe.ini" >bundled.names
if cmp -s upstream.names bundled.names; then
	ok "the $(wc -l <upstream.names) run names are the bundled libcbench's"
else
	fail "run names differ from libcbench's: $(diff bundled.names upstream.names | head -5)"
fi

# ---- the parser on the recorded output ----
while read -r name; do
	if ! sh "$R/parse.sh" "$name" <"$FIX" >"p.$name.out" 2>"p.$name.err"; then
		fail "parse.sh $name: $(cat "p.$name.err")"
	elif [ "$(cat "p.$name.out")" != "$name ok" ] || [ "$(wc -l <"p.$name.err")" != 4 ] ||
		! grep -Eq '^time: [0-9]+\.[0-9]{9}$' "p.$name.err"; then
		fail "parse.sh $name: stdout '$(cat "p.$name.out")', stderr '$(cat "p.$name.err")'"
	fi
done <upstream.names
# name time virt res dirty, as recorded
while read -r name t v r d; do
	want=$(printf 'time: %s\nheap_virt: %s\nheap_res: %s\nheap_dirty: %s' "$t" "$v" "$r" "$d")
	[ "$(cat "p.$name.err" 2>/dev/null)" = "$want" ] || fail "parse.sh $name: '$(cat "p.$name.err")', want '$want'"
done <<'EOF_WANT'
malloc_sparse 0.031981032 352 300 300
malloc_big1 0.011444120 132 88 88
malloc_big2 0.010342518 80208 8120 8120
string_strstr_a25c 0.002866459 132 80 80
string_strstr_a32c 0.007131002 464 412 412
pthread_createjoin_minimal2 0.172969410 132 20 20
regex_compile 0.002619874 136 20 20
regex_search_abcdb 0.001122093 400 352 352
regex_search_a25b 0.035993118 400 356 356
EOF_WANT
[ $failures = 0 ] && ok "parse.sh reads every benchmark's figures from the recorded output"

sh "$R/parse.sh" nosuch <"$FIX" >/dev/null 2>err.txt && fail "an unknown name is parsed"
grep -q "no libc-bench benchmark is called 'nosuch'" err.txt || fail "unknown name: $(cat err.txt)"
# malloc_big1's process died: its label, no figures
sed '/^b_malloc_big1 (0)$/{n;d}' "$FIX" >crashed.txt
sh "$R/parse.sh" malloc_big1 <crashed.txt >/dev/null 2>err.txt && fail "a crashed benchmark is parsed"
grep -q "printed no figures" err.txt || fail "crashed: $(cat err.txt)"
sh "$R/parse.sh" malloc_big2 <crashed.txt >/dev/null 2>&1 || fail "the next benchmark after a crash is lost"
grep -v 'a{25}b' "$FIX" >missing.txt
sh "$R/parse.sh" regex_search_a25b <missing.txt >/dev/null 2>err.txt && fail "a missing benchmark is parsed"
grep -q "did not run it" err.txt || fail "missing: $(cat err.txt)"

# ---- through flagscope, from a local tree that prints the recording ----
mkdir -p tree
python3 - "$FIX" tree/main.c <<'PY'
import json, sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write('#include <stdio.h>\nint main(void)\n{\n\tfputs(%s, stdout);\n\treturn 0;\n}\n'
                             % json.dumps(text))
PY
cat >up.study <<'S'
; expect: libc-bench ok on every run, the recorded figures stored
[study]
name = up
workloads = libc-bench
repeat = 1
meters = rusage
baseline = gcc O2
[axis cc]
gcc = gcc
[axis opt]
O2 = -O2
S
if ! "$FLAGSCOPE_BIN" run up.study --db up.db --source "libc-bench=local:$T/tree" -q >up.out 2>up.err; then
	fail "flagscope run with a local tree: $(tail -5 up.err)"
else
	python3 - up.db "$FIX" upstream.names <<'PY' || fail "stored figures"
import re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
names = open(sys.argv[3]).read().split()
status = dict(db.execute("select run, status from runs where study='up' and rep>=1"))
bad = [n for n in names if status.get(n) != "ok"]
assert not bad, ("runs not ok", [(n, status.get(n)) for n in bad])
def got(run, metric):
    return db.execute("select value from samples where study='up' and run=? and metric=? and rep>=1",
                      (run, metric)).fetchone()[0]
assert abs(got("malloc_big1", "time") - 0.011444120) < 1e-9
assert [got("malloc_big1", m) for m in ("heap_virt", "heap_res", "heap_dirty")] == [132, 88, 88]
assert abs(got("regex_search_a25b", "time") - 0.035993118) < 1e-9
assert got("string_strstr_a32c", "heap_res") == 412
PY
	[ $? = 0 ] && ok "flagscope stores libc-bench/NAME/time and heap_* from the local tree's output"
fi

# ---- without a source ----
if ! "$FLAGSCOPE_BIN" run up.study --build-only --db nosrc.db -q >nosrc.out 2>nosrc.err; then
	fail "a study with an unfetchable libc-bench did not run: $(tail -3 nosrc.err)"
else
	got=$(python3 -c 'import sqlite3, sys
for s, d in sqlite3.connect(sys.argv[1]).execute("select status, detail from builds where workload=?", ("libc-bench",)): print(s, d)' nosrc.db)
	case $got in
	build_failed*git*) ok "no source: libc-bench BUILD_FAILED ($(head -c 120 <<<"$got"))" ;;
	*) fail "no source: '$got', want build_failed naming git (with network the pinned commit may have been fetched)" ;;
	esac
fi

[ $failures = 0 ] || exit 1
echo "PASS: it_libcbench_upstream"
