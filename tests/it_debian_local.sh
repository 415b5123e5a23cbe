#!/bin/bash
# it_debian_local.sh - system = debian from an installed copy, with the
# study and its recipes in a folder of their own: two tiny Debian source
# trees the test writes (local: sources, debhelper 13, a C program and a
# check target):
#   hello  its check target runs the program and records `id -u`; a
#          [run] benchmark runs its shipped program;
#   unmet  Build-Depends on a package no archive has.
# Expected: the run exits 0 with hello built, its tests passed, its
# benchmark measured (time samples) and verify over its tree finding the
# shipped program with -O2 in its unit, and
# unmet a per-package outcome (unsupported, "build dependencies cannot be
# installed: flagscope-no-such-package ...", as root; "not installed"
# when the run may not install), never a stopped study.  Run by root, the
# build and the check ran as the user nobody (the tree's built-by and
# tested-by files say nobody's uid) and the tree copied back is root's
# with nothing left under /var/tmp/flagscope-deb.*, a run stopped while
# it builds (SIGTERM; the build's group is killed) included.
# Where clang is installed, a clang configuration beside gcc: its shipped
# program's .comment names clang (CC the Debian way), gcc's does not.
# SKIP without dpkg-buildpackage or debhelper.  About 30 s alone, 58 s
# beside the fast tests (three small dpkg-buildpackage runs, one stopped,
# and cmake --install).
set -uo pipefail
: "${FLAGSCOPE_BIN:?}" "${FLAGSCOPE_SRC:?}"
. "$FLAGSCOPE_SRC/tests/lib_it.sh"
command -v dpkg-buildpackage >/dev/null || { echo "SKIP: dpkg-buildpackage is not installed (dpkg-dev)"; exit 77; }
command -v dh >/dev/null || { echo "SKIP: debhelper is not installed"; exit 77; }
T=$(mktemp -d /tmp/flagscope-it_debian_local.XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { trap - EXIT; echo "FAIL: $* (left in $T)" >&2; exit 1; }
build=$(cd "$(dirname "$FLAGSCOPE_BIN")" && pwd)
cmake --install "$build" --prefix "$T/prefix" >/dev/null || fail "cmake --install"
unset FLAGSCOPE_HOME FLAGSCOPE_PATH
export FLAGSCOPE_CACHE=$T/cache

# tree NAME BUILD-DEPENDS: a Debian source tree in $T/src/NAME
tree() {
	local d=$T/src/$1
	mkdir -p "$d/debian/source"
	printf 'int main(void) { return 0; }\n' >"$d/$1.c"
	printf 'all: %s\n%s: %s.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<\n' "$1" "$1" "$1" >"$d/Makefile"
	printf 'check: %s\n\t./%s && id -u >tested-by\ninstall:\n\tinstall -D %s $(DESTDIR)/usr/bin/%s\n' \
		"$1" "$1" "$1" "$1" >>"$d/Makefile"
	printf '%s (1.0-1) unstable; urgency=low\n\n  * test\n\n -- T <t@example.org>  Mon, 01 Jan 2024 00:00:00 +0000\n' \
		"$1" >"$d/debian/changelog"
	printf 'Source: %s\nMaintainer: T <t@example.org>\nBuild-Depends: %s\nRules-Requires-Root: binary-targets\n\nPackage: %s\nArchitecture: any\nDescription: test\n test\n' \
		"$1" "$2" "$1" >"$d/debian/control"
	printf '#!/usr/bin/make -f\n%%:\n\tdh $@\noverride_dh_auto_build:\n\tdh_auto_build\n\tid -u >built-by\n' >"$d/debian/rules"
	chmod +x "$d/debian/rules"
	echo '3.0 (native)' >"$d/debian/source/format"
	mkdir -p "$T/study/workloads/$1"
	printf '; %s: a tiny Debian source tree (it_debian_local)\n[workload]\ndescription = test\nsource = local:%s\n[build]\nsystem = debian\n' \
		"$1" "$d" >"$T/study/workloads/$1/recipe.ini"
	# a benchmark beside the package's tests, measured as any workload's
	printf '[run]\nargs = ${BUILD}/debian/%s/usr/bin/%s\n' "$1" "$1" >>"$T/study/workloads/$1/recipe.ini"
}
tree hello 'debhelper-compat (= 13)'
tree unmet 'debhelper-compat (= 13), flagscope-no-such-package'
cat >"$T/study/s.study" <<'EOS'
; it_debian_local: two local Debian trees, one with build dependencies no archive has
[study]
workloads = hello unmet
repeat = 1
baseline = gcc O2
[axis cc]
gcc = gcc
[axis opt]
O2 = -O2
EOS
# clang as CC the Debian way, where it is installed
if command -v clang >/dev/null; then
	sed -i 's/^gcc = gcc$/gcc = gcc\nclang = clang/' "$T/study/s.study"
fi
mkdir "$T/elsewhere"
cd "$T/elsewhere" || exit 1
before=$(ls -d /var/tmp/flagscope-deb.* 2>/dev/null | wc -l)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v fakeroot >/dev/null; then
	# a run stopped while hello builds as nobody: its build is killed
	# (SIGKILL: the script's own clean-up never runs) and the copy goes
	"$T/prefix/bin/flagscope" run ../study/s.study --db stopped.db -j 1 >stopped.out 2>stopped.err &
	pid=$!
	copy=
	for _ in $(seq 600); do
		copy=$(cat "$FLAGSCOPE_CACHE"/builds/*/user-tree 2>/dev/null | head -n 1)
		[ -n "$copy" ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.1
	done
	kill -TERM $pid 2>/dev/null
	wait $pid
	[ -n "$copy" ] || fail "no build named its copy for nobody: $(tail -3 stopped.err)"
	[ ! -e "$copy" ] || fail "the stopped build's copy $copy was left"
	ok "a stopped build's copy for nobody removed ($copy)"
fi
"$T/prefix/bin/flagscope" run ../study/s.study --db r.db >run.out 2>run.err
rc=$?
[ $rc = 0 ] || fail "run exited $rc: $(tail -3 run.err)"
row() { sql r.db "SELECT b.status, b.detail FROM builds b JOIN configs c ON c.id = b.config_id AND c.study = b.study WHERE b.workload = '$1' AND c.label = 'gcc O2'"; }
grep -q '^ok|' <<<"$(row hello)" || fail "hello: $(row hello)"
[ -n "$(sql r.db "SELECT value FROM build_sizes WHERE workload = 'hello' AND metric = 'tests.time'")" ] ||
	fail "hello's test step stored no tests.time: $(cat "$FLAGSCOPE_CACHE"/builds/*/tests.result 2>&1)"
[ "$(sql r.db "SELECT count(*) FROM samples WHERE workload = 'hello' AND metric = 'time'")" -ge 1 ] ||
	fail "hello's [run] benchmark was not measured: $(grep hello run.out)"
case $(row unmet) in
"unsupported|build dependencies cannot be installed: flagscope-no-such-package"*) ;;
"unsupported|build dependencies not installed: "*) [ "$(id -u)" != 0 ] || fail "root refused: $(row unmet)" ;;
*) fail "unmet: $(row unmet)" ;;
esac
grep -q "unmet.*unsupported.*build dependencies" run.out || fail "unmet's line: $(grep unmet run.out)"
ok "unmet: $(row unmet | head -c 160)"
key() { sql r.db "SELECT b.key FROM builds b JOIN configs c ON c.id = b.config_id AND c.study = b.study WHERE b.workload = 'hello' AND c.label = '$1'"; }
out=$FLAGSCOPE_CACHE/builds/$(key "gcc O2")/out
# verify over the tree: the shipped program (debian/hello/...) found, its
# unit built with the configuration's -O2
"$T/prefix/bin/flagscope" verify --expect -O2 "$out" >verify.txt 2>&1 || fail "verify --expect -O2: $(tail -3 verify.txt)"
grep -q 'debian/hello/usr/bin/hello' verify.txt || fail "verify did not find the shipped program: $(cat verify.txt)"
if command -v clang >/dev/null; then
	clang_out=$FLAGSCOPE_CACHE/builds/$(key "clang O2")/out
	[ "$(sql r.db "SELECT b.status FROM builds b JOIN configs c ON c.id = b.config_id AND c.study = b.study WHERE b.workload = 'hello' AND c.label = 'clang O2'")" = ok ] ||
		fail "hello under clang: $(sql r.db "SELECT status, detail FROM builds WHERE workload = 'hello'")"
	readelf -p .comment "$clang_out/debian/hello/usr/bin/hello" 2>/dev/null | grep -q 'clang version' ||
		fail "the clang build's shipped program was not compiled by clang: $(readelf -p .comment "$clang_out/debian/hello/usr/bin/hello" 2>&1 | tail -2)"
	readelf -p .comment "$out/debian/hello/usr/bin/hello" 2>/dev/null | grep -q 'clang version' &&
		fail "the gcc build's shipped program names clang"
	ok "CC=clang reached the Debian build"
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v fakeroot >/dev/null; then
	nobody=$(id -u nobody)
	[ "$(cat "$out/built-by" 2>/dev/null)" = "$nobody" ] || fail "built by uid $(cat "$out/built-by" 2>/dev/null), not nobody's $nobody"
	[ "$(cat "$out/tested-by" 2>/dev/null)" = "$nobody" ] || fail "tested by uid $(cat "$out/tested-by" 2>/dev/null), not nobody's $nobody"
	[ "$(stat -c %u "$out/hello")" = 0 ] || fail "the tree copied back is not root's"
	[ -x "$out/debian/hello/usr/bin/hello" ] || fail "the shipped tree is not in the build folder"
	grep -q 'building and testing as the user nobody' "$out/../build.log" || fail "the build log does not say who built it"
	after=$(ls -d /var/tmp/flagscope-deb.* 2>/dev/null | wc -l)
	[ "$after" -le "$before" ] || ok "note: /var/tmp holds $after flagscope-deb copies (other runs beside?)"
	ok "built and tested as nobody ($nobody)"
fi
echo PASS
