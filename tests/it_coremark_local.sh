#!/bin/bash
# it_coremark_local.sh - the coremark recipe (workloads/coremark).
#
# Without the source (always):
#   - `flagscope run --dry-run` loads the recipe and shows its build under
#     each configuration of a two-configuration study (gcc -O2, -O3)
#   - `flagscope run --build-only` with a cache that does not hold the
#     pinned commit: coremark is a per-workload BUILD_FAILED naming the git
#     fetch (no network here), the study itself runs (exit 0), and the
#     bundled crc32 workload of the same study builds ok
# With FLAGSCOPE_COREMARK_SRC=/path/to/coremark (an unpacked upstream
# tree), through flagscope with a copy of the recipe whose source is
# local:$FLAGSCOPE_COREMARK_SRC, gcc -O2 and -O3, one repetition:
#   - both builds ok (flags verified), coremark and coremark-mt built, and
#     `flagscope verify --expect -O3` passes on the -O3 binaries: CoreMark's
#     own -O2 (PORT_CFLAGS) did not reach any unit
#   - runs single and multi ok in both configurations (stdout equal to the
#     baseline's: the CRC lines and "Correct operation validated"), each
#     with iterations_per_sec and time metrics > 0 stored
# Expected: PASS with the source; SKIP (exit 77) after the source-free
# checks pass without it.
set -u
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_coremark_local
count_failures

study() { # NAME WORKLOADS
	gcc_study "$1.study" "$2" O2 O3
}

# ---- without the source ----
study dry coremark
if ! "$FLAGSCOPE_BIN" run dry.study --dry-run --db dry.db >dry.out 2>dry.err; then
	fail "dry run of the coremark study failed: $(tail -3 dry.err)"
elif [ "$(grep -c '^  coremark  *build [0-9a-f]\{16\}' dry.out)" != 2 ]; then
	fail "dry run does not show one coremark build per configuration: $(cat dry.out)"
else
	ok "the recipe loads; the dry run shows coremark under both configurations"
fi

study nosrc "coremark crc32"
if ! "$FLAGSCOPE_BIN" run nosrc.study --build-only --db nosrc.db -q >nosrc.out 2>nosrc.err; then
	fail "a study with an unfetchable coremark did not run: $(tail -3 nosrc.err)"
else
	got=$(sql nosrc.db "select workload, status from builds order by workload, config_id" | sort | uniq -c | tr -s ' ')
	want=$(printf '%s\n' " 2 coremark|build_failed" " 2 crc32|ok")
	detail=$(sql nosrc.db "select detail from builds where workload='coremark' limit 1")
	if [ "$got" != "$want" ]; then
		fail "builds: '$got', want coremark build_failed and crc32 ok in both configurations (with network the pinned commit may have been fetched)"
	elif ! grep -q 'git' <<<"$detail"; then
		fail "coremark's BUILD_FAILED does not say the git fetch failed: $detail"
	else
		ok "no source: coremark BUILD_FAILED per configuration ($detail), crc32 built"
	fi
fi

# ---- with the source: a copy of the recipe with source = local:SRC ----
local_recipe_or_skip coremark FLAGSCOPE_COREMARK_SRC core_main.c
src=$FLAGSCOPE_COREMARK_SRC
study local coremark
start=$(date +%s)
if ! FLAGSCOPE_HOME=$T/home "$FLAGSCOPE_BIN" run local.study --db local.db -q >local.out 2>local.err; then
	fail "flagscope run with local:$src failed: $(tail -5 local.err)"
fi
echo "flagscope run (2 builds, 2 x 2 runs): $(($(date +%s) - start)) s"
while IFS='|' read -r label status seconds key detail; do
	if [ "$status" != ok ]; then
		fail "build $label: $status $detail"
		continue
	fi
	ok "build $label ok (flags verified) in ${seconds%.*} s"
	if [ "$label" = "gcc O3" ]; then
		out=$FLAGSCOPE_CACHE/builds/$key/out
		if "$FLAGSCOPE_BIN" verify --expect -O3 "$out/coremark" "$out/coremark-mt" >verify.out 2>&1; then
			ok "verify --expect -O3: every unit of coremark and coremark-mt"
		else
			fail "verify --expect -O3: $(cat verify.out)"
		fi
	fi
done < <(sql local.db "select c.label, b.status, b.seconds, b.key, b.detail from builds b
	join configs c on c.id = b.config_id and c.study = b.study order by c.ord")
while IFS='|' read -r label run status detail; do
	[ "$status" = ok ] && ok "run $run under $label" || fail "run $run under $label: $status $detail"
done < <(sql local.db "select c.label, r.run, r.status, r.detail from runs r
	join configs c on c.id = r.config_id and c.study = r.study where r.rep >= 1 order by c.ord, r.run")
for m in iterations_per_sec time; do
	n=$(sql local.db "select count(*) from samples where workload='coremark' and metric='$m' and value > 0 and rep >= 1")
	[ "$n" = 4 ] && ok "$m stored for 2 runs x 2 configurations" || fail "$m: $n samples > 0, want 4"
done
sql local.db "select c.label, s.run, s.value from samples s join configs c on c.id = s.config_id
	and c.study = s.study where s.metric = 'iterations_per_sec' order by c.ord, s.run" |
	sed 's/^/  iterations\/s: /'

finish_counted
