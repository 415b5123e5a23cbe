#!/bin/bash
# it_libc.sh - the libc x link axes end to end: libcbench (five of its runs:
# malloc_big1, malloc_big2, string_strchr, pthread_create_serial1,
# stdio_putcgetc) built and run through
# `flagscope run` under glibc, musl and dietlibc, static and dynamic, with
# the memory meter.  Expected: PASS, with
#   - every combination builds (the per-binary libc check is part of the
#     build) except dynamic dietlibc, which is UNSUPPORTED with its reason
#     (Debian's dietlibc-dev has no shared library), in the store and in
#     the report;
#   - the ELF facts, read again here with binutils' readelf and nm: static
#     binaries have no PT_INTERP and no DT_NEEDED; dynamic glibc's
#     interpreter is ld-linux-x86-64 and it needs libc.so.6, dynamic musl's
#     is /lib/ld-musl-x86_64.so.1; each static binary has its libc's own
#     symbol (__libc_setup_tls, __init_libc, dietlibc's link guard);
#   - `report --pivot libc` prints one block per link level, each with the
#     published tables' shape: time per libc with the performance ratio
#     (glibc/LEVEL - 1) beside each non-glibc libc, then the VSZ, RSS and
#     dirty tables in the same form, a row per run in each; its JSON medians equal the medians of
#     the stored samples, and its percentages and memory ratios equal
#     glibc/LEVEL (and glibc/LEVEL - 1) recomputed from them; musl uses less resident memory than
#     glibc in every run but malloc_big1/2 (what the published comparison
#     found; there the peak VmHWM counts the header pages musl's allocator
#     writes into each live block, 2 per block against glibc's 1);
#   - every run stores libc-bench's own memory figures heap_virt, heap_res
#     and heap_dirty;
#   - malloc_big1 and malloc_big2 have libc-bench's live set: 2000 blocks
#     of 16-64 KiB (78 MiB) allocated at once and never written, so in every
#     configuration mem.virt >= 80000 KiB (the blocks' sum) and
#     0.9 * 2000 * 4 KiB <= mem.res <= 40000 KiB: at least one touched page
#     (the allocator's header) per live block, far below the blocks' sum.
#     A version that keeps one block at a time (the old malloc_big1) has
#     mem.res of a few MiB and fails the lower bound; one that writes its
#     blocks fails the upper one;
#   - CSV has the columns; an unknown axis and --format html are refused;
#     with the study file gone, opt pivots from the levels the database
#     recorded; without those too, libc still pivots and opt does not.
# SKIP when musl-gcc is not installed (scripts/packages.txt lists
# musl-tools; dietlibc is checked when `diet` is installed).
set -u
. "$FLAGSCOPE_SRC/tests/lib_builds.sh"
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_libc
command -v musl-gcc >/dev/null || { echo "SKIP: musl-gcc is not installed (apt-get install musl-tools)"; exit 77; }
have_diet=0
command -v diet >/dev/null && have_diet=1

runs="malloc_big1 malloc_big2 string_strchr pthread_create_serial1 stdio_putcgetc"
libcbench_runs "$runs"

libcs="glibc musl"
[ $have_diet = 1 ] && libcs="$libcs dietlibc"
# dietlibc's threads crash outright on some machines (seen on a kernel 6.18
# VM with AVX-512: a program that creates one thread and exits segfaults in
# kill_all_threads); there its pthread runs must be recorded as crashed,
# which is what flagscope should do with a workload that crashes
diet_threads=ok
if [ $have_diet = 1 ]; then
	printf '#include <pthread.h>\nstatic void *f(void *a) { return a; }\nint main(void) {\n  for (int i = 0; i < 100; i++) { pthread_t t; if (pthread_create(&t, 0, f, 0) || pthread_join(t, 0)) return 1; }\n  return 0;\n}\n' > dthreads.c
	diet gcc -O2 -o dthreads dthreads.c -lpthread 2>/dev/null || fail "diet gcc: a threaded program does not build"
	for i in 1 2 3; do ./dthreads > /dev/null 2>&1 || diet_threads=crashes; done
	[ $diet_threads = ok ] || echo "NOTE: dietlibc's threads crash on this machine ($(uname -r)); its pthread runs must be recorded as crashed"
fi
{
	printf '; it_libc: libcbench (5 runs) under every libc and linkage;\n'
	printf '; expect every combination ok but dietlibc dynamic (unsupported)\n'
	printf '[study]\nname = it-libc\nworkloads = libcbench\nrepeat = 2\n'
	printf 'meters = rusage memory\nbaseline = glibc dynamic\n[axis libc]\n'
	for l in $libcs; do printf '%s =\n' "$l"; done
	printf '[axis link]\ndynamic =\nstatic =\n[axis opt]\nO2 = -O2\n'
} > libc.study
fs run libc.study --db libc.db -q > run.out 2>&1 || fail "run: $(tail -5 run.out)"

