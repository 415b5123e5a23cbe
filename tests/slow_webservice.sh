#!/bin/bash
# slow_webservice.sh - the webservice workload (lighttpd + the shop FastCGI
# handler on SQLite, two Debian sources in one recipe) through `flagscope
# run`, on its smallest configuration: ONE study of two builds at -O1 (the
# cheapest to compile that still optimises), native (baseline) and, when
# the MIPS cross compiler and qemu-mips64el are installed, mips64el n64
# (-march=loongson2f on the Loongson-2F model, the musl sysroot slow_cross
# and slow_ops_cross leave in the user's cache); small request counts
# (static 300, dynamic 100) and rate steps of 0.5 s from 50 conn/s, x2.
# Expected: PASS, with
#   1. both builds ok and every run ok: the n64 servers' static and dynamic
#      pages (their checksums on stdout) equal the native baseline's;
#   2. native: tps, max_tps, p50/p99 and CPU per request stored, p99 >= p50,
#      max_tps > 0;
#   3. under QEMU: insns_per_request stored (the servers' instructions over
#      the requests made); the dynamic page (FastCGI + an SQLite query)
#      costs more instructions per request than the static one; and the
#      static page's count is the same in the warm-up and the repetition
#      to 10% (one request in flight under $EMU; at 16 in flight it varied
#      by 23% between runs; what is left grows with the run's wall time,
#      probably lighttpd's once-a-second work: 0.4% at a load of 14, 1.4%
#      at 23, and 6.0% in one CI where the warm-up ran slower than the
#      repetition: 20681 against 19508, so 5% was too tight).
# Measured on 2 cores shared with other sessions, each form from a cold
# build cache (sources and sysroots cached): this one 285 s of wall time
# at a load of 5-12 and 175 s of CPU (user + sys of the whole test; 885 s
# of wall time at a load of 20-23 beside three more webservice builds), and
# 74 s with its two builds in the user's cache (a second CI with the same
# recipe).  The earlier form (native -O2 and -O3, then n64 -O2 in a second
# study, rate steps of 1 s for up to 20 s: three builds, two of them in
# turn) took 870 s at a load of 12-21 and 420 s of CPU, 713 s in CI, and
# 255 s with its builds cached.
# SKIP when the Debian sources cannot be fetched or tclsh is missing; the
# QEMU half is left out (said on stdout) without the cross tools.
set -euo pipefail
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh" slow_webservice
command -v tclsh >/dev/null || { echo "SKIP: tclsh is not installed (apt-get install tcl)"; exit 77; }
# the sources and the musl sysroots are the user's cache, as slow_cross's
unset FLAGSCOPE_CACHE

cp -r "$FLAGSCOPE_SRC/workloads/webservice" home/workloads/
r=home/workloads/webservice/recipe.ini
sed -i -e 's/--requests 4000/--requests 300/' -e 's/--requests 1000/--requests 100/' \
	-e 's/--rate-start 10 --rate-factor 1.5/--rate-start 50 --rate-factor 2 --step-seconds 0.5/' \
	-e 's/--seconds 90/--seconds 20/' "$r"
[ "$(grep -c -e '--requests 300 ' -e '--requests 100 ' -e '--step-seconds 0.5 .*--seconds 20$' "$r")" = 4 ] ||
	fail "test sizes: $(grep '^args' "$r")"

cross=yes
for c in mips64el-linux-gnuabi64-gcc qemu-mips64el; do
	command -v $c >/dev/null || { echo "SKIP (the QEMU half): $c is not installed"; cross=; }
