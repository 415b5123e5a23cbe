#!/bin/bash
# it_search.sh - flagscope search for real, on the flagbug fixture (its
# output changes under -fwrapv): a tiny combined-elimination search
# rejects the -fwrapv candidate as wrong output and blames the flag, finds
# a valid best set, minimises and confirms it, writes make.conf; a rerun
# measures nothing; another strategy shares the cache; a search killed
# with SIGKILL resumes without measuring anything twice; with wall time
# the minimisation re-measures with interleaved runs; a compiler crash on
# two flags together is bisected and masked at once; the insns metric
# counts instructions with cachegrind.
set -euo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_search
cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/flagbug" "$T/home/workloads/"

cat > fb.study <<'S'
; expect: -fwrapv candidates are wrong_output against this -O2 baseline
[study]
name = fb
workloads = flagbug
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
S
cat > fb.space <<'S'
; four flags, one of which (-fwrapv) breaks flagbug
[space]
flags = -fwrapv -funroll-loops -fno-tree-vrp -fpeel-loops
S

# 1. CE: one round of single-flag changes, so -fwrapv alone is tried
fs search fb.study --space fb.space --strategy ce --budget 6 --metric size \
	--confirm-repeat 2 --db s.db --format json -o make.conf -q > ce.json 2> ce.err
grep -q "warning: --confirm-repeat 2: with 2 runs a side no workload can be significant" ce.err ||
	fail "no warning that 2 confirming runs cannot be significant: $(cat ce.err)"
# report on the confirmation's own study, to hold the two to one verdict
fs report --db s.db -f json --study "$(python3 -c 'import json, sys
print(json.load(open("ce.json"))["confirm"]["study"])')" > confirm_report.json
python3 - <<'P'
import json, re, sqlite3
r = json.load(open("ce.json"))
assert r["metric"] == "size" and r["space"]["dims"] == 4, r["space"]
assert 1 <= r["evals"] <= 6 and r["measured"] == r["evals"], (r["evals"], r["measured"])
trace = {t["flags"]: t["objective"] for t in r["trace"]}
assert "-fwrapv" in trace and trace["-fwrapv"] is None, trace
ok = [f for f, o in trace.items() if o is not None]
assert ok, trace
best = r["best"]
assert best["objective"] is not None and best["objective"] <= 1.0, best
assert "-fwrapv" not in best["flags"].split(), best
assert best["objective"] == min(trace[f] for f in ok), (best, trace)
mini = r["minimal"]
assert set(mini["flags"].split()) <= set(best["flags"].split()), (mini, best)
assert mini["objective"] <= best["objective"] * 1.005, (mini, best)
u = r["unsafe"]
assert u and u[0]["flag"] == "-fwrapv" and u[0]["alone"] and u[0]["ok"] == 0, u
assert "wrong_output" in u[0]["evidence"] and "differs" in u[0]["evidence"], u[0]
assert all(x["flag"] == "-fwrapv" or x["suspect"] for x in u), u
c = r["confirm"]
assert c["status"] == "ok" and [a["level"] for a in c["against"]] == ["-O2", "-O3"], c
for a in c["against"]:
    assert a["time_ratio"] > 0 and a["ci"][0] <= a["time_ratio"] <= a["ci"][1], a
    # 2 runs a side: no Mann-Whitney p can be below 0.05, so by the one
    # verdict rule (analysis/verdict.h) nothing is confirmed either way,
    # whatever the bootstrap interval of the mean says
    assert a["items"][0]["n"] == 2 and a["verdict"] == "unchanged", a
    assert all(i["verdict"] == "unchanged" for i in a["items"]), a
# and report says of the same study what the confirmation says (vs -O2,
# the study's baseline) when the best set is a configuration of its own
# (labels are "O2 best": the study's axis, then the level's name)
rep = {x["label"].split()[-1]: x for x in json.load(open("confirm_report.json"))["configs"]}
assert "base" in rep and rep["base"]["baseline"], rep
if "best" in rep:
    a, x = c["against"][0], rep["best"]
    assert x["verdict"] == a["verdict"], (x, a)
    assert abs(x["ratio"] - a["time_ratio"]) < 1e-9, (x, a)
    assert {w["name"]: w["verdict"] for w in x["workloads"]} == \
        {i["name"]: i["verdict"] for i in a["items"]}, (x, a)
mc = open("make.conf").read()
assert mc == r["make_conf"], "the -o file and the JSON disagree"
m = re.search(r'^COMMON_FLAGS="([^"]*)"$', mc, re.M)
assert m and m.group(1).split() == ["-O2"] + mini["flags"].split(), mc
assert "-fwrapv" in mc and 'CFLAGS="${COMMON_FLAGS}"' in mc, mc  # blamed in a comment only
db = sqlite3.connect("s.db")
# the pipeline judged it: the -fwrapv build ran and its output was wrong
st = db.execute("select r.status from runs r join configs c on c.study = r.study and "
                "c.id = r.config_id where c.cflags like '%-fwrapv%' and r.rep = 0 "
                "and r.run != '@build'").fetchall()
