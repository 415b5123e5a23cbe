#!/bin/bash
# it_recommend_native.sh - recommend for a clang configuration built with
# -march=native: clang records the literal "-march=native" in its DWARF, so
# the pipeline stores, at build time, what the building machine's clang
# resolved it to (the fact native.ID: `clang -###`'s -target-cpu and
# -tune-cpu, and the features native differs in from that CPU), and
# recommend writes that.  Expected:
#   flagscope run of one clang configuration "-O2 -march=native
#     -mtune=native" on the tiny fixture: ok, and the fact native.ID is
#     "-march=CPU [FEATURES] -mtune=TUNE" with CPU and TUNE as `clang
#     -march=native -mtune=native -###` names them, and "-march=CPU
#     [FEATURES]" predefining exactly the macros -march=native does;
#   recommend: COMMON_FLAGS="-O2 " and the fact, and a note "is -march=CPU
#     ..., as the compiler resolved it on the machine that built them";
#   the fact changed to another CPU (a database from another machine):
#     recommend writes that one, not this machine's.
# Takes a few seconds.
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_recommend_native
command -v clang >/dev/null || { echo "SKIP: clang is not installed"; exit 77; }
out=$(clang -march=native -mtune=native -### -c -x c /dev/null -o /dev/null 2>&1 | tr -d '"' | tr ' ' '\n')
cpu=$(grep -A1 -x -- -target-cpu <<<"$out" | tail -n 1)
tune=$(grep -A1 -x -- -tune-cpu <<<"$out" | tail -n 1)
[ -n "$cpu" ] && [ -n "$tune" ] || { echo "SKIP: clang -### names no -target-cpu/-tune-cpu here"; exit 77; }

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
"-march=$cpu "*" -mtune=$tune" | "-march=$cpu -mtune=$tune") ;;
*) fail "fact '$fact', want -march=$cpu [features] -mtune=$tune" ;;
esac
arch=${fact% -mtune=*}
diff <(clang -march=native -dM -E -x c /dev/null | sort) <(clang $arch -dM -E -x c /dev/null | sort) >macros.diff ||
	fail "$arch is not -march=native here: $(cat macros.diff)"
ok "the build fact names clang's -target-cpu and -tune-cpu, with native's features: $fact"

fs recommend --db n.db >r1.conf 2>&1 || fail "recommend: $(cat r1.conf)"
grep -qxF "COMMON_FLAGS=\"-O2 $fact\"" r1.conf || fail "flags: $(cat r1.conf)"
grep -qF "# note: -march=native is $arch, as the compiler resolved it on the machine that built them" r1.conf ||
	fail "note: $(cat r1.conf)"
ok "recommend writes $fact"

# a database built elsewhere: its machine's CPU, not this one's
python3 -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE facts SET value=? WHERE key LIKE ?", ("-march=sapphirerapids -mtune=icelake-server", "native.%"))
db.commit()' n.db || fail "update the fact"
fs recommend --db n.db >r2.conf 2>&1 || fail "recommend: $(cat r2.conf)"
grep -qx 'COMMON_FLAGS="-O2 -march=sapphirerapids -mtune=icelake-server"' r2.conf ||
	fail "the building machine's CPU: $(cat r2.conf)"
ok "the building machine's CPU, not this one's"
echo PASS
rm -rf "$T"
