#!/bin/bash
# slow_python3.sh - the python3 workload (CPython 3.11 from Debian's
# python3.11 source) through the whole pipeline (`flagscope run`, one
# repetition, rusage only), two configurations:
#   O2 dynamic  gcc -O2                                  (the baseline)
#   v3 static   gcc -O3 -march=x86-64-v3, -static
# Expected: PASS, with
#   - both builds ok (flags verified in every compile unit; the v3 python
#     static, the O2 one dynamic) and both runs ok: bench.py's seven result
#     lines are the recipe's bench.expected (so the baseline's too), each
#     part's CPU seconds stored as a metric (nbody, tasks, tree, json,
#     regex, text, unicode)
#   - `flagscope verify --expect FLAGS` on each python: as expected, and
#     the units of the interpreter (Programs/python.c) and of libpython (every
#     member of libpython3.11.a that defines a symbol, with the built-in
#     math and _json modules) are in it, each with the configuration's -O
#     and no other (CPython's own -O3 is dropped: build.sh sets OPT)
#   - nothing written into the cached source (no __pycache__ either: the
#     build's interpreters run with -B, the runs read pycache/ of the build)
#   - bench.py refuses a bad scale (exit 2, usage line)
# The recipe's own run (bench.py 16, 3.4 s of CPU: small beside the builds).
# SKIP when the Debian source cannot be fetched (no deb-src
# entries: scripts/deb-src.sh; no network; the pinned version gone).
# Without AVX2 the second configuration is gcc -O2 -static (a SKIP line).
# Measured: 328-407 s wall (288-364 s user, 49-58 s sys) at a load of 2-4 on the
# 2 cores, 523 s at a load of 7-9: the two builds, side by side, are most.
set -u
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch slow_python3
count_failures

spec=$(sed -n 's/^source = //p' "$FLAGSCOPE_SRC/workloads/python3/recipe.ini")
if ! out=$("$(dirname "$FLAGSCOPE_BIN")/tests/test_fetch" fetch "$spec" "$FLAGSCOPE_SRC/workloads/python3" 2>&1); then
	echo "SKIP: cannot fetch $spec: $(tail -1 <<<"$out")"
	exit 77
fi
src=$(sed -n 1p <<<"$out")
touch marker
sleep 1

second_config
pair_study py3.study py3 python3 "$second"
run_study_or_skip py3 --meters rusage -j 2
pair_ok py3 "$second" 2 || fail "the study's builds, runs or ranking (above)"

for part in nbody tasks tree json regex text unicode; do
	n=$(sql py3.db "select count(*) from samples where metric = '$part' and rep >= 1")
	[ "$n" = 2 ] || fail "metric $part: $n measured samples (want one per configuration)"
done

# unit_check JSON WANT LIBPYTHON: every unit of CPython's source tree in
# verify's JSON has WANT as its only -O level; Programs/python.c, the
# built-in modules' units and one unit per symbol-defining member of
# LIBPYTHON are there
unit_check() {
	nm -A --defined-only "$3" 2>/dev/null | sed -n 's|^[^:]*:\([^:]*\)\.o:.*|\1|p' | sort -u >members.txt
	python3 - "$1" "$2" members.txt "$src" <<'P'
import json, sys
f = json.load(open(sys.argv[1]))[0]
want, members, src = sys.argv[2], open(sys.argv[3]).read().split(), sys.argv[4].rstrip("/")
# CPython's units: named by their path in the source, or relative to the
# build tree (Modules/config.c, Python/deepfreeze/deepfreeze.c)
ours = [u for u in f["units"] if u.get("producer") and (u["name"].startswith(src + "/") or not u["name"].startswith("/"))]
bad = [(u["name"], u.get("switches")) for u in ours
       if {w for w in (u.get("switches") or "").split() if w.startswith("-O")} != {want}]
if bad:
    sys.exit(f"units whose -O levels are not just {want}: {len(bad)}, e.g. {bad[:2]}")
stems = {u["name"].rsplit("/", 1)[-1].rsplit(".", 1)[0] for u in ours}
missing = [m for m in members + ["python", "mathmodule", "_json"] if m not in stems]
if len(members) < 100 or missing:
    sys.exit(f"{len(members)} libpython members; not among the units: {missing[:5]}")
print(f"{len(ours)} units of CPython, all at {want} only, libpython's {len(members)} members among them; static={f['static']}")
P
}

while IFS='|' read -r key label; do
	out=$FLAGSCOPE_CACHE/builds/$key/out
	case $label in
	"v3 static") expect="-O3 -march=x86-64-v3"; link=--static; want=-O3 ;;
	"O2 static") expect=-O2; link=--static; want=-O2 ;;
	*) expect=-O2; link=--dynamic; want=-O2 ;;
	esac
	if fs verify "$out/python" --expect "$expect" $link --format json >"verify-$key.json" 2>&1; then
		ok "$label: verify --expect '$expect' $link"
		if got=$(unit_check "verify-$key.json" "$want" "$out/libpython3.11.a" 2>&1); then
			ok "$label: $got"
		else
			fail "$label: $got"
		fi
	else
		fail "$label: verify --expect '$expect' $link: $(head -c 600 "verify-$key.json")"
	fi
done < <(sql py3.db "select b.key, c.label from builds b join configs c on c.id = b.config_id and c.study = b.study")

# bench.py itself, on the baseline's python: seven lines, a refused scale
key=$(sql py3.db "select b.key from builds b join configs c on c.id = b.config_id and c.study = b.study where c.label = 'O2 dynamic'")
py=$FLAGSCOPE_CACHE/builds/$key/out
if [ -n "$key" ]; then
	"$py/python" -I -X pycache_prefix="$py/pycache" "$py/bench.py" 1 >bench1.out 2>bench1.err ||
		fail "bench.py 1: $(tail -2 bench1.err)"
	parts=$(cut -d' ' -f1 bench1.out | tr '\n' ' ')
	[ "$parts" = "nbody tasks tree json regex text unicode " ] && grep -q '^total [0-9.]* s$' bench1.err &&
		ok "bench.py 1: a line per part on stdout, the times on stderr" ||
		fail "bench.py 1: parts '$parts', stderr $(tail -1 bench1.err)"
	rc=0
	"$py/python" -I -X pycache_prefix="$py/pycache" "$py/bench.py" 0 >/dev/null 2>bad.err || rc=$?
	[ $rc = 2 ] && grep -q '^usage: bench.py SCALE' bad.err && ok "bench.py 0: exit 2 with the usage" ||
		fail "bench.py 0: exit $rc, $(head -1 bad.err)"
fi

changed=$(find "$src" -newer marker | head -3)
caches=$(find "$src" -name __pycache__ | head -3)
[ -z "$changed$caches" ] && ok "the cached source untouched, no __pycache__ in it" ||
	fail "written into the cached source: $changed $caches"
finish_counted
