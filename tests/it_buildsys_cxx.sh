#!/bin/bash
# it_buildsys_cxx.sh - a C++ program (many Debian packages are C++) built by
# `[build] system = cmake | meson | make | autotools` alone, at -O2, static
# and dynamic: a tree the test writes (main.cpp and mix.cpp, with a
# CMakeLists.txt, meson.build and Makefile of their own; for autotools a
# configure.ac and Makefile.am without configure, as in a git checkout, so
# autoreconf runs; skipped without autoconf).  The C++ units must get the
# configuration's flags (the C compiler's C++ sibling, g++ for gcc, with
# CXXFLAGS = CFLAGS): before, they were built with none and every build was
# flags_not_applied ("unit main.cpp: no switches recorded").
# Expected: every build ok (both units verified), static where the study
# says static, every run ok with the baseline's output.
set -uo pipefail
. "$FLAGSCOPE_SRC/tests/lib_it.sh" it_buildsys_cxx
command -v g++ >/dev/null || { echo "SKIP: g++ is not installed (build-essential)"; exit 77; }
systems=
for s in cmake meson make autotools; do
	tool=$s
	[ $s = autotools ] && tool=autoreconf
	if command -v $tool >/dev/null && { [ $s != meson ] || command -v ninja >/dev/null; }; then
		systems="$systems $s"
	else
		echo "note: $s not tested: not installed (scripts/packages.txt)"
	fi
done
[ -n "$systems" ] || { echo "SKIP: no build system is installed"; exit 77; }

mkdir -p tree
cat >tree/mix.cpp <<'EOF'
#include <vector>
unsigned mix(unsigned n)
{
	std::vector<unsigned> v(n);
	unsigned x = 12345u;
	for (auto &e : v)
		e = x = x * 2654435761u + 1u;
	unsigned s = 0;
	for (auto e : v)
		s ^= e;
	return s;
}
EOF
cat >tree/main.cpp <<'EOF'
#include <iostream>
unsigned mix(unsigned n);
int main() { std::cout << mix(100000) << "\n"; return 0; }
EOF
printf 'cmake_minimum_required(VERSION 3.13)\nproject(cxxprog CXX)\nadd_executable(cxxprog main.cpp mix.cpp)\n' \
	>tree/CMakeLists.txt
printf "project('cxxprog', 'cpp')\nexecutable('cxxprog', 'main.cpp', 'mix.cpp')\n" >tree/meson.build
printf 'cxxprog: main.cpp mix.cpp\n\t$(CXX) $(CXXFLAGS) -o $@ main.cpp mix.cpp $(LDFLAGS)\n' >tree/Makefile
# autotools: a checkout without configure (autoreconf -fi in a copy)
mkdir -p tree-at
cp tree/*.cpp tree-at/
printf 'AC_INIT([cxxprog], [1.0])\nAM_INIT_AUTOMAKE([foreign])\nAC_PROG_CXX\nAC_CONFIG_FILES([Makefile])\nAC_OUTPUT\n' \
	>tree-at/configure.ac
printf 'bin_PROGRAMS = cxxprog\ncxxprog_SOURCES = main.cpp mix.cpp\n' >tree-at/Makefile.am

names=
for s in $systems; do
	mkdir -p home/workloads/cxx-$s
	printf '[workload]\ndescription = a C++ program (%s)\nsource = local:%s\n[build]\nsystem = %s\nbinaries = cxxprog\n[run]\nargs = cxxprog\ntimeout = 20\n' \
		$s "$T/tree$([ $s = autotools ] && echo -at)" $s >home/workloads/cxx-$s/recipe.ini
	names="$names cxx-$s"
done
pair_study cxx.study cxx "$names" "O2 static" "every build ok and verified, static and dynamic"
start=$(date +%s)
fs run cxx.study --db cxx.db --format json -q >cxx.json 2>cxx.err || fail "run: $(tail -5 cxx.err)"
echo "flagscope run ($(echo $names | wc -w) workloads x 2 configurations): $(($(date +%s) - start)) s"
pair_ok cxx "O2 static" $(($(echo $names | wc -w) * 2)) || fail "builds and runs (above)"
# each build's C++ units carry the flags, and static is static
python3 - <<'P' || fail "units (above)"
import json, sqlite3, sys
bad = 0
for w, label, facts in sqlite3.connect("cxx.db").execute(
        "select b.workload, c.label, b.facts from builds b join configs c on c.id = b.config_id and c.study = b.study"):
    elf = json.loads(facts)[0]
    units = sorted(u["name"].split("/")[-1] for u in elf.get("units", []) if "-O2" in (u.get("switches") or ""))
    if units != ["main.cpp", "mix.cpp"] or bool(elf["static"]) != ("static" in label):
        print(f"FAIL: {w} {label}: units with -O2 {units}, static={elf['static']}"); bad += 1
    else:
        print(f"ok: {w} {label}: {units} verified")
sys.exit(1 if bad else 0)
P
echo PASS
rm -rf "$T"