# label -> build status, detail, binary (one line each)
study_builds libc.db it-libc > builds.txt || fail "read builds"
n=$(wc -l < builds.txt)
[ "$n" = $(($(echo $libcs | wc -w) * 2)) ] || fail "one build per combination: $(cat builds.txt)"

while IFS=$'\t' read -r label status detail bin; do
	case $label in
	dietlibc_dynamic_O2)
		if ls /usr/lib/diet/lib-*/libc.so >/dev/null 2>&1; then
			[ "$status" = ok ] || fail "$label: $status $detail"
		else
			[ "$status" = unsupported ] || fail "$label: $status, not unsupported"
			case $detail in *"dietlibc has no shared library"*) ;; *) fail "$label reason: $detail" ;; esac
		fi
		continue ;;
	esac
	[ "$status" = ok ] || { fail "$label: $status: $detail"; continue; }
	[ -f "$bin" ] || { fail "$label: no binary $bin"; continue; }
	interp=$(readelf -lW "$bin" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	needed=$(readelf -dW "$bin" | grep -c '(NEEDED)')
	case $label in
	*_static_*)
		[ -z "$interp" ] && [ "$needed" = 0 ] || fail "$label: static but interp '$interp', $needed NEEDED"
		fs verify "$bin" --static > /dev/null || fail "$label: flagscope verify --static" ;;
	glibc_dynamic_*)
		[ "$interp" = /lib64/ld-linux-x86-64.so.2 ] || fail "$label: interpreter $interp"
		out_has 'Shared library: \[libc.so.6\]' readelf -dW "$bin" || fail "$label: no libc.so.6" ;;
	musl_dynamic_*)
		[ "$interp" = /lib/ld-musl-x86_64.so.1 ] || fail "$label: interpreter $interp" ;;
	esac
	case $label in
	glibc_static_*) sym=__libc_setup_tls ;;
	musl_static_*) sym=__init_libc ;;
	dietlibc_static_*) sym=__you_tried_to_link_a_dietlibc_object_against_glibc ;;
	*) sym= ;;
	esac
	if [ -n "$sym" ]; then
		out_has " $sym\$" nm "$bin" || fail "$label: no $sym: not linked against its libc"
		[ "$sym" = __libc_setup_tls ] || ! out_has ' __libc_setup_tls$' nm "$bin" ||
			fail "$label: has glibc's __libc_setup_tls"
	fi
	echo "ok: $label ${interp:-static} $sym"
done < builds.txt

fs report --db libc.db > report.txt || fail "report"
if [ $have_diet = 1 ] && ! ls /usr/lib/diet/lib-*/libc.so >/dev/null 2>&1; then
	grep -q "dietlibc dynamic O2 .*unsupported" report.txt && grep -q "dietlibc has no shared library" report.txt ||
		fail "report does not show dietlibc dynamic unsupported with its reason"
fi

# the pivot as a table
fs report --db libc.db --pivot libc > pivot.txt || fail "report --pivot libc"
grep -q '^\[link=dynamic opt=O2\]' pivot.txt && grep -q '^\[link=static opt=O2\]' pivot.txt ||
	fail "pivot blocks: $(cat pivot.txt)"
for l in $libcs; do grep -q "^time (s) .* $l " pivot.txt || fail "pivot has no column $l"; done
for t in "^time (s) " "^VSZ: virt (KiB) " "^RSS: res (KiB) " "^dirty (KiB) "; do
	[ "$(grep -c "$t.* glibc .* musl  *ratio" pivot.txt)" = 2 ] || fail "pivot table '$t' once per block"
done
for r in $runs; do
	# the time table and the three memory tables, in each block
	[ "$(grep -c "^libcbench/$r " pivot.txt)" = 8 ] || fail "pivot row $r once per table and block"
done
grep -q "performance ratio glibc_time/LEVEL_time - 1" pivot.txt || fail "pivot states the studies' form"

# the pivot's figures against the stored samples
fs report --db libc.db --pivot libc --format json > pivot.json || fail "pivot json"
python3 - libc.db pivot.json "$runs" $diet_threads <<'EOF' || fail "pivot json figures"
import json, sqlite3, statistics, sys
db = sqlite3.connect(sys.argv[1])
p = json.load(open(sys.argv[2]))
runs = sys.argv[3].split()
assert p["axis"] == "libc" and p["reference"] == "glibc", p["reference"]
assert p["levels"][:2] == ["glibc", "musl"], p["levels"]
assert [b["others"] for b in p["blocks"]] == ["dynamic O2", "static O2"]
ids = {l: i for i, l in db.execute("select id, label from configs where study='it-libc'")}
def median(label, run, metric):
    v = [r[0] for r in db.execute(
        "select s.value from samples s join runs r using(study, config_id, workload, run, rep) "
        "where s.study='it-libc' and s.config_id=? and s.run=? and s.metric=? and s.rep>=1 "
        "and r.status='ok'", (ids[label], run, metric))]
    return statistics.median(v) if v else None