assert st and all(s[0] == "wrong_output" for s in st), st
n = db.execute("select count(*) from search_evals").fetchone()[0]
assert n == r["evals"], (n, r["evals"])
P
echo "ok 1 - ce rejects the wrong-output candidate, blames -fwrapv, minimises, confirms, make.conf"

# 2. the same search again: everything from the cache, nothing built
fs search fb.study --space fb.space --strategy ce --budget 6 --metric size \
	--confirm-repeat 0 --db s.db --format json -q > ce2.json
python3 - <<'P'
import json
a, b = json.load(open("ce.json")), json.load(open("ce2.json"))
assert b["measured"] == 0 and b["resumed"] == b["evals"] == a["evals"], b
assert b["best"] == a["best"] and b["search"] == a["search"], (a["best"], b["best"])
assert b["confirm"] is None
P
echo "ok 2 - a rerun measures nothing and finds the same"

# 3. another strategy shares the cache; no flag set is ever built twice
fs search fb.study --space fb.space --strategy random --budget 8 --metric size \
	--confirm-repeat 0 --no-minimise --db s.db --format json -q > rnd.json
python3 - <<'P'
import json, re, sqlite3
a, r = json.load(open("ce.json")), json.load(open("rnd.json"))
assert r["evals"] == 8 and r["minimal"] is None, r
known = {t["flags"] for t in a["trace"]}
mine = {t["flags"] for t in r["trace"]}
assert r["measured"] == len(mine - known), (r["measured"], mine, known)
db = sqlite3.connect("s.db")
cand = [c for (l, c) in db.execute("select label, cflags from configs where study like 'search-%'")
        if re.search(r"(^| )c[0-9a-f]{12}$", l)]
assert len(cand) == len(set(cand)), "a flag set was measured in two batches"
n = db.execute("select count(*) from search_evals").fetchone()[0]
assert n == len(cand), (n, len(cand))
P
echo "ok 3 - random search reuses what ce measured; every flag set measured once"

# 4. SIGKILL in the middle; the same command resumes
cat > wide.space <<'S'
[space]
flags = -funroll-loops -fno-tree-vrp -fpeel-loops -ftree-vectorize -fno-inline-small-functions -fgcse-after-reload
S
args=(fb.study --space wide.space --strategy ga --budget 14 --batch 4 --metric size
	--confirm-repeat 0 --no-minimise --db k.db --format json -q)
# wait_trace DB N: up to 120 s for N rows in DB's search trace; n says how many
wait_trace() {
	for _ in $(seq 600); do
		n=$(python3 -c "import sqlite3
try: print(sqlite3.connect('$1').execute('select count(*) from search_trace').fetchone()[0])
except Exception: print(0)")
		[ "$n" -ge "$2" ] && break
		sleep 0.2
	done
}
"$FLAGSCOPE_BIN" search "${args[@]}" > /dev/null 2>&1 &
pid=$!
wait_trace k.db 4
kill -9 $pid; wait $pid 2>/dev/null || true
[ "$n" -ge 4 ] || fail "the search stored nothing in time"
sleep 1  # its flagscope run child gets SIGTERM and lets go of the database
fs search "${args[@]}" > k.json
fs search "${args[@]}" --db k2.db > k2.json  # uninterrupted, for comparison
python3 - <<'P'
import json, re, sqlite3
k, u = json.load(open("k.json")), json.load(open("k2.json"))
assert k["evals"] == u["evals"] == 14, (k["evals"], u["evals"])
assert k["resumed"] >= 4 and k["measured"] == k["evals"] - k["resumed"], k
assert [t["flags"] for t in k["trace"]] == [t["flags"] for t in u["trace"]], "resumed differently"
assert k["best"]["flags"] == u["best"]["flags"], (k["best"], u["best"])
db = sqlite3.connect("k.db")
cand = [c for (l, c) in db.execute("select label, cflags from configs where study like 'search-%'")
        if re.search(r"(^| )c[0-9a-f]{12}$", l)]
assert len(cand) == len(set(cand)) == 14, (len(cand), len(set(cand)))
P
echo "ok 4 - killed with SIGKILL, resumed to the same search, nothing measured twice"

# 4b. SIGHUP (the terminal went away) stops it as SIGINT does: exit 1 and
# the interrupted line (it killed search outright, exit 129)
"$FLAGSCOPE_BIN" search "${args[@]/k.db/kh.db}" > /dev/null 2>hup.err &
pid=$!
wait_trace kh.db 1
kill -HUP $pid
rc=0
wait $pid || rc=$?
[ "$rc" = 1 ] && grep -q "interrupted" hup.err || fail "SIGHUP: exit $rc, $(cat hup.err)"
echo "ok 4b - SIGHUP stops the search: exit 1, $(grep interrupted hup.err)"

# 5. wall time is noisy: minimisation measures again, interleaved, and tests
fs search fb.study --space wide.space --strategy random --budget 3 --metric time \
	--minimise-repeat 3 --confirm-repeat 0 --db t.db --format json -q > time.json
python3 - <<'P'
import json, sqlite3
r = json.load(open("time.json"))
assert r["metric"] == "time", r["metric"]
b, m = r["best"], r["minimal"]
if b["flags"]:
    assert m and "significant" in m["how"] and "interleaved" in m["how"], m
    assert set(m["flags"].split()) <= set(b["flags"].split()), (m, b)
    assert m["ci"][0] <= m["vs_best"] <= m["ci"][1], m
    db = sqlite3.connect("t.db")
    # the minimisation measured the best set itself again, 3 runs (the search: 2)
    reps = db.execute("select max(r.rep) from runs r join configs c on c.study = r.study and "
                      "c.id = r.config_id where c.cflags like ? and r.run != '@build'",
                      ("%" + b["flags"] + "%",)).fetchone()[0]
    assert reps is not None and reps >= 3, reps
else:
    assert m is None, m
P
echo "ok 5 - with wall time, minimisation re-measures and tests significance"

# 6. a compiler that crashes on two flags together (a gcc wrapper): the
# crash is bisected with compiles of the crashing file alone, the pair is
# remembered, and no later candidate carries both
cat > fakecc <<'S'
#!/bin/sh
# gcc, except an internal compiler error on a real source file given
# -ftracer and -fpeel-loops together
t=0 p=0 src=
for x; do case $x in -ftracer) t=1;; -fpeel-loops) p=1;; *probe.c) ;; *.c) src=$x;; esac; done
if [ $t = 1 ] && [ $p = 1 ] && [ -n "$src" ]; then
	echo "$src: In function 'main':" >&2
	echo "$src:9:1: internal compiler error: in fake_pass, at fake.c:12" >&2
	exit 1
