#!/bin/bash
# it_install.sh - flagscope installed, moved, and used on a program of the
# user's own with no source tree: `cmake --install` into a prefix, the tree
# copied to another prefix and the first removed, FLAGSCOPE_HOME unset, and
# from an unrelated folder a study whose own workloads/ holds a recipe the
# test writes (a tiny C program and its Makefile, built through `system =
# make`) plus the installed crc32.  Expected: both
# workloads ranked in every configuration, `list workloads` says where each
# came from, and strace shows no file of the source tree or build tree read.
# Then the Debian package (cpack): its fields, its files, and its binary
# run from the unpacked tree.
set -euo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}" "${FLAGSCOPE_TEST_TMP:?}"
. "$FLAGSCOPE_SRC/tests/lib_it.sh"
# Outside the source and build trees (the test's tmp folder is inside them),
# so that any path of theirs in the trace is a read of the source tree.
T=$(mktemp -d /tmp/flagscope-it_install.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home" "$T/elsewhere"
build=$(cd "$(dirname "$FLAGSCOPE_BIN")" && pwd)
fail() { trap - EXIT; echo "FAIL: $* (left in $T)" >&2; exit 1; }
command -v strace >/dev/null || { echo "SKIP: no strace (scripts/packages.txt)"; exit 77; }

# 1. install, then move: the binary must find its data relative to itself
cmake --install "$build" --prefix "$T/first" >/dev/null
for f in bin/flagscope share/flagscope/workloads/crc32/recipe.ini share/flagscope/presets/default.study \
	share/flagscope/remote-helper/helper.c share/doc/flagscope/recipe-format.md share/flagscope/scripts/deb-src.sh; do
	[ -e "$T/first/$f" ] || fail "not installed: $f"
done
if [ -e "$build/harness/qemu-plugin/libinsncount.so" ]; then
	[ -e "$T/first/lib/flagscope/libinsncount.so" ] || fail "the QEMU plugin is not installed"
fi
if command -v help2man >/dev/null; then
	out_has "SEARCH PATH" man -l "$T/first/share/man/man1/flagscope.1.gz" 2>/dev/null ||
		fail "the man page lacks the search path"
fi
[ ! -e "$T/first/share/flagscope/workloads/recipe.c" ] || fail "the loader's code was installed as data"
cp -a "$T/first" "$T/moved"
rm -rf "$T/first"
fs=$T/moved/bin/flagscope

# 2. the user's folder: a study and its own recipe, nothing of flagscope's
cd "$T/elsewhere"
mkdir -p workloads/hello
cat > workloads/hello/hello.c <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000, h = 5381;
	for (unsigned long i = 0; i < n; i++)
		h = h * 33 + (i ^ (h >> 7));
	printf("hash %lu\n", h);
	return 0;
}
C
printf 'hello: hello.c\n\t$(CC) $(CFLAGS) -o $@ hello.c $(LDFLAGS)\n' > workloads/hello/Makefile
cat > workloads/hello/recipe.ini <<'R'
; hello: the install test's own program, built by its own Makefile through
; system = make (no build script); stdout is one hash
[workload]
description = the install test's own program
source = bundled
[build]
system = make
binaries = hello
[run]
args = hello 3000000
timeout = 30
R
cat > mine.study <<'S'
; expect: O1 and O2 ranked, each ok on hello (the study's own) and crc32 (installed)
[study]
name = mine
workloads = hello crc32
repeat = 2
baseline = O2
[axis opt]
O2 = -O2
O1 = -O1
S
run_clean() { env -u FLAGSCOPE_HOME -u FLAGSCOPE_PATH -u XDG_DATA_HOME -u FLAGSCOPE_QEMU_PLUGIN \
	HOME="$T/home" FLAGSCOPE_CACHE="$T/cache" "$@"; }
run_clean "$fs" list workloads > list.txt
grep -Eq "^hello +study $T/elsewhere/workloads +the install test's own program" list.txt ||
	fail "list: hello from the study: $(cat list.txt)"
grep -Eq "^crc32 +installed +CRC-32" list.txt || fail "list: crc32 installed: $(cat list.txt)"
out_has -E "^default +installed " run_clean "$fs" list presets || fail "list presets: default installed"

# LeakSanitizer cannot run under ptrace (a sanitizer build would abort at
# exit): leaks are checked by the runs outside strace
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
run_clean strace -f -qq -e trace=file,process -o "$T/trace" \
	"$fs" run mine.study --db mine.db --format json -q > mine.json 2> mine.err ||
	fail "the study failed: $(cat mine.err)"
python3 - "$T" "$FLAGSCOPE_SRC" "$build" <<'P'
import json, re, sys
t, src, build = sys.argv[1:]
r = json.load(open("mine.json"))
assert len(r["configs"]) == 2, r["configs"]
for c in r["configs"]:
    assert c["status"] == "ok" and c.get("rank"), c
    ws = {w["name"]: w for w in c["workloads"]}
    assert set(ws) == {"hello", "crc32"}, ws.keys()
    for w in ws.values():
        assert w["status"] == "ok" and w["n"] == 2, w
# every file the binary and its children opened or ran: none in the source
# tree or the build tree
bad = set()
for line in open(t + "/trace"):
    for p in re.findall(r'"((?:[^"\\]|\\.)*)"', line):
        for tree in (src, build):
            if p == tree or p.startswith(tree + "/"):
                bad.add(p)
assert not bad, "read the source tree: %s" % sorted(bad)[:10]
# and the trace is a real one: it saw the installed recipe and the user's
trace = open(t + "/trace").read()
assert t + "/moved/share/flagscope/workloads/crc32" in trace, "the trace missed the installed crc32"
assert t + "/elsewhere/workloads/hello" in trace, "the trace missed the study's hello"
P

# 2b. a Debian source apt cannot find: the hint names the installed
# deb-src.sh (an installed copy has no scripts/ folder of a source tree)
mkdir -p "$T/nosrc/workloads/nosrc"
printf '[workload]\ndescription = a source apt has not\nsource = debian:flagscope-no-such-source\n[build]\nsystem = make\nbinaries = x\n[run]\nargs = x\n' \
	> "$T/nosrc/workloads/nosrc/recipe.ini"
printf '[study]\nname = nosrc\nworkloads = nosrc\nrepeat = 1\n[axis opt]\nO2 = -O2\n' > "$T/nosrc/s.study"
(cd "$T/nosrc" && run_clean "$fs" run s.study --db nosrc.db --build-only > out.txt 2>&1) || true
grep -q "run $T/moved/share/flagscope/scripts/deb-src.sh as root" "$T/nosrc/out.txt" ||
	fail "the missing-source hint does not name the installed deb-src.sh: $(grep -i deb-src "$T/nosrc/out.txt" | head -2)"

# 3. the Debian package
if ! command -v dpkg-deb >/dev/null || ! command -v cpack >/dev/null; then
	echo "SKIP part 3: no dpkg-deb or cpack"; exit 0
fi
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$T/deb" >"$T/cpack.log" 2>&1 ||
	fail "cpack: $(tail -5 "$T/cpack.log")"
deb=$(ls "$T"/deb/flagscope_*.deb)
dpkg-deb --info "$deb" > info.txt
grep -q "^ Package: flagscope" info.txt || fail "deb: package name"
[ "$("$fs" --version)" = "flagscope $(dpkg-deb -f "$deb" Version)" ] ||
	fail "--version '$("$fs" --version)' is not the package's $(dpkg-deb -f "$deb" Version)"
grep -qE "^ Depends:.*build-essential" info.txt || fail "deb: Depends lacks build-essential"
grep -qE "^ Depends:.*libinih" info.txt || fail "deb: Depends lacks the shared libraries (shlibdeps)"
# every tagged line of packages.txt is in its field (system = recipes
# need cmake/meson, a tree without configure autoconf: a newcomer's box
# must get them with the package)
for kind in Depends Recommends Suggests; do
	for p in $(sed -n "s/^\([a-z0-9][a-z0-9.+-]*\) *#.*\[$kind\].*/\1/p" "$FLAGSCOPE_SRC/scripts/packages.txt"); do
		grep -qE "^ $kind:.*(^|[ ,])$p(,|\$| )" info.txt || fail "deb: $kind lacks $p: $(grep "^ $kind:" info.txt)"
	done
done
grep -qE "^ Recommends:.*meson" info.txt && grep -qE "^ Suggests:.*autoconf" info.txt ||
	fail "deb: meson (Recommends) or autoconf (Suggests) missing"
dpkg-deb --contents "$deb" > contents.txt
for f in ./usr/bin/flagscope ./usr/share/flagscope/workloads/crc32/recipe.ini ./usr/share/flagscope/presets/default.study \
	./usr/share/flagscope/remote-helper/helper.c ./usr/share/man/man1/flagscope.1.gz \
	./usr/share/flagscope/scripts/deb-src.sh; do
	grep -q " $f\$" contents.txt || fail "deb: no $f"
done
dpkg-deb -x "$deb" "$T/debroot"
out_has -E "^crc32 +installed " run_clean "$T/debroot/usr/bin/flagscope" list workloads ||
	fail "the unpacked package's binary does not find its workloads"
echo "it_install: ok"
