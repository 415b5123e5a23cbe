#!/bin/bash
# it_recommend_dwarf.sh - recommend for a gcc configuration built with
# -march=native, from a database without the build-time fact native.ID (a
# database of an older flagscope, or one whose fact was lost): the CPU
# comes from the DWARF producer GCC wrote, "-march=CPU -mmmx ... -mno-...",
# and the features in which native differs from -march=CPU must come with
# it (only "-march=CPU" was written: on this VM native is a CPU with
# features added and removed, so the recommendation was other code than
# the one measured).  Expected:
#   flagscope run of "gcc -O2 -march=native" on the tiny fixture: ok, its
#     build's DWARF switches start with -march=CPU;
#   the fact deleted, recommend: COMMON_FLAGS="-O2 -march=CPU [FEATURES]"
#     predefining exactly the macros gcc -march=native does, and the note
#     "as GCC recorded it in the measured builds".
# Takes a few seconds.
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_recommend_dwarf
command -v gcc >/dev/null || { echo "SKIP: gcc is not installed"; exit 77; }

cat >native.study <<'S'
; expect: one gcc configuration, ok; its DWARF records the CPU and features
[study]
name = native
workloads = tiny
repeat = 1
baseline = gcc native

[axis cc]
gcc = gcc

[axis opt]
native = -O2 -march=native
S
fs run native.study --db n.db -q >run.out 2>&1 || fail "run: $(tail -n 5 run.out)"
sw=$(sql n.db "SELECT json_extract(u.value, '\$.switches') FROM builds b, json_each(b.facts) e,
	json_each(e.value, '\$.units') u WHERE instr(json_extract(u.value, '\$.switches'), '-march=') > 0" | head -n 1)
case "$sw" in
-march=*) ;;
*) echo "SKIP: the build's DWARF recorded no -march= (switches '$sw')"; exit 77 ;;
esac
cpu=${sw%% *}
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1]); db.execute("DELETE FROM facts WHERE key LIKE ?", ("native.%",)); db.commit()' n.db ||
	fail "delete the fact"

fs recommend --db n.db >r.conf 2>&1 || fail "recommend: $(cat r.conf)"
flags=$(sed -n 's/^COMMON_FLAGS="-O2 \(-march=.*\)"$/\1/p' r.conf)
case "$flags" in
"$cpu" | "$cpu "*) ;;
*) fail "COMMON_FLAGS should be -O2 $cpu [features]: $(grep COMMON_FLAGS r.conf)" ;;
esac
grep -qF "# note: -march=native is $flags, as GCC recorded it in the measured builds" r.conf ||
	fail "note: $(grep note r.conf)"
diff <(gcc -march=native -dM -E -x c /dev/null | sort) <(gcc $flags -dM -E -x c /dev/null | sort) >macros.diff ||
	fail "$flags is not -march=native here: $(tr '\n' ' ' <macros.diff)"
if diff -q <(gcc -march=native -dM -E -x c /dev/null | sort) <(gcc $cpu -dM -E -x c /dev/null | sort) >/dev/null; then
	echo "note: here -march=native is exactly $cpu (the features are not put to the test)"
else
	echo "note: here $cpu alone is not -march=native; the features make it so"
fi
ok "recommend writes $flags"
echo PASS
rm -rf "$T"