fi
exec gcc "$@"
S
chmod +x fakecc
cat > crash.study <<S
; expect: -ftracer with -fpeel-loops crashes the compiler; nothing else breaks
[study]
name = crash
workloads = flagbug
repeat = 1
baseline = fake O2
[axis cc]
fake = $PWD/fakecc
[axis opt]
O2 = -O2
S
cat > crash.space <<'S'
[space]
flags = -funroll-loops -ftracer -fpeel-loops
S
cargs=(crash.study --space crash.space --strategy exhaustive --budget 8 --batch 1 --metric size
	--confirm-repeat 0 --no-minimise --db c.db --format json -q)
fs search "${cargs[@]}" > crash.json
fs search "${cargs[@]}" > crash2.json
python3 - <<'P'
import json, sqlite3
r, again = json.load(open("crash.json")), json.load(open("crash2.json"))
both = [t for t in r["trace"] if {"-ftracer", "-fpeel-loops"} <= set(t["flags"].split())]
assert len(both) == 1 and both[0]["objective"] is None, r["trace"]
assert r["evals"] == 6 and r["finished"], (r["evals"], r["trace"])
pair = " ".join(w for w in both[0]["flags"].split() if w in ("-ftracer", "-fpeel-loops"))
assert any(d.startswith(pair + ": ") for d in r["space"]["dropped"]), r["space"]
db = sqlite3.connect("c.db")
(msg,) = db.execute("select message from search_probes where flag = ?", (pair,)).fetchone()
assert "crashed the compiler" in msg and "internal compiler error" in msg, msg
(detail,) = db.execute("select detail from search_evals where flags = ?", (both[0]["flags"],)).fetchone()
assert "to blame: " + pair in detail and "flagbug.c" in detail, detail
assert again["search"] == r["search"] and again["measured"] == 0, again
assert [t["flags"] for t in again["trace"]] == [t["flags"] for t in r["trace"]], again["trace"]
P
echo "ok 6 - a compiler crash on two flags is bisected, remembered, and masked at once"

# 7. the deterministic metric: instruction counts from cachegrind
if ! command -v valgrind > /dev/null; then
	echo "SKIP 7: no valgrind (install the valgrind package)"
	exit 0
fi
fs search fb.study --space fb.space --strategy ce --budget 3 --metric insns \
	--confirm-repeat 0 --no-minimise --db i.db --format json -q > insns.json
python3 - <<'P'
import json
r = json.load(open("insns.json"))
assert r["metric"] == "insns" and "instructions" in r["metric_desc"], r["metric_desc"]
objs = [t["objective"] for t in r["trace"] if t["objective"] is not None]
assert objs and all(o > 0 for o in objs), r["trace"]
assert any(abs(o - 1) > 1e-6 for o in objs), "no flag changed the instruction count"
P
echo "ok 7 - instruction counts (cachegrind) as the objective"
