#!/bin/bash
# it_codecs_a.sh - the flac, sqlite and vorbis workloads (issue 15) from
# Debian's sources through the whole pipeline (`flagscope run`, one
# repetition, rusage only), two configurations:
#   O2 dynamic  gcc -O2                                  (the baseline)
#   v3 static   gcc -O3 -march=x86-64-v3, -static
# Expected: PASS, with
#   - every build ok (flags verified in every compile unit, the v3 binaries
#     static and the O2 ones dynamic, else flags_not_applied)
#   - every run ok: flac's round trip decodes to the input exactly, its -8
#     stream is the baseline's or accepted as lossless by its tolerant check;
#     sqlite's test names and verification hash equal the baseline's
#   - `flagscope verify --expect FLAGS` on each built program: as expected,
#     and the codec library's own units are in it with the configuration's
#     last -O: every member of libFLAC.a (that defines a symbol: members
#     compiled empty on x86, e.g. lpc_intrin_neon.o, link nothing), sqlite3.c
#     (the amalgamation); vorbis: every member of libvorbis.a,
#     libvorbisenc.a, libvorbisfile.a and libogg.a
#   - the ranking lists both configurations ranked (status ok)
# The inputs are smaller than the recipes' (copies of the recipes beside
# the study, only the sizes changed): flac encodes 30 s of audio (not 300),
# vorbis 15 s (not 60), speedtest1 runs at --size 10 (not 50).
# SKIP when the Debian sources cannot be fetched (no deb-src entries:
# scripts/deb-src.sh; no network).  Without AVX2 the v3 configuration is
# left out (a SKIP line) and the O2 one still runs, also statically.
# Measured: 6 builds and 20 runs in 15.8 min wall with the 2 cores shared by
# a dozen other jobs (load 14), 6.6 min of CPU; the builds dominate (sqlite3.c
# is one 8 MB unit).  The v3 static flac -8 and vorbis streams differ from
# the baseline's and pass their tolerant checks (lossless; 34.8 dB SNR).
set -u
. "${FLAGSCOPE_SRC:?}/tests/lib_it.sh"
scratch it_codecs_a
workloads="flac sqlite vorbis"
second_config
small_recipe flac 's/genwav 300 >/genwav 30 >/'
small_recipe vorbis 's/genwav 60 >/genwav 15 >/'
small_recipe sqlite 's/^args = speedtest.sh 50$/args = speedtest.sh 10/'
pair_study codecs.study codecs-a "$workloads" "$second"
run_study_or_skip codecs --meters rusage -j 2

# The database: builds, runs, ranking.  Prints "KEY<TAB>LABEL<TAB>WORKLOAD"
# per build for the verify step below.
pair_ok codecs "$second" 6 || exit 1
SECOND="$second" WORKLOADS="$workloads" python3 - >builds.txt <<'P' || exit 1
import os, sqlite3, sys
second, wls = os.environ["SECOND"], os.environ["WORKLOADS"].split()
db = sqlite3.connect("codecs.db")
builds = db.execute("select b.key, c.label, b.workload from builds b join configs c "
                    "on c.id = b.config_id and c.study = b.study").fetchall()
runs = db.execute("select c.label, r.workload, r.run, r.rep, r.status, r.detail from runs r "
                  "join configs c on c.id = r.config_id and c.study = r.study "
                  "where r.run <> '@build'").fetchall()
for wl in wls:
    got = {r[0] for r in runs if r[1] == wl}
    if got != {"O2 dynamic", second}:
        sys.exit(f"FAIL: {wl}: runs in {got}")
for r in runs:
    if r[5]:
        print(f"  {r[0]} {r[1]}/{r[2]}: {r[5]}", file=sys.stderr)
for b in builds:
    print("\t".join(b))
print(f"ok: {len(builds)} builds verified, {len(runs)} runs ok", file=sys.stderr)
P

# members ARCHIVE PATTERN: "unit DIR/NAME.c" for each member of ARCHIVE that
# defines a symbol (a member compiled empty on this CPU, such as libFLAC's
# lpc_intrin_neon.o, has nothing to link), PATTERN being DIR/%s.c
members() {
	nm -A --defined-only "$1" 2>/dev/null | sed -n 's|^[^:]*:\([^:]*\)\.o:.*|\1|p' | sort -u |
		while read -r m; do printf "unit $2\n" "$m"; done
}

