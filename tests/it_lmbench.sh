#!/bin/bash
# it_lmbench.sh - the lmbench recipe (workloads/lmbench), without lmbench's
# source (none can be fetched here):
#   1. `flagscope run --build-only` of a study of lmbench and crc32 with a
#      cache that does not hold the pinned commit: lmbench is a
#      per-workload BUILD_FAILED naming the git fetch, the study itself
#      runs (exit 0) and crc32 builds ok
#   2. `--source lmbench=local:FAKE`, FAKE a tiny tree made here with
#      lmbench's build interface (scripts/build run from src/ with CC,
#      CFLAGS, OS and MAKE in the environment and the programs as make
#      targets under ../bin/$OS; a bench.h that includes <rpc/rpc.h>) whose
#      lat_ops and par_ops print tests/fixtures/lmbench/*.stderr, lmbench's
#      output format, and whose lat_syscall and lat_proc print lines in
#      lmbench's micro() format: gcc -O2 and -O3 build ok (flags verified
#      in every unit), every run ok, and each parsed metric equals the
#      number on its fixture line (int64 div -> lat_ops/int64_div ...);
#      par_ops' missing "integer mul" line is an absent optional metric
#   3. the stored fact source.lmbench names the local tree
#   4. with musl-gcc installed, the same tree in a glibc/musl libc axis
#      (the musl-vs-glibc studies' lmbench): both build (musl-gcc finds
#      libtirpc's headers but not its library, which the programs do not
#      need) and every run is ok
# Expected: PASS in about 20 s.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" it_lmbench
cp -r "$FLAGSCOPE_SRC/workloads/lmbench" "$FLAGSCOPE_SRC/workloads/crc32" "$T/home/workloads/"
FIX=$FLAGSCOPE_SRC/tests/fixtures/lmbench
cat > lm.study <<'S'
; expect: lmbench BUILD_FAILED without its source (crc32 ok); with the fake
; local tree (--workloads lmbench) both builds and all runs ok
[study]
name = lm
workloads = lmbench crc32
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
O3 = -O3
S

# ---- 1. no network: a clean per-workload BUILD_FAILED ----
fs run lm.study --build-only --db nosrc.db -q > nosrc.out 2> nosrc.err ||
	fail "a study with an unfetchable lmbench did not run: $(tail -3 nosrc.err)"
python3 - <<'P' || fail "builds without the source, see above"
import sqlite3
rows = sqlite3.connect("nosrc.db").execute("select workload, status, detail from builds").fetchall()
got = sorted((w, s) for w, s, _ in rows)
assert got == [("crc32", "ok")] * 2 + [("lmbench", "build_failed")] * 2, got  # with network: fetched?
detail = [d for w, _, d in rows if w == "lmbench"][0]
assert "git" in detail, detail
print("ok 1 - no source: lmbench BUILD_FAILED per configuration (%s), crc32 built" % detail)
P

# ---- 2. a fake lmbench tree through --source lmbench=local:PATH ----
F=$T/fake-lmbench
mkdir -p "$F/scripts" "$F/src"
cat > "$F/scripts/build" <<'B'
#!/bin/sh
# fake scripts/build: lmbench's interface (CC, CFLAGS, LDLIBS, OS, MAKE from
# the environment; make targets in $*; programs under ../bin/$OS)
BINDIR=../bin/"${OS}"
mkdir -p "$BINDIR"
${MAKE} OS="${OS}" CC="${CC}" CFLAGS="${CFLAGS}" LDLIBS="${LDLIBS}" O="${BINDIR}" $*
B
cat > "$F/src/Makefile" <<'M'
AR=ar
COMPILE=$(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS)
$O/lmbench.a: lib_timing.c bench.h
	$(COMPILE) -c lib_timing.c -o $O/lib_timing.o
	$(AR) cr $O/lmbench.a $O/lib_timing.o
$O/%: %.c bench.h $O/lmbench.a
	$(COMPILE) -o $@ $< $O/lmbench.a $(LDLIBS)
M
cat > "$F/src/bench.h" <<'H'
/* fake bench.h: includes <rpc/rpc.h> like lmbench's */
#include <rpc/rpc.h>
#include <stdio.h>
#include <string.h>
void put(const char *text);
H
printf '#include "bench.h"\nvoid put(const char *text) { fputs(text, stderr); }\n' > "$F/src/lib_timing.c"
for p in lat_ops par_ops; do
	python3 - "$FIX/$p.stderr" > "$F/src/$p.c" <<'P'
