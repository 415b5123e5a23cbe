#!/bin/bash
# it_tcpsvd.sh - the dietlibc preset's daemon study through `flagscope run`
# with the tcpsvd recipe's `; test-args =` size (1000 requests, 50 at a
# time), one repetition: static dietlibc against dynamic glibc, dynamic
# dietlibc shown UNSUPPORTED.  Expected: PASS, with
#   - both servers built, every unit verified at -O2 (flagscope verify),
#     the dietlibc one static, the glibc one dynamic;
#   - both runs ok (the driver exits 1 when any request fails, and the
#     dietlibc server's stdout must equal glibc's);
#   - server_cpu, server_sys, server_rss_kb, server_virt_kb and
#     server_dirty_kb stored and positive, server_user stored and >= 0
#     (clock ticks: 10 ms, may be 0 for a short load), and user + sys
#     within two ticks of server_cpu (the kernel splits the same total);
#   - static dietlibc's resident and virtual peaks below dynamic glibc's;
#   - `report --pivot libc` puts the static server against the baseline
#     (dynamic glibc) and its ratios are the stored figures' ratios.
# SKIP when diet is not installed or ipsvd's source cannot be fetched (no
# deb-src entries: run scripts/deb-src.sh; or no network).
set -u
. "$FLAGSCOPE_SRC/tests/lib_builds.sh"
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_tcpsvd
command -v diet >/dev/null || { echo "SKIP: diet is not installed (apt-get install dietlibc-dev)"; exit 77; }

mkdir -p home/flagsets/presets
cp "$FLAGSCOPE_SRC/flagsets/presets/dietlibc.study" home/flagsets/presets/
cp -r "$FLAGSCOPE_SRC/workloads/tcpsvd" home/workloads/
r=home/workloads/tcpsvd/recipe.ini
targs=$(sed -n 's/^; test-args = //p' "$r")
[ -n "$targs" ] || fail "the recipe has no test-args line"
sed -i "s|^args = .*|args = $targs|" "$r"
grep -q '^args = .* 1000 50 60$' "$r" || fail "test args: $(grep '^args' "$r")"

fs run dietlibc --dry-run > dry.txt 2>&1
if ! grep -q 'tcpsvd .*would build' dry.txt; then
	echo "SKIP: ipsvd's source cannot be fetched: $(grep -i 'tcpsvd\|source' dry.txt | tail -2)"
	exit 77
fi
fs run dietlibc --db d.db --repeat 1 -q > run.out 2>&1 || fail "run: $(tail -5 run.out)"

study_builds d.db dietlibc > builds.txt || fail "read builds"
[ "$(cut -f1,2 builds.txt | tr '\t\n' ' ')" = "glibc_dynamic_O2 ok dietlibc_dynamic_O2 unsupported dietlibc_static_O2 ok " ] ||
	fail "builds: $(cat builds.txt)"
while IFS=$'\t' read -r label status detail bin; do
	case $label in
	dietlibc_dynamic_O2) continue ;;
	dietlibc_static_O2) link=--static ;;
	*) link=--dynamic ;;
	esac
	fs verify "$bin" --expect -O2 $link > verify.txt || fail "$label: verify: $(tail -3 verify.txt)"
	grep -q 'tcpsvd.c ' verify.txt || fail "$label: tcpsvd.c is not among the verified units"
	echo "ok: $label verified -O2 $link"
done < builds.txt

python3 - d.db <<'EOF' || fail "server metrics"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
vals = {}
for label, metric, value in db.execute(
        "select c.label, s.metric, s.value from samples s join configs c on c.study = s.study "
        "and c.id = s.config_id join runs r using(study, config_id, workload, run, rep) "
        "where s.study = 'dietlibc' and s.rep = 1 and r.status = 'ok'"):
    vals.setdefault(label, {})[metric] = value
ok = True
def check(cond, what):
    global ok
    if not cond:
        print("FAIL:", what)
        ok = False
for label in ("glibc dynamic O2", "dietlibc static O2"):
    v = vals.get(label, {})
    for m in ("server_cpu", "server_sys", "server_rss_kb", "server_virt_kb", "server_dirty_kb"):
        check(v.get(m, 0) > 0, f"{label}: {m} = {v.get(m)}")
    check(v.get("server_user", -1) >= 0, f"{label}: server_user = {v.get('server_user')}")
    if "server_cpu" in v and "server_user" in v and "server_sys" in v:
        check(abs(v["server_user"] + v["server_sys"] - v["server_cpu"]) <= 0.02 + 1e-9,
              f"{label}: user {v['server_user']} + sys {v['server_sys']} vs cpu {v['server_cpu']}")
    print(label, {k: v[k] for k in sorted(v) if k.startswith("server_")})
d, g = vals.get("dietlibc static O2", {}), vals.get("glibc dynamic O2", {})
for m in ("server_rss_kb", "server_virt_kb"):
    check(d.get(m, 1e18) < g.get(m, 0), f"static dietlibc {m} {d.get(m)} not below glibc's {g.get(m)}")
sys.exit(0 if ok else 1)
EOF

fs report --db d.db > report.txt || fail "report"
grep -q "dietlibc has no shared library" report.txt || fail "report does not give the unsupported reason"

mem=server_virt_kb,server_rss_kb,server_dirty_kb
fs report --db d.db --pivot libc --memory $mem --format json > pivot.json || fail "pivot"
python3 - d.db pivot.json <<'EOF' || fail "pivot figures"
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
p = json.load(open(sys.argv[2]))
assert p["metric"] == "server_cpu" and p["memory"]["res"] == "server_rss_kb", p["metric"]
static = [b for b in p["blocks"] if b["others"] == "static O2"][0]
assert static["reference_outside"] and static["reference"] == "glibc dynamic O2", static["reference"]
row = static["rows"][0]
d, ref = row["cells"]["dietlibc"], row["reference"]
def val(label, metric):
    return db.execute("select s.value from samples s join configs c on c.study = s.study and "
                      "c.id = s.config_id where s.study = 'dietlibc' and c.label = ? and "
                      "s.metric = ? and s.rep = 1", (label, metric)).fetchone()[0]
close = lambda a, b: abs(a - b) <= 1e-5 * max(1, abs(b))
g_cpu, d_cpu = val("glibc dynamic O2", "server_cpu"), val("dietlibc static O2", "server_cpu")
assert close(d["pct"], 100 * (g_cpu / d_cpu - 1)), (d["pct"], g_cpu, d_cpu)
assert close(d["res_ratio"], val("glibc dynamic O2", "server_rss_kb") / val("dietlibc static O2", "server_rss_kb"))
assert d["res_ratio"] > 1 and d["virt_ratio"] > 1, d
print(f"static dietlibc vs dynamic glibc: cpu {d['pct']:+.1f}%, virt x{d['virt_ratio']:.1f}, "
      f"res x{d['res_ratio']:.1f}, dirty x{d['dirty_ratio']:.1f}")
EOF
out_has 'ratios against glibc dynamic O2 (the baseline' fs report --db d.db --pivot libc --memory $mem ||
	fail "the table does not say the static block compares with the baseline"

echo "PASS: it_tcpsvd"
