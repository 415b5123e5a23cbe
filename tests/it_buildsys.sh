#!/bin/bash
# it_buildsys.sh - recipes without a build script: `[build] system = make |
# cmake | meson | autotools` builds the fixture project
# tests/fixtures/systems (a program and a library of its own, through
# source = local:) through `flagscope run`, under gcc -O2 static and
# dynamic.  Expected:
#   - every build ok: both units (main.c, sum.c) verified with the
#     configuration's flags, bsprog static where the study says static and
#     dynamic where it says dynamic, runs ok with equal output;
#   - the build log shows the system's own commands (cmake -S, meson setup,
#     configure, make CC=...), and the build keys of the four differ;
#   - a recipe whose options override CFLAGS (make CFLAGS=-O1, cmake
#     -DCMAKE_C_FLAGS=-O1, meson -Dc_args=-O1, configure CFLAGS=-O1) is
#     FLAGS_NOT_APPLIED naming a unit: the systems' flags are checked, not
#     assumed;
#   - recipes that mix a script and a system, or name an unknown system,
#     are refused when the study loads (exit 2, the recipe named).
# Each system is skipped (reported) when its tool is not installed.
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_buildsys
rm -rf home/workloads/tiny
FIX=$FLAGSCOPE_SRC/tests/fixtures/systems
command -v gcc >/dev/null || { echo "SKIP: gcc is not installed"; exit 77; }

systems=
for s in make cmake meson autotools; do
	case $s in
	cmake | meson) tool=$s ;;
	*) tool=make ;;
	esac
	if ! command -v $tool >/dev/null; then
		echo "note: $s not tested: $tool is not installed (scripts/packages.txt)"
		continue
	fi
	[ $s = meson ] && ! command -v ninja >/dev/null && continue
	systems="$systems $s"
done
[ -n "$systems" ] || { echo "SKIP: no build system is installed"; exit 77; }

recipe() { # NAME SYSTEM [OPTIONS]
	mkdir -p "home/workloads/$1"
	cat >"home/workloads/$1/recipe.ini" <<EOF
; $1: the buildsys fixture built by system = $2 alone${3:+ (options = $3)}
[workload]
description = it_buildsys fixture ($2)
source = local:$FIX

[build]
system = $2
${3:+options = $3}
binaries = bsprog

[run]
args = bsprog 200000
timeout = 20
EOF
}
good= dropped=
for s in $systems; do
	recipe "bs-$s" $s
	good="$good bs-$s"
	case $s in
	make | autotools) recipe "drop-$s" $s "CFLAGS=-O1" ;;
	cmake) recipe "drop-$s" $s "-DCMAKE_C_FLAGS=-O1" ;;
	meson) recipe "drop-$s" $s "-Dc_args=-O1" ;;
	esac
	dropped="$dropped drop-$s"
done

pair_study bs.study bs "$good$dropped" "O2 static" \
	"every bs-* build ok (static and dynamic), every drop-* build flags_not_applied"
start=$(date +%s)
fs run bs.study --db bs.db -q >bs.out 2>bs.err || fail "run: $(tail -5 bs.err)"
echo "flagscope run ($(echo $good $dropped | wc -w) workloads x 2 configurations): $(($(date +%s) - start)) s"

python3 - "$good" "$dropped" <<'P' || fail "builds (above)"
import json, sqlite3, sys
good, dropped = sys.argv[1].split(), sys.argv[2].split()
db = sqlite3.connect("bs.db")
rows = db.execute("""select b.workload, c.label, b.status, b.detail, b.facts, b.key, b.seconds
    from builds b join configs c on c.id = b.config_id and c.study = b.study""").fetchall()
bad = 0
keys = {}
for w, label, status, detail, facts, key, secs in rows:
    if w in good:
        if status != "ok":
            print(f"FAIL: {w} {label}: {status}: {detail}"); bad += 1; continue
        elf = json.loads(facts)[0]
        want = "static" in label
        if bool(elf["static"]) != want:
            print(f"FAIL: {w} {label}: static={elf['static']}"); bad += 1; continue
        print(f"ok: {w} {label}: verified, {'static' if want else 'dynamic'} ({secs:.1f} s)")
        keys.setdefault(label, set()).add(key)
    elif w in dropped:
        if status != "flags_not_applied" or "unit " not in (detail or ""):
            print(f"FAIL: {w} {label}: {status} ({detail}), want flags_not_applied naming a unit"); bad += 1
        else:
            print(f"ok: {w} {label}: flags_not_applied: {detail[:110]}")
for label, ks in keys.items():
    if len(ks) != len(good):
        print(f"FAIL: {label}: {len(ks)} distinct build keys for {len(good)} systems"); bad += 1
runs = db.execute("select workload, status, detail from runs where rep >= 1 and workload like 'bs-%'").fetchall()
for w, status, detail in runs:
    if status != "ok":
        print(f"FAIL: run {w}: {status} {detail}"); bad += 1
print(f"{len(runs)} runs checked")
sys.exit(1 if bad else 0)
P

# the logs show each system's own commands
for s in $systems; do
	key=$(sql bs.db "select key from builds where workload='bs-$s' limit 1")
	log=$FLAGSCOPE_CACHE/builds/$key/build.log
	case $s in
	make) want='make -j[0-9]* CC=gcc' ;;
	cmake) want='cmake -S .* -DCMAKE_BUILD_TYPE=None' ;;
	meson) want='meson setup --buildtype=plain --default-library=static' ;;
	autotools) want='configure CC=gcc .*--disable-shared' ;;
	esac
	grep -q -- "$want" "$log" || fail "bs-$s: the log does not show '$want': $(head -5 "$log")"
	echo "ok: bs-$s: the log shows '$want'"
done

# refused recipes: both a script and a system; an unknown system
mkdir -p home/workloads/both home/workloads/nosuch
printf '[workload]\nsource = bundled\n[build]\nscript = true\nsystem = make\nbinaries = x\n[run]\nargs = x\n' \
	>home/workloads/both/recipe.ini
printf '[workload]\nsource = bundled\n[build]\nsystem = scons\nbinaries = x\n[run]\nargs = x\n' \
	>home/workloads/nosuch/recipe.ini
for w in both nosuch; do
	sed "s/^workloads = .*/workloads = $w/" bs.study >$w.study
	fs run $w.study --db $w.db -q >$w.out 2>$w.err
	rc=$?
	[ $rc = 2 ] || fail "$w: exit $rc, want 2: $(cat $w.err)"
	case $w in
	both) grep -q "has both a script and system = make" $w.err || fail "$w: $(cat $w.err)" ;;
	nosuch) grep -q "recipe.ini:4: unknown build system 'scons' (known: autotools, cmake, meson, make" $w.err ||
		fail "$w: $(cat $w.err)" ;;
	esac
	echo "ok: $w refused: $(head -1 $w.err)"
done
echo PASS
rm -rf "$T"