done
cat >web.study <<'EOF'
; expect: both builds ok, every run ok (l2f-n64's pages equal host's);
; ranked by time (insns, the default with an emulated configuration, has
; no native samples: nothing would rank)
[study]
name = web
workloads = webservice
repeat = 1
baseline = host
metric = time
[axis cfg]
host = -O1
EOF
[ -z "$cross" ] || cat >>web.study <<'EOF'
l2f-n64 = -march=loongson2f -mabi=64 -O1
l2f-n64.target = mips64el-linux-gnuabi64
l2f-n64.cpu = Loongson-2F
EOF
fs run web.study --dry-run >dry.txt 2>&1 || true
if ! grep -q -e 'webservice .*would build' -e 'webservice .*cached' dry.txt; then
	echo "SKIP: lighttpd's or sqlite3's source cannot be fetched: $(tail -2 dry.txt)"
	exit 77
fi

# the stored figures of repetition $1 as "config run/metric value" lines,
# and the run outcomes of repetition 1 as "config run status detail"
figures() {
	python3 - web.db "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for label, run, metric, value in db.execute(
        "select c.label, s.run, s.metric, s.value from samples s join configs c on c.study = s.study "
        "and c.id = s.config_id where s.study = 'web' and s.rep = ? order by 1, 2, 3", (int(sys.argv[2]),)):
    print(label.split(" [")[0].replace(" ", "_"), f"{run}/{metric}", value)
PY
}
outcomes() {
	python3 - web.db <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for label, run, status, detail in db.execute(
        "select c.label, r.run, r.status, r.detail from runs r join configs c on c.study = r.study "
        "and c.id = r.config_id where r.study = 'web' and r.rep = 1 order by 1, 2"):
    print(label.split(" [")[0].replace(" ", "_"), run, status, detail or "-")
PY
}
# value CONFIG RUN/METRIC FILE
value() { awk -v c="$1" -v m="$2" '$1 == c && $2 == m { print $3 }' "$3"; }

t0=$(date +%s)
fs run web.study --db web.db -q >web.out 2>&1 || fail "run: $(tail -5 web.out)"
echo "study: $(($(date +%s) - t0)) s"
outcomes >outcomes.txt
cat outcomes.txt
nconf=$([ -n "$cross" ] && echo 2 || echo 1)
[ "$(awk '$3 == "ok"' outcomes.txt | wc -l)" = $((4 * nconf)) ] || fail "not every run ok"
figures 1 >figures.txt
for m in static/tps dynamic/tps static/cpu_us dynamic/cpu_us static_rate/max_tps dynamic_rate/max_tps; do
	v=$(value host $m figures.txt)
	awk -v v="$v" 'BEGIN { exit !(v > 0) }' || fail "host $m = '$v'"
done
for run in static dynamic; do
	p50=$(value host $run/p50_ms figures.txt) p99=$(value host $run/p99_ms figures.txt)
	awk -v a="$p50" -v b="$p99" 'BEGIN { exit !(a != "" && b >= a) }' || fail "host $run: p50 $p50 p99 $p99"
done
echo "ok: native -O1: static $(value host static/tps figures.txt) tps, dynamic $(value host dynamic/tps figures.txt) tps," \
	"max static $(value host static_rate/max_tps figures.txt)/s, dynamic $(value host dynamic_rate/max_tps figures.txt)/s"
[ -n "$cross" ] || { echo "PASS: slow_webservice (native only)"; exit 0; }

c=l2f-n64
s=$(value $c static/insns_per_request figures.txt)
d=$(value $c dynamic/insns_per_request figures.txt)
awk -v s="$s" -v d="$d" 'BEGIN { exit !(s > 0 && d > s) }' ||
	fail "qemu: insns per request static '$s' dynamic '$d' (want 0 < static < dynamic)"
figures 0 >warmup.txt
w=$(value $c static/insns_per_request warmup.txt)
awk -v a="$w" -v b="$s" 'BEGIN { exit !(a > 0 && (a > b ? a / b : b / a) <= 1.10) }' ||
	fail "qemu: the static page's instructions per request differ between warm-up ($w) and repetition ($s) by more than 10%"
echo "ok: under QEMU ($c -O1): $s instructions per static request (warm-up $w), $d per dynamic request"
echo "PASS: slow_webservice"