close = lambda a, b: abs(a - b) <= 1e-5 * max(1, abs(b))
bad = 0
for b in p["blocks"]:
    assert sorted(r["run"] for r in b["rows"]) == sorted(runs), [r["run"] for r in b["rows"]]
    for row in b["rows"]:
        g = row["cells"]["glibc"]
        for level, c in row["cells"].items():
            label = f"{level} {b['others']}"
            if c["status"] != "ok":
                if (level == "dietlibc" and c["status"] == "crashed" and sys.argv[4] == "crashes"
                        and row["run"].startswith("pthread_")):
                    continue
                assert level == "dietlibc" and "dynamic" in label, (label, row["run"], c["status"])
                continue
            want = [median(label, row["run"], m) for m in ("time", "mem.virt", "mem.res", "mem.dirty")]
            got = [c["value"], c["virt"], c["res"], c["dirty"]]
            assert all(w is not None and close(x, w) for x, w in zip(got, want)), (label, row["run"], got, want)
            assert all(x > 0 for x in got), (label, row["run"], got)
            # libc-bench's own memory figures (smaps after the benchmark)
            assert all(median(label, row["run"], m) is not None
                       for m in ("heap_virt", "heap_res", "heap_dirty")), (label, row["run"], "heap_*")
            if row["run"] in ("malloc_big1", "malloc_big2"):
                # libc-bench's live set: 2000 blocks, 16/32/48/64 KiB, all live at once
                total_kib = 500 * (16 + 32 + 48 + 64)
                if not (c["virt"] >= total_kib and 0.9 * 2000 * 4 <= c["res"] <= total_kib / 2):
                    print(f"live set of {row['run']} in {label}: virt {c['virt']} KiB, res {c['res']} KiB; "
                          f"want virt >= {total_kib}, {0.9 * 2000 * 4:.0f} <= res <= {total_kib / 2:.0f}")
                    bad += 1
            if level == "glibc":
                continue
            # JSON numbers have 6 significant digits: percentages to 1e-3 points
            assert abs(c["pct"] - 100 * (g["value"] / c["value"] - 1)) <= 1e-3, (label, c["pct"])
            for k in ("virt", "res", "dirty"):
                assert close(c[k + "_ratio"], g[k] / c[k]), (label, k)
                assert abs(c[k + "_pct"] - 100 * (g[k] / c[k] - 1)) <= 1e-3, (label, k)
            if level == "musl" and c["res_ratio"] <= 1 and not row["run"].startswith("malloc_big"):
                print(f"musl uses more resident memory than glibc: {label} {row['run']}: {c['res_ratio']}")
                bad += 1
sys.exit(1 if bad else 0)
EOF

fs report --db libc.db --pivot libc --format csv > pivot.csv || fail "pivot csv"
grep -q 'glibc.time,glibc.pct,glibc.virt,glibc.res,glibc.dirty,.*musl.virt_ratio,musl.res_ratio,musl.dirty_ratio,musl.virt_pct,musl.res_pct,musl.dirty_pct' <(head -1 pivot.csv) ||
	fail "csv header: $(head -1 pivot.csv)"
[ "$(($(wc -l < pivot.csv) - 1))" = 10 ] || fail "csv: 2 blocks x 5 runs"

# refusals
fs report --db libc.db --pivot cc > err.txt 2>&1 && fail "an unknown axis pivots"
grep -q "has no axis 'cc' (its axes: libc, link, opt)" err.txt || fail "unknown axis: $(cat err.txt)"
fs report --db libc.db --pivot libc --format html > err.txt 2>&1 && fail "html pivot accepted"
grep -q "report --pivot: unknown format .html. (formats: table, csv, json)" err.txt || fail "html: $(cat err.txt)"

# without the study file: every axis from the levels the database recorded
mv libc.study libc.study.gone
fs report --db libc.db --pivot opt > pivot2.txt || fail "opt does not pivot without the study file"
grep -q "^study .* pivoted on opt (levels from the database)" pivot2.txt || fail "source not stated: $(head -1 pivot2.txt)"
# nor those (results stored before they were): libc from its level names, opt not at all
python3 -c "import sqlite3;d=sqlite3.connect('libc.db');d.execute(\"delete from facts where key like 'level.%'\");d.commit()"
fs report --db libc.db --pivot libc > pivot2.txt || fail "pivot without the study file"
grep -q "level names (the study file .*libc.study is not readable)" pivot2.txt || fail "fallback not stated"
fs report --db libc.db --pivot opt > err.txt 2>&1 && fail "opt pivots without the study file"
grep -q "restore the study file" err.txt || fail "opt: $(cat err.txt)"
mv libc.study.gone libc.study

echo "PASS: it_libc ($libcs x static dynamic)"
