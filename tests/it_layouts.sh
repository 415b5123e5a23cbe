#!/bin/bash
# it_layouts: layouts = 3 (issue 27, doc/layout.md) on tiny at -O2, -O0
# and -O2 -s, 4 runs each.  Expected: PASS.  --dry-run says what layouts
# costs (9 builds instead of 3, each variant's function order seed and
# alignment); the run makes 3 builds per configuration, each variant its
# own build key with "layout=v" in its configuration and its flags
# (-ffunction-sections, which variant 0 has too, lld's --shuffle-sections
# by seed v, --emit-relocs, alignment 32 and 64),
# the layout checks of O2's and O0's variants ok (same functions, sizes and
# bytes but for address fields, some moved), 4 runs per variant.  O2s is
# stripped (-s): its variants cannot be compared (no symbol table), so both
# are rejected, stored unsupported with the reason and never run, and O2s
# is judged over its plain build alone.  The report ranks 3
# configurations, O0's workload judged over 3 layouts, its ratio the mean
# of the layouts' medians (recomputed here from the stored samples), its
# verdict the nested rule's (significant exactly when p < 0.05 and |ratio
# - 1| >= 1%); the study without layouts keeps one build per
# configuration.  Then a compiler that refuses lld (a wrapper that says
# what a gcc without -fuse-ld=lld says): its variant is unsupported with
# the reason, its plain build measured, the study not stopped; a cross
# compiler that does not find ld.lld (Debian 12's mips64el gcc) gets its
# variant unsupported in the dry run; a recipe whose link ignores LDFLAGS
# gets its variants rejected by the check.
set -u
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_layouts
count_failures

cat >s.study <<'S'
; expect: 3 configurations x 3 layouts = 9 builds, O2s's layouts 1 and 2
; rejected by the layout check (stripped), every other check ok; the report
; ranks O2, O0 (over 3 layouts) and O2s (over its plain build alone)
[study]
workloads = tiny
repeat = 4
layouts = 3
meters = rusage
baseline = O2
[axis opt]
O2 = -O2
O0 = -O0
O2s = -O2 -s
S

fs run s.study --db s.db --dry-run >dry.out 2>dry.err || fail "dry run: $(tail -2 dry.err)"
grep -q "^study s: 3 configurations" dry.out || fail "dry run: not 2 configurations: $(head -1 dry.out)"
grep -q "^layouts 3: .*variant 0 the compiler's function order, 1 function order seed 1, functions aligned to 32, 2 function order seed 2, functions aligned to 64): 9 builds instead of 3, and 3 times the runs" dry.out ||
	fail "dry run does not say what layouts costs: $(grep layouts dry.out)"

fs run s.study --db s.db --format json >s.json 2>s.err || fail "run: $(tail -3 s.err)"
[ "$(sql s.db "select count(*) from builds where status = 'ok'")" = 7 ] ||
	fail "builds ok (7 wanted): $(sql s.db "select config_id, status, detail from builds")"
[ "$(sql s.db "select count(distinct key) from builds")" = 9 ] || fail "9 distinct build keys wanted"
rejected=$(sql s.db "select c.label || ': ' || b.status || ': ' || b.detail from builds b join configs c on c.id = b.config_id where b.status <> 'ok' order by c.layout")
[[ $rejected == "O2s [layout 1]: unsupported: layout variant 1 not built: the link of its flags failed"*"--strip-all and --emit-relocs may not be used together"*$'\n'"O2s [layout 2]: unsupported: layout variant 2 not built: "* ]] ||
	fail "O2s's layouts are not recorded as unsupported: $rejected"
[ "$(sql s.db "select count(*) from runs r join configs c on c.id = r.config_id where c.label like 'O2s [layout %'")" = 0 ] ||
	fail "a rejected variant was run"
got=$(sql s.db "select layout || ':' || count(*) from configs group by layout order by layout" | tr '\n' ' ')
[ "$got" = "0:3 1:3 2:3 " ] || fail "configurations per layout: $got"
flags=$(sql s.db "select count(*) from configs v join configs p on p.id = v.layout_of and p.layout = 0 where v.layout > 0 and p.cflags like '% -ffunction-sections' and v.cflags = p.cflags || ' -falign-functions=' || (16 << v.layout) and v.ldflags like '%-fuse-ld=lld -Wl,--shuffle-sections=.text.*=' || v.layout || ' -Wl,--emit-relocs' and p.ldflags not like '%lld%'")
[ "$flags" = 6 ] || fail "variants do not name their plain configuration and flags: $(sql s.db "select label, cflags, ldflags, layout, layout_of from configs")"
checks=$(sql s.db "select count(*) from facts where key like 'layout.%' and value like 'ok: %the same instructions%moved%'")
[ "$checks" = 4 ] || fail "layout checks ok: $checks of 4: $(sql s.db "select key, value from facts where key like 'layout.%'")"
[ "$(sql s.db "select count(*) from facts where key like 'layout.%' and value like 'rejected: %'")" = 0 ] ||
	fail "no layout check rejected wanted: $(sql s.db "select key, value from facts where key like 'layout.%'")"
