#!/bin/bash
# slow_webservice.sh - the webservice workload (lighttpd + the shop FastCGI
# handler on SQLite, two Debian sources in one recipe) through `flagscope
# run` with small request counts (static 300, dynamic 100; rate runs
# bounded to 20 s).  Expected: PASS, with
#   1. native, gcc -O2 (baseline) and -O3: both builds ok; every run ok,
#      so the -O3 servers' static and dynamic pages (their checksums on
#      stdout) equal the -O2 ones; tps, max_tps, p50/p99 and CPU per
#      request stored, p99 >= p50, max_tps > 0;
#   2. under QEMU (mips64el n64, -march=loongson2f on the Loongson-2F
#      model, the preset's musl sysroot), -O2: the static and dynamic runs
#      ok, insns_per_request stored (the servers' instructions over the
#      requests made), and the dynamic page (FastCGI + an SQLite query)
#      costs more instructions per request than the static one.
# Measured: native part 965 s (two builds in parallel on 2 cores with a load
# of ~10 from other work; about 2 min of CPU each, SQLite's amalgamation
# generated and compiled in each), QEMU part 260-700 s for its build
# (musl sysroot cached, as slow_cross leaves it) and about 60 s of runs.
# SKIP when the Debian sources cannot be fetched, tclsh is missing, or (part
# 2 only) the MIPS cross compiler or qemu-mips64el is.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" slow_webservice
command -v tclsh >/dev/null || { echo "SKIP: tclsh is not installed (apt-get install tcl)"; exit 77; }
# the sources and the musl sysroots are the user's cache, as slow_cross's
unset FLAGSCOPE_CACHE

cp -r "$FLAGSCOPE_SRC/workloads/webservice" home/workloads/
r=home/workloads/webservice/recipe.ini
sed -i -e 's/--requests 4000/--requests 300/' -e 's/--requests 1000/--requests 100/' \
	-e 's/--seconds 90/--seconds 20/' "$r"
[ "$(grep -c -e '--requests 300 ' -e '--requests 100 ' -e '--seconds 20$' "$r")" = 4 ] ||
	fail "test sizes: $(grep '^args' "$r")"

cat >native.study <<'EOF'
; expect: O2 and O3 ok, every run of O3 ok against O2's pages
[study]
name = native
workloads = webservice
repeat = 1
baseline = O2
[axis opt]
O2 = -O2
O3 = -O3
EOF
fs run native.study --dry-run >dry.txt 2>&1 || true
if ! grep -q -e 'webservice .*would build' -e 'webservice .*cached' dry.txt; then
	echo "SKIP: lighttpd's or sqlite3's source cannot be fetched: $(tail -2 dry.txt)"
	exit 77
fi

# the stored figures of study $1 as "config run/metric value" lines, and
# the run outcomes as "config run status"
figures() {
	python3 - "$1.db" "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for label, run, metric, value in db.execute(
        "select c.label, s.run, s.metric, s.value from samples s join configs c on c.study = s.study "
        "and c.id = s.config_id where s.study = ? and s.rep = 1 order by 1, 2, 3", (sys.argv[2],)):
    print(label.split(" [")[0].replace(" ", "_"), f"{run}/{metric}", value)
PY
}
outcomes() {
	python3 - "$1.db" "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for label, run, status, detail in db.execute(
        "select c.label, r.run, r.status, r.detail from runs r join configs c on c.study = r.study "
        "and c.id = r.config_id where r.study = ? and r.rep = 1 order by 1, 2", (sys.argv[2],)):
    print(label.split(" [")[0].replace(" ", "_"), run, status, detail or "-")
PY
}
# value CONFIG RUN/METRIC from figures.txt
value() { awk -v c="$1" -v m="$2" '$1 == c && $2 == m { print $3 }' "$3"; }

t0=$(date +%s)
fs run native.study --db native.db -q >native.out 2>&1 || fail "native run: $(tail -5 native.out)"
echo "native: $(($(date +%s) - t0)) s"
outcomes native >native.outcomes
cat native.outcomes
[ "$(awk '$3 == "ok"' native.outcomes | wc -l)" = 8 ] || fail "native: not every run ok"
figures native >native.figures
for c in O2 O3; do
	for m in static/tps dynamic/tps static/cpu_us dynamic/cpu_us static_rate/max_tps dynamic_rate/max_tps; do
		v=$(value $c $m native.figures)
		awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "$c $m = '$v'"
	done
	for run in static dynamic; do
		p50=$(value $c $run/p50_ms native.figures) p99=$(value $c $run/p99_ms native.figures)
		awk -v a="$p50" -v b="$p99" 'BEGIN { exit !(a != "" && b >= a) }' || fail "$c $run: p50 $p50 p99 $p99"
	done
	echo "ok: $c: static $(value $c static/tps native.figures) tps, dynamic $(value $c dynamic/tps native.figures) tps," \
		"max static $(value $c static_rate/max_tps native.figures)/s, dynamic $(value $c dynamic_rate/max_tps native.figures)/s"
done

for c in mips64el-linux-gnuabi64-gcc qemu-mips64el; do
	command -v $c >/dev/null || { echo "SKIP (part 2): $c is not installed"; echo "PASS: slow_webservice (native)"; exit 0; }
done
cat >qemu.study <<'EOF'
; expect: l2f-n64 O2 ok under QEMU, insns_per_request for static and dynamic
[study]
name = qemu
workloads = webservice
repeat = 1
[axis isa]
l2f-n64 = -march=loongson2f -mabi=64
l2f-n64.target = mips64el-linux-gnuabi64
l2f-n64.cpu = Loongson-2F
[axis opt]
O2 = -O2
EOF
t0=$(date +%s)
fs run qemu.study --db qemu.db -q >qemu.out 2>&1 || fail "qemu run: $(tail -5 qemu.out)"
echo "qemu: $(($(date +%s) - t0)) s"
outcomes qemu >qemu.outcomes
cat qemu.outcomes
figures qemu >qemu.figures
c=$(awk 'NR == 1 { print $1 }' qemu.outcomes)
for run in static dynamic; do
	[ "$(awk -v r=$run '$2 == r { print $3 }' qemu.outcomes)" = ok ] || fail "qemu: $run not ok"
done
s=$(value "$c" static/insns_per_request qemu.figures)
d=$(value "$c" dynamic/insns_per_request qemu.figures)
awk -v s="$s" -v d="$d" 'BEGIN { exit !(s > 0 && d > s) }' ||
	fail "qemu: insns per request static '$s' dynamic '$d' (want 0 < static < dynamic)"
echo "ok: under QEMU ($c): $s instructions per static request, $d per dynamic request"
echo "PASS: slow_webservice"