# lib_units BUILD_OUT WORKLOAD: "prog PATH" (the program, relative to the
# build) and the codec library's units that must be in it, as "unit
# DIR/NAME.c" (matched against the end of the units' source paths)
lib_units() {
	case $2 in
	flac)
		echo "prog src/flac/flac"
		members "$1/src/libFLAC/.libs/libFLAC.a" src/libFLAC/%s.c
		;;
	sqlite)
		echo "prog speedtest1"
		echo "unit sqlite3.c"
		;;
	vorbis)
		echo "prog oggvorbis"
		for a in libvorbis libvorbisenc libvorbisfile; do
			members "$1/vorbis/lib/.libs/$a.a" lib/%s.c
		done
		members "$1/ogg/src/.libs/libogg.a" src/%s.c
		;;
	esac
}

while IFS=$'\t' read -r key label wl; do
	out=$FLAGSCOPE_CACHE/builds/$key/out
	case $label in
	"v3 static") expect="-O3 -march=x86-64-v3"; link=--static; want=-O3 ;;
	"O2 static") expect=-O2; link=--static; want=-O2 ;;
	*) expect=-O2; link=--dynamic; want=-O2 ;;
	esac
	list=$T/$wl-$key.units
	lib_units "$out" "$wl" >"$list" || fail "$wl/$label: cannot list the library's members"
	prog=$out/$(awk '$1 == "prog" { print $2 }' "$list")
	"$FLAGSCOPE_BIN" verify "$prog" --expect "$expect" $link --format json >"$T/$wl-$key.json" 2>&1 ||
		fail "$wl/$label: verify --expect '$expect' $link: $(head -c 600 "$T/$wl-$key.json")"
	UNITS="$list" WANT="$want" WL="$wl" LABEL="$label" python3 - "$T/$wl-$key.json" <<'P' || exit 1
import json, os, sys
f = json.load(open(sys.argv[1]))[0]
want, wl, label = os.environ["WANT"], os.environ["WL"], os.environ["LABEL"]
needed = [l.split()[1] for l in open(os.environ["UNITS"]) if l.startswith("unit ")]
if len(needed) < 1:
    sys.exit(f"FAIL: {wl}/{label}: no library members listed")
units = {}
for u in f["units"]:
    units.setdefault(u["name"], u)
missing, wrong = [], []
for n in needed:
    hit = [u for name, u in units.items() if name.endswith("/" + n) or name == n]
    if not hit:
        missing.append(n)
        continue
    opts = [w for w in (hit[0].get("switches") or "").split() if w.startswith("-O")]
    if not opts or opts[-1] != want:
        wrong.append((n, hit[0].get("switches")))
if missing:
    sys.exit(f"FAIL: {wl}/{label}: library units not in {f['file']}: {missing}")
if wrong:
    sys.exit(f"FAIL: {wl}/{label}: library units without {want} last: {wrong[:3]}")
print(f"ok: {wl}/{label}: verify as expected; all {len(needed)} library units "
      f"({needed[0]}, ...) recorded {want} last; static={f['static']}")
P
	if [ "$wl" = sqlite ]; then
		# stdout: the test names and the verification hash, no timings
		(cd "$T" && "$out/speedtest.sh" 5 >"$T/st-$key.out" 2>"$T/st-$key.err") ||
			fail "sqlite/$label: speedtest.sh 5: $(tail -2 "$T/st-$key.err")"
		grep -q '^Verification Hash: [0-9]* [0-9a-f]*$' "$T/st-$key.out" ||
			fail "sqlite/$label: no verification hash: $(tail -2 "$T/st-$key.out")"
		grep -q 's$' "$T/st-$key.out" && fail "sqlite/$label: a timing on stdout: $(grep -m1 's$' "$T/st-$key.out")"
		grep -q 'TOTAL.* [0-9]*\.[0-9]*s$' "$T/st-$key.err" || fail "sqlite/$label: no TOTAL time on stderr"
		echo "ok: sqlite/$label: speedtest.sh prints no timings on stdout ($(wc -l <"$T/st-$key.out") lines)"
	fi
done <builds.txt
echo PASS