per=$(sql s.db "select count(*) from runs where rep >= 1 and status = 'ok' group by config_id" | sort -u | tr '\n' ' ')
[ "$per" = "4 " ] || fail "runs per variant: $per"

python3 - s.db s.json <<'P' || fail "report"
import json, sqlite3, statistics, sys
db = sqlite3.connect(sys.argv[1])
rep = json.load(open(sys.argv[2]))
labels = [c["label"] for c in rep["configs"]]
if sorted(labels) != ["O0", "O2", "O2s"]:
    sys.exit(f"FAIL: the report ranks {labels}, want O0, O2 and O2s only")
st = next(c for c in rep["configs"] if c["label"] == "O2s")["workloads"][0]
if st.get("layouts", 1) != 1 or st["n"] != 4:
    sys.exit(f"FAIL: O2s judged over {st.get('layouts')} layouts and {st['n']} runs, want 1 and 4 (its variants rejected)")
def mean_of_medians(label):
    ids = [r[0] for r in db.execute(
        "select id from configs where label = ? or layout_of = (select id from configs where label = ?) order by layout", (label, label))]
    meds = []
    for i in ids:
        v = [r[0] for r in db.execute("select s.value from samples s join runs r using (study, config_id, workload, run, rep) "
                                       "where s.config_id = ? and s.metric = 'time' and s.rep >= 1 and r.status = 'ok'", (i,))]
        meds.append(statistics.median(v))
    return len(ids), sum(meds) / len(meds)
o0 = next(c for c in rep["configs"] if c["label"] == "O0")
w = o0["workloads"][0]
k, cand = mean_of_medians("O0")
_, base = mean_of_medians("O2")
if k != 3 or w["layouts"] != 3 or w["n"] != 12 or w["n_baseline"] != 12:
    sys.exit(f"FAIL: layouts {w['layouts']} ({k} stored), n {w['n']}, n_baseline {w['n_baseline']}: want 3, 12, 12")
if abs(w["ratio"] / (cand / base) - 1) > 1e-5:
    sys.exit(f"FAIL: ratio {w['ratio']} is not the mean of the layouts' medians {cand / base}")
sig = w["p"] < 0.05 and abs(w["ratio"] - 1) >= 0.01
if (w["verdict"] != "unchanged") != sig:
    sys.exit(f"FAIL: verdict {w['verdict']} with p {w['p']} ratio {w['ratio']}")
if "nested bootstrap" not in rep["rule"]:
    sys.exit("FAIL: the report's rule does not say the nested rule judged")
print(f"ok: O0/O2 over 3 layouts: ratio {w['ratio']:.4f} ci {w['ci']} p {w['p']} {w['verdict']}")
P

sed -i 's/^layouts = 3$/layouts = 1/' s.study
fs run s.study --db one.db --dry-run >one.out 2>&1 || fail "layouts = 1 dry run: $(tail -2 one.out)"
grep -q "^layouts" one.out && fail "layouts = 1 says a cost: $(grep ^layouts one.out)"
[ "$(grep -c ' build ' one.out)" = 3 ] || fail "layouts = 1: $(grep -c ' build ' one.out) builds listed, want 3"
grep -q -- "-ffunction-sections" one.out && fail "layouts = 1 adds -ffunction-sections: $(grep cflags one.out)"
# a compiler whose link cannot order functions: unsupported, said, not a stop
nolld_gcc nolld-gcc
cat >n.study <<S
; expect: the plain build measured, its layout variant unsupported (no lld)
[study]
workloads = tiny
repeat = 2
layouts = 2
meters = rusage
[axis cc]
nolld = $PWD/nolld-gcc
[axis opt]
O2 = -O2
S
fs run n.study --db n.db >n.out 2>n.err || fail "a toolchain without lld stopped the study: $(tail -3 n.err)"
got=$(sql n.db "select c.layout || ':' || b.status || ':' || coalesce(b.detail, '') from builds b join configs c on c.id = b.config_id order by c.layout")
[[ $got == "0:ok:"*$'\n'"1:unsupported:layout variant 1 not built: the link of its flags failed where variant 0's passed (a seeded function order needs -fuse-ld=lld"*"unrecognized command-line option '-fuse-ld=lld'"* ]] ||
	fail "no lld: not one ok plain build and one unsupported variant with the reason: $got"
