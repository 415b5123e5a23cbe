#!/bin/bash
# it_recommend_native.sh - recommend for a clang configuration built with
# -march=native: clang records the literal "-march=native" in its DWARF, so
# the pipeline stores, at build time, what the building machine's clang
# resolved it to (the fact native.ID, base/native_cpu.h: a CPU and the
# feature switches native differs in from it), and recommend writes that.
# It checks what must hold on any CPU, never a spelling.  Expected:
#   flagscope run of one clang configuration "-O2 -march=native
#     -mtune=native" on the tiny fixture: ok, and the fact native.ID is
#     "-march=CPU [SWITCHES] -mtune=TUNE", every word accepted by clang
#     (no warning), "-march=CPU [SWITCHES]" predefining exactly the macros
#     -march=native does;
#   recommend: COMMON_FLAGS="-O2 " and the fact, and a note "is -march=CPU
#     ..., as the compiler resolved it on the machine that built them";
#   the fact changed to another CPU (a database from another machine):
#     recommend writes that one, not this machine's.
# Takes a few seconds.
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_recommend_native
command -v clang >/dev/null || { echo "SKIP: clang is not installed"; exit 77; }

cat >native.study <<'S'
; expect: one clang configuration, ok; native.ID = what clang -### resolves
[study]
name = native
workloads = tiny
repeat = 1
baseline = clang native

[axis cc]
clang = clang

[axis opt]
native = -O2 -march=native -mtune=native
S
fs run native.study --db n.db -q >run.out 2>&1 || fail "run: $(tail -n 5 run.out)"
fact=$(sql n.db "SELECT value FROM facts WHERE key LIKE 'native.%'")
case "$fact" in
-march=*" -mtune="*) ;;
*) fail "fact '$fact', want -march=CPU [switches] -mtune=TUNE" ;;
esac
case "$fact" in *native*) fail "fact '$fact' still says native" ;; esac
arch=${fact% -mtune=*}
clang $fact -c -x c /dev/null -o /dev/null >accept.out 2>&1 && ! grep -q . accept.out ||
	fail "clang does not take $fact quietly: $(cat accept.out)"
diff <(clang -march=native -dM -E -x c /dev/null 2>&1 | sort) <(clang $arch -dM -E -x c /dev/null 2>&1 | sort) >macros.diff ||
	fail "$arch is not -march=native here: $(cat macros.diff)"
ok "the build fact is accepted and predefines what native does: $fact"
note=$(sql n.db "SELECT value FROM facts WHERE key LIKE 'native_note.%'")
[ -z "$note" ] || echo "the fallback, said: $note"

fs recommend --db n.db >r1.conf 2>&1 || fail "recommend: $(cat r1.conf)"
grep -qxF "COMMON_FLAGS=\"-O2 $fact\"" r1.conf || fail "flags: $(cat r1.conf)"
grep -qF "# note: -march=native is $arch, as the compiler resolved it on the machine that built them" r1.conf ||
	fail "note: $(cat r1.conf)"
[ -z "$note" ] || grep -qF "$note" r1.conf || fail "the fallback's note is not in: $(cat r1.conf)"
ok "recommend writes $fact"

# every format writes the explicit form, never the native word
for f in shell package.env dpkg-buildflags; do
	fs recommend --db n.db --format $f >r1.$f 2>&1 || fail "recommend --format $f: $(cat r1.$f)"
	grep -qF -- "$arch" r1.$f || fail "$f has no $arch: $(cat r1.$f)"
	! grep -v '^ *#' r1.$f | grep -q '=native' || fail "$f writes a native word: $(cat r1.$f)"
done
fs recommend --db n.db --format json >r1.json 2>&1 || fail "recommend --format json: $(cat r1.json)"
python3 -c 'import json, sys
r = json.load(open("r1.json"))
assert r["cflags"] == "-O2 " + sys.argv[1], r["cflags"]' "$fact" || fail "json: $(cat r1.json)"
ok "shell, package.env, dpkg-buildflags and json write $arch"

# search's make.conf: the baseline's -march=native made explicit likewise
cat >sp.space <<'S'
; one harmless flag: what is found does not matter here
[space]
flags = -funroll-loops
S
fs search native.study --space sp.space --strategy random --budget 2 --metric size \
	--db s.db -o search.conf -q >search.out 2>&1 || fail "search: $(tail -n 5 search.out)"
grep -q '^COMMON_FLAGS=".*-march=' search.conf && ! grep -q '^COMMON_FLAGS=.*=native' search.conf ||
	fail "search's make.conf: $(cat search.conf)"
mc=$(sed -n 's/^COMMON_FLAGS="\(.*\)"$/\1/p' search.conf | tr ' ' '\n' | grep -- '^-m' | tr '\n' ' ')
diff <(clang -march=native -mtune=native -dM -E -x c /dev/null 2>&1 | sort) \
	<(clang $mc -dM -E -x c /dev/null 2>&1 | sort) >search.diff ||
	fail "search's COMMON_FLAGS is not native here: $(cat search.diff)"
ok "search's make.conf: $mc"

# a database built elsewhere, on a CPU clang could not name: its
# machine's answer and its fallback note, not this one's
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE facts SET value=? WHERE key LIKE ?", ("-march=x86-64 -mavx2 -mtune=generic", "native.%"))
db.execute("DELETE FROM facts WHERE key LIKE ?", ("native_note.%",))
db.execute("INSERT INTO facts(study, key, value) SELECT study, replace(key, \"native.\", \"native_note.\"), ? FROM facts WHERE key LIKE ?",
           ("-march=native: clang 14 does not name this CPU (elsewhere)", "native.%"))
db.commit()' n.db || fail "update the fact"
fs recommend --db n.db >r2.conf 2>&1 || fail "recommend: $(cat r2.conf)"
grep -qx 'COMMON_FLAGS="-O2 -march=x86-64 -mavx2 -mtune=generic"' r2.conf ||
	fail "the building machine's CPU: $(cat r2.conf)"
grep -q '^# note: .*-march=native: clang 14 does not name this CPU (elsewhere)' r2.conf ||
	fail "the building machine's fallback note: $(cat r2.conf)"
ok "the building machine's answer and its fallback note, not this one's"
echo PASS
rm -rf "$T"
