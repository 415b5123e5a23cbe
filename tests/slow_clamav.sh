#!/bin/bash
# slow_clamav.sh - the clamav workload through `flagscope run` under one
# configuration (gcc -O2, one repetition): Debian's ClamAV 1.4.3 source
# fetched into a fresh cache, clamscan built by the recipe (about 6 minutes
# of C and Rust on 2 cores), the generated tree scanned with the generated
# signatures.  Expected: PASS, with
#   - the build ok: flags verified on every C unit of clamscan (flagscope
#     verify --expect -O2 agrees), libclamav linked in statically (no
#     libclamav.so needed), the cached source untouched
#   - the run ok: its stdout is detections.expected (the runner checks
#     `expect =`), a "time" sample stored
#   - the generator's own list of what it planted (expected.txt in the
#     input folder) is detections.expected: 60 detections, 36 body and 24
#     hash signatures, 3 of them archive members; no decoy and no near miss
#     detected
# Prints the build and scan times, and what verify says about the Rust
# units.  SKIP when the Debian source cannot be fetched (no deb-src entries:
# scripts/deb-src.sh; no network; the pinned version gone from the archive).
set -u
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
T=$FLAGSCOPE_TEST_TMP/slow_clamav
rm -rf "$T"
mkdir -p "$T"
cd "$T" || exit 1
export FLAGSCOPE_CACHE=$T/cache
recipe=$FLAGSCOPE_SRC/workloads/clamav
expected=$recipe/detections.expected
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}
ok() { echo "ok: $*"; }
q() { python3 -c 'import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print("|".join(map(str, row)))' clamav.db "$1"; }

spec=$(sed -n 's/^source = //p' "$recipe/recipe.ini")
fetch=$(dirname "$FLAGSCOPE_BIN")/tests/test_fetch
if ! out=$("$fetch" fetch "$spec" "$recipe" 2>&1); then
	echo "SKIP: cannot fetch $spec: $(tail -1 <<<"$out")"
	exit 77
fi
src=$(sed -n 1p <<<"$out")
ok "$spec fetched into $src"
touch marker
sleep 1

cat >clamav.study <<'EOF'
[study]
name = clamav
workloads = clamav
repeat = 1
baseline = gcc O2
[axis cc]
gcc = gcc
[axis opt]
O2 = -O2
EOF
start=$(date +%s)
if ! "$FLAGSCOPE_BIN" run clamav.study --db clamav.db -q >run.out 2>run.err; then
	fail "flagscope run: $(tail -5 run.err)"
fi
echo "flagscope run: $(($(date +%s) - start)) s (input, build, warm-up and one measured scan)"

IFS='|' read -r status seconds key detail < <(q "select status, seconds, key, detail from builds")
if [ "${status:-}" != ok ]; then
	fail "build: ${status:-none} ${detail:-}"
else
	ok "build ok, flags verified (${seconds%.*} s)"
	bin=$FLAGSCOPE_CACHE/builds/$key/out/clamscan/clamscan
	if "$FLAGSCOPE_BIN" verify --expect -O2 "$bin" >verify.txt 2>&1; then
		ok "flagscope verify --expect -O2 clamscan: exit 0"
	else
		fail "flagscope verify --expect -O2 clamscan: $(head -20 verify.txt)"
	fi
	"$FLAGSCOPE_BIN" verify --format json "$bin" >verify.json 2>/dev/null
	python3 - verify.json <<'P'
import json, sys
from collections import Counter
d = json.load(open(sys.argv[1]))
files = d if isinstance(d, list) else d.get("files", [d])
for f in files:
    units = f.get("units", [])
    kinds = Counter()
    for u in units:
        prod = u.get("producer") or "?"
        who = "rustc" if "rustc" in prod else prod
        kinds["%s, %s" % (who, "switches recorded" if u.get("switches") else "no switches recorded")] += 1
    for k, n in sorted(kinds.items()):
        print("  verify: %d units: %s" % (n, k))
P
	if readelf -d "$bin" | grep -q 'NEEDED.*libclamav'; then
		fail "clamscan needs a shared libclamav (the static library was not used)"
	else
		ok "libclamav is linked in statically ($(readelf -d "$bin" | grep -c NEEDED) shared libraries needed: $(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | tr '\n' ' '))"
	fi
fi

IFS='|' read -r rstatus rdetail < <(q "select status, detail from runs where rep >= 1")
if [ "${rstatus:-}" = ok ]; then
	ok "scan ok: stdout equals detections.expected ($(wc -l <"$expected") detections)"
else
	fail "scan: ${rstatus:-none} ${rdetail:-}"
fi
t=$(q "select value from samples where metric = 'time' and rep >= 1")
[ -n "$t" ] && ok "scan time ${t} s" || fail "no time sample stored"

gen=$(ls "$FLAGSCOPE_CACHE"/inputs/*/expected.txt 2>/dev/null | head -1)
if [ -z "$gen" ]; then
	fail "the input folder has no expected.txt (did the input script run?)"
elif ! cmp -s "$gen" "$expected"; then
	fail "the generator's planted list differs from detections.expected: $(diff "$gen" "$expected" | head -5)"
else
	body=$(grep -c 'Flagscope\.Planted\.' "$expected")
	hash=$(grep -c 'Flagscope\.Hash\.File' "$expected")
	arch=$(grep -c '^tree/archives/' "$expected")
	bad=$(grep -c 'Decoy\|Near' "$expected")
	if [ "$body" = 36 ] && [ "$hash" = 24 ] && [ "$arch" = 3 ] && [ "$bad" = 0 ]; then
		ok "generator's list = detections.expected: $body body, $hash hash, $arch in archives, no decoys or near misses"
	else
		fail "detections.expected: $body body, $hash hash, $arch archives, $bad decoys/near misses (want 36 24 3 0)"
	fi
fi

changed=$(find "$src" -newer marker | head -5)
[ -z "$changed" ] && ok "cached source untouched" || fail "the build wrote into the cached source: $changed"

if [ $failures = 0 ]; then
	echo PASS
	rm -rf "$T"
	exit 0
fi
echo "FAIL: $failures check(s); files kept in $T"
exit 1