[ "$(sql n.db "select count(*) from runs r join configs c on c.id = r.config_id where c.layout = 0 and r.rep >= 1 and r.status = 'ok'")" = 2 ] ||
	fail "no lld: the plain build's runs: $(sql n.db "select config_id, rep, status from runs")"

# a cross compiler that does not find ld.lld (Debian 12's): its variant is
# unsupported before anything is built (a link probe without a libc)
if command -v mips64el-linux-gnuabi64-gcc >/dev/null; then
	cat >x.study <<'S'
; expect: the n64 build would be built, its layout variant unsupported
[study]
workloads = tiny
repeat = 1
layouts = 2
[axis target]
n64 = mips64el-linux-gnuabi64
[axis libc]
glibc =
[axis opt]
O2 = -O2
S
	fs run x.study --db x.db --dry-run >x.out 2>x.err || fail "cross dry run: $(tail -2 x.err)"
	got=$(awk '/^config / { c = $0 } / build / { print (c ~ /layout 1/ ? "v1" : "v0"), $NF, $(NF - 1) }' x.out | tr '\n' ' ')
	if ! out_has -q . ld.lld --version; then
		echo "note: no ld.lld: the cross probe not tried"
	elif mips64el-linux-gnuabi64-gcc -fuse-ld=lld -nostdlib -Wl,--entry=main -x c - -o x.probe <<<'int main(void) { return 0; }' 2>/dev/null; then
		echo "note: this cross gcc finds ld.lld: its variants are built ($got)"
	else
		[[ $got == "v0 build would v1 unsupported "* ]] || fail "cross variant not unsupported: $got"
	fi
else
	echo "note: no mips64el-linux-gnuabi64-gcc: the cross probe not tried"
fi

# a recipe whose link ignores LDFLAGS: the variants' functions are aligned
# and in sections of their own, but no relocations kept: the check cannot
# tell their moved calls from other code and rejects them, stored and said
mkdir -p workloads && cp -r "$FLAGSCOPE_SRC/tests/fixtures/workloads/tiny" workloads/tinynold &&
	sed -i 's/ \$LDFLAGS$//' workloads/tinynold/recipe.ini || fail "cannot copy tiny"
grep -q 'LDFLAGS' workloads/tinynold/recipe.ini && fail "tinynold still links with LDFLAGS"
cat >r.study <<'S'
; expect: both variants rejected by the layout check (no relocations kept)
[study]
workloads = tinynold
repeat = 4
layouts = 3
meters = rusage
[axis opt]
O2 = -O2
S
fs run r.study --db r.db >r.out 2>r.err || fail "LDFLAGS ignored: the study stopped: $(tail -3 r.err)"
got=$(sql r.db "select count(*) from facts where key like 'layout.%' and value like 'rejected: %kept no relocations%'")
[ "$got" = 2 ] || fail "LDFLAGS ignored: 2 variants rejected wanted: $(sql r.db "select key, value from facts where key like 'layout.%'")"
[ "$(sql r.db "select count(*) from builds where status = 'unsupported' and detail like 'layout variant % not used: %'")" = 2 ] ||
	fail "LDFLAGS ignored: the variants' builds are not unsupported: $(sql r.db "select config_id, status, detail from builds")"
grep -q "layout check rejected: .*kept no relocations" r.err r.out || fail "LDFLAGS ignored: the rejection is not said"
# --noise-floor with layouts: the baseline's copy gets variants of its own,
# other seeds than the baseline's (a pure A/A pair whose layouts differ as
# two configurations' do), and its verdict is over its layouts too
cat >f.study <<'S'
[study]
workloads = tiny
repeat = 3
layouts = 2
meters = rusage
[axis opt]
O2 = -O2
S
fs run f.study --db f.db --noise-floor --format json >f.json 2>f.err || fail "noise floor with layouts: $(tail -3 f.err)"
got=$(sql f.db "select label || '|' || layout || '|' || ldflags from configs where label like 'O2 (noise floor)%' order by layout")
[[ $got == "O2 (noise floor)|0|"*$'\n'"O2 (noise floor) [layout 1]|1|"*"--shuffle-sections=.text.*=2 "* ]] ||
	fail "the noise floor has no variant of its own seed: $got"
[ "$(sql f.db "select count(*) from runs r join configs c on c.id = r.config_id where c.label like 'O2 (noise floor)%' and r.status = 'ok' and r.rep > 0")" = 6 ] ||
	fail "the noise floor's 2 layouts x 3 runs were not all run"
fs report --db f.db >f.rep 2>&1 || fail "report: $(tail -2 f.rep)"
grep -Eq '^ +tiny +n=6 .*' <(sed -n '/O2 (noise floor)/,$p' f.rep) || fail "the noise floor's row is not over its 6 runs: $(cat f.rep)"
finish_counted