import json, sys
text = open(sys.argv[1]).read()
print('#include "bench.h"\nint main(void) { put(%s); return 0; }' % json.dumps(text))
P
done
cat > "$F/src/lat_syscall.c" <<'C'
#include "bench.h"
static const char *const lines[][2] = {
	{ "null", "Simple syscall: 0.0412 microseconds\n" }, { "read", "Simple read: 0.0934 microseconds\n" },
	{ "write", "Simple write: 0.0781 microseconds\n" }, { "stat", "Simple stat: 0.3120 microseconds\n" },
	{ "fstat", "Simple fstat: 0.1150 microseconds\n" }, { "open", "Simple open/close: 0.7040 microseconds\n" },
};
int main(int argc, char **argv)
{
	for (unsigned i = 0; argc > 1 && i < sizeof lines / sizeof lines[0]; i++)
		if (!strcmp(argv[1], lines[i][0])) {
			put(lines[i][1]);
			return 0;
		}
	return 1;
}
C
cat > "$F/src/lat_proc.c" <<'C'
#include "bench.h"
int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "procedure"))
		put("Procedure call: 0.0021 microseconds\n");
	else if (argc == 2 && !strcmp(argv[1], "fork"))
		put("Process fork+exit: 61.5100 microseconds\n");
	else
		return 1;
	return 0;
}
C
printf '#include "bench.h"\nint main(void) { puts("Hello world"); return 0; }\n' > "$F/src/hello.c"

start=$(date +%s)
fs run lm.study --workloads lmbench --source "lmbench=local:$F" --db fake.db -q > fake.out 2> fake.err ||
	fail "flagscope run --source lmbench=local:$F: $(tail -5 fake.err)"
echo "flagscope run (2 builds of the fake tree, 2 x 10 runs): $(($(date +%s) - start)) s"
python3 - "$FIX" <<'P'
import re, sqlite3, sys
db = sqlite3.connect("fake.db")
builds = db.execute("select config_id, status, detail from builds where workload='lmbench'").fetchall()
assert len(builds) == 2 and all(s == "ok" for _, s, _ in builds), builds
runs = db.execute("select run, status, detail from runs where workload='lmbench' and rep >= 1").fetchall()
bad = [r for r in runs if r[1] != "ok"]
assert len(runs) == 20 and not bad, (len(runs), bad)
want = {}
for run in ("lat_ops", "par_ops"):
    for line in open("%s/%s.stderr" % (sys.argv[1], run)):
        m = re.match(r"^([a-z0-9]+ [a-z]+)(?: parallelism)?: ([0-9.]+)", line)
        if m:
            want[run, m.group(1).replace(" ", "_")] = float(m.group(2))
want["syscall_null", "latency"] = 0.0412
want["syscall_open", "latency"] = 0.7040
want["proc_fork", "latency"] = 61.51
got = {}
for cid, run, metric, value in db.execute("select config_id, run, metric, value from samples where rep >= 1"):
    got.setdefault((run, metric), set()).add(value)
for key, value in want.items():
    assert got.get(key) == {value}, (key, got.get(key), value)
assert ("par_ops", "integer_mul") not in got, got.get(("par_ops", "integer_mul"))
assert len([k for k in want if k[0] == "lat_ops"]) == 18 and len([k for k in want if k[0] == "par_ops"]) == 15
print("ok 2 - local fake tree: builds ok at -O2 and -O3, 20 runs ok, %d metrics equal to the fixture lines"
      " (lat_ops/int64_div = %s ns, par_ops/int64_div = %s)" % (len(want), want["lat_ops", "int64_div"],
      want["par_ops", "int64_div"]))
P
src=$(python3 -c 'import sqlite3
print(sqlite3.connect("fake.db").execute("select value from facts where key = ?", ("source.lmbench",)).fetchone()[0])')
grep -q "local:$F" <<< "$src" || fail "the source fact does not name the local tree: $src"
echo "ok 3 - the stored source fact: $src"

if command -v musl-gcc > /dev/null; then
	printf '[study]\nname = libc\nworkloads = lmbench\nrepeat = 1\nbaseline = glibc\n[axis libc]\nglibc =\nmusl =\n[axis opt]\nO2 = -O2\n' > libc.study
	fs run libc.study --source "lmbench=local:$F" --db libc.db -q > libc.out 2> libc.err ||
		fail "glibc/musl study of the fake tree: $(tail -5 libc.err)"
	python3 - <<'P' || fail "glibc/musl builds and runs, see above"
import sqlite3
db = sqlite3.connect("libc.db")
b = db.execute("select status, detail from builds").fetchall()
r = db.execute("select run, status, detail from runs where rep >= 1").fetchall()
assert len(b) == 2 and all(s == "ok" for s, _ in b), b
assert len(r) == 20 and all(s == "ok" for _, s, _ in r), [x for x in r if x[1] != "ok"]
P
	echo "ok 4 - glibc and musl builds of the local tree, 20 runs ok"
else
	echo "ok 4 # SKIP musl-gcc is not installed"
fi
echo PASS
rm -rf "$T"
