#!/bin/bash
# it_lame_gzip_run.sh - lame and gzip from Debian's sources through the
# whole pipeline (`flagscope run`, one repetition), two configurations:
#   O2 dynamic  gcc -O2                                  (the baseline)
#   v3 static   gcc -O3 -march=x86-64-v3, -static (libtool needs -all-static)
# Expected: PASS, with
#   - all four builds ok: flags verified in every compile unit of the
#     workload, the v3 static binaries static (else flags_not_applied)
#   - gzip: every run ok in both configurations (its streams are
#     byte-identical under -march=x86-64-v3)
#   - lame: every run ok; under v3 static the MP3 differs from the baseline's
#     (FMA contraction) and is accepted by the recipe's tolerant check,
#     whose detail ("within tolerance: ... dB") is stored with the run
#   - the ranking lists both configurations ranked (status ok)
# gzip runs on an 8 MiB corpus (a copy of its recipe beside the study: the
# recipe's 50 MiB made most of the test's run time), lame on the recipe's
# own 20 s of audio.
# SKIP when the CPU cannot run x86-64-v3 code or the Debian sources cannot
# be fetched (no deb-src entries: scripts/deb-src.sh; no network).
set -u
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_lame_gzip_run
for f in avx2 fma bmi2; do
	grep -qw $f /proc/cpuinfo || { echo "SKIP: this CPU lacks $f, so x86-64-v3 code cannot run"; exit 77; }
done
small_recipe gzip 's/gencorpus 50 >corpus.bin/gencorpus 8 >corpus.bin/'
pair_study lg.study lame-gzip "lame gzip" "v3 static"
run_study_or_skip lg
pair_ok lg "v3 static" 4 || exit 1
python3 - <<'P' || exit 1
import sqlite3, sys
db = sqlite3.connect("lg.db")
runs = db.execute("select c.label, r.workload, r.run, r.rep, r.status, r.detail from runs r "
                  "join configs c on c.id = r.config_id and c.study = r.study "
                  "where r.run <> '@build'").fetchall()
tol = [r for r in runs if r[0] == 'v3 static' and r[1] == 'lame' and r[5] and 'within tolerance' in r[5]]
if not tol:
    sys.exit("FAIL: no lame run under v3 static was accepted by the tolerant check: "
             f"{[r for r in runs if r[1] == 'lame']}")
gz = [r for r in runs if r[1] == 'gzip' and r[5] and 'tolerance' in r[5]]
if gz:
    sys.exit(f"FAIL: a gzip run needed a tolerance: {gz}")
print(f"ok: 4 builds verified, {len(runs)} runs ok, lame under v3 static: {tol[0][5]}")
P
echo PASS
